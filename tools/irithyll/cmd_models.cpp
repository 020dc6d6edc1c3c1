// `irithyll models [--json] [NAME]`: every model of the library's catalogue
// with every setting, its default and allowed range, read from the one table
// that also drives `eval`'s options, checkpoints and the Python package.
#include <cstdio>
#include <string>

#include "args.hpp"
#include "command.hpp"
#include "irithyll/anomaly/registry.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/cluster/registry.hpp"
#include "irithyll/preprocess/registry.hpp"
#include "irithyll/timeseries/forecasters.hpp"

namespace irithyll::cli {
namespace {

void print_fields(std::span<const FieldInfo> fields) {
  for (const FieldInfo& f : fields) {
    std::printf("  --%-22s %-7s default %-10s %s\n", std::string(f.name).c_str(),
                std::string(field_type_name(f.type)).c_str(), std::string(f.default_value).c_str(),
                f.type == FieldType::kText ? "" : f.range_text().c_str());
    std::printf("  %26s %s\n", "", std::string(f.help).c_str());
  }
}

void print_model(const CatalogueEntry& e) {
  std::printf("%s  %s\n", std::string(e.name).c_str(), std::string(e.description).c_str());
  std::printf("  tasks: %s%s%s\n", e.regression ? "regression" : "", e.regression && e.classification ? ", " : "",
              e.classification ? "classification" : "");
  print_fields(e.fields());
}

// Clusterers (`irithyll cluster --model NAME`) have their own registry too.
void print_clusterer(const ClustererEntry& e) {
  std::printf("%s  %s\n", std::string(e.name).c_str(), std::string(e.description).c_str());
  std::printf("  tasks: clustering (irithyll cluster --model %s)\n", std::string(e.name).c_str());
  print_fields(e.fields());
}

// Forecasters (`irithyll forecast --model NAME`) have their own registry.
void print_forecaster(const timeseries::ForecasterEntry& e) {
  std::printf("%s  %s\n", std::string(e.name).c_str(), std::string(e.description).c_str());
  std::printf("  task: forecasting (irithyll forecast; --period sets %s)\n", std::string(e.period_field).c_str());
  print_fields(e.fields());
}

// Anomaly detectors (`irithyll eval --task anomaly --model NAME`) have their own registry.
void print_detector(const AnomalyEntry& e) {
  std::printf("%s  %s\n", std::string(e.name).c_str(), std::string(e.description).c_str());
  std::printf("  task: anomaly (irithyll eval --task anomaly)\n");
  print_fields(e.fields());
}

// Transformers (pipeline steps: --model "one_hot|standard_scaler|logistic_regression").
void print_transformer(const TransformerEntry& e) {
  std::printf("%s  %s\n", std::string(e.name).c_str(), std::string(e.description).c_str());
  std::printf("  pipeline step: --model \"%s(key=value;...)|...|LEARNER\"\n", std::string(e.name).c_str());
  print_fields(e.fields());
}

int run_models(std::span<char* const> argv) {
  ArgParser args("irithyll models [--json] [NAME]", "List every model with its settings, defaults and ranges.");
  args.flag("json", "one JSON document (the catalogue) on stdout").positional("NAME", "only this model");
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  const std::string only = args.positionals().empty() ? "" : args.positionals()[0];
  if (!only.empty() && (find_model(only) == nullptr || !find_model(only)->listed) &&
      timeseries::find_forecaster(only) == nullptr && find_anomaly_detector(only) == nullptr &&
      find_clusterer(only) == nullptr && find_transformer(only) == nullptr)
    return fail(Status::invalid_argument("unknown model '" + only + "'"));
  if (args.given("json")) {
    // The catalogue's document with more top-level keys: "forecasters",
    // "anomaly_detectors", "clusterers" and "transformers".
    std::string json = catalogue_json();
    json.pop_back();
    json += ",\"forecasters\":" + timeseries::forecasters_json();
    json += ",\"anomaly_detectors\":" + anomaly_catalogue_json();
    json += ",\"clusterers\":" + clusterers_json();
    json += ",\"transformers\":" + transformers_json() + "}";
    std::printf("%s\n", json.c_str());
    return 0;
  }
  bool first = true;
  for (const auto& e : catalogue()) {
    if (!e.listed || (!only.empty() && e.name != only)) continue;
    if (!first) std::printf("\n");
    first = false;
    print_model(e);
  }
  bool header = false;
  for (const auto& e : timeseries::forecasters()) {
    if (!only.empty() && e.name != only) continue;
    if (!header && only.empty()) std::printf("\nforecasters\n");
    header = true;
    if (!first) std::printf("\n");
    first = false;
    print_forecaster(e);
  }
  bool detectors_header = false;
  for (const AnomalyEntry& e : anomaly_catalogue()) {
    if (!only.empty() && e.name != only) continue;
    if (!detectors_header && only.empty()) std::printf("\nanomaly detectors\n");
    detectors_header = true;
    if (!first) std::printf("\n");
    first = false;
    print_detector(e);
  }
  header = false;
  for (const auto& e : clusterers()) {
    if (!only.empty() && e.name != only) continue;
    if (!header && only.empty()) std::printf("\nclusterers\n");
    header = true;
    if (!first) std::printf("\n");
    first = false;
    print_clusterer(e);
  }
  header = false;
  for (const auto& e : transformer_catalogue()) {
    if (!only.empty() && e.name != only) continue;
    if (!header && only.empty()) std::printf("\ntransformers (pipeline steps)\n");
    header = true;
    if (!first) std::printf("\n");
    first = false;
    print_transformer(e);
  }
  return 0;
}

const CommandRegistration kModelsCommand("models", "list the models, their settings, defaults and ranges", &run_models);

}  // namespace
}  // namespace irithyll::cli
