// `irithyll eval --task anomaly --model NAME --label COL --data FILE`: every
// row is scored, then learned (score-then-learn, one pass); the label column
// (1 = anomaly, 0 = normal) is read for the report only, never shown to the
// detector. Reports ROC AUC, PR AUC (average precision) and samples/s.
#include "eval_anomaly.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "data_options.hpp"
#include "irithyll/anomaly/ranking.hpp"
#include "irithyll/anomaly/registry.hpp"
#include "irithyll/eval/report.hpp"
#include "irithyll/stream/table_stream.hpp"
#include "model_options.hpp"

namespace irithyll::cli {

bool wants_anomaly_task(std::span<char* const> argv) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string_view a = argv[i];
    if (a == "--task" && i + 1 < argv.size() && std::string_view(argv[i + 1]) == "anomaly") return true;
    if (a == "--task=anomaly") return true;
  }
  return false;
}

namespace {

ArgParser make_anomaly_parser(const AnomalyEntry* detector) {
  ArgParser p("irithyll eval --task anomaly --data FILE.csv --label COL [--model NAME] [options]",
              "Anomaly scoring: every row is scored, then learned; the label column (1 = anomaly) only grades.");
  p.option("data", "FILE", "read the stream from a CSV or JSON-lines file, .gz or not; '-' = stdin")
      .option("label", "COL", "0/1 column (1 = anomaly) used to grade the scores, never a feature")
      .option("model", "NAME", "anomaly detector: " + anomaly_detector_names(), "half_space_trees")
      .option("seed", "N", "seed of the detector", "42")
      .option("max-samples", "N", "score at most N rows")
      .flag("json", "print one JSON object with the results on stdout")
      .flag("quiet", "no progress output");
  declare_data_options(p);
  if (detector != nullptr)
    for (const FieldInfo& f : detector->fields())
      p.option(std::string(f.name), "V",
               std::string(detector->name) + ": " + std::string(f.help) + "; " + f.range_text(),
               std::string(f.default_value));
  return p;
}

}  // namespace

int run_eval_anomaly(std::span<char* const> argv) {
  const std::string name = model_from_argv(argv, "half_space_trees");
  const AnomalyEntry* detector = find_anomaly_detector(name);
  ArgParser args = make_anomaly_parser(detector);
  // --task anomaly brought us here; the shared data options would read it
  // as a learner task, so it is taken out before parsing.
  std::vector<char*> rest;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string_view a = argv[i];
    if (a == "--task" && i + 1 < argv.size()) {
      ++i;
      continue;
    }
    if (a.rfind("--task=", 0) == 0) continue;
    rest.push_back(argv[i]);
  }
  if (Status s = args.parse(rest); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (detector == nullptr)
    return fail(Status::invalid_argument("unknown anomaly detector '" + name + "' (anomaly detectors: " +
                                         anomaly_detector_names() + ")"));
  if (!args.given("data")) return fail(Status::invalid_argument("--task anomaly needs --data FILE"));
  if (!args.given("label")) return fail(Status::invalid_argument("--task anomaly needs --label COL (1 = anomaly)"));
  auto seed = args.get_int("seed");
  if (!seed) return fail(seed.status());
  std::optional<std::uint64_t> max_samples;
  if (args.given("max-samples")) {
    auto m = args.get_int("max-samples");
    if (!m) return fail(m.status());
    if (*m < 0) return fail(Status::invalid_argument("--max-samples must be >= 0"));
    max_samples = static_cast<std::uint64_t>(*m);
  }

  auto options = read_data_options(args);
  if (!options) return fail(options.status());
  options->target = args.get("label");
  options->task = Task::kRegression;  // the label as a number: 0 or 1
  const std::string source = args.get("data") == "-" ? std::string("<stdin>") : args.get("data");
  auto opened = open_table_stream(args.get("data"), *options);
  if (!opened) return fail(opened.status());
  TableStream& stream = **opened;
  report_column_notes(stream);
  const std::size_t width = stream.schema().n_features();

  ModelSettings settings;
  for (const FieldInfo& f : detector->fields())
    if (args.given(std::string(f.name))) settings.set(std::string(f.name), args.get(std::string(f.name)));
  auto made = detector->make(settings, AnomalyContext{width, static_cast<std::uint64_t>(*seed)});
  if (!made) return fail(made.status().with_context(source));
  AnomalyDetector& model = **made;

  std::vector<double> x(width), scores;
  std::vector<std::uint8_t> labels;
  double y = 0.0;
  const auto start = std::chrono::steady_clock::now();
  while ((!max_samples || scores.size() < *max_samples) && stream.next(x, y)) {
    if (!(y == 0.0 || y == 1.0))
      return fail(Status::invalid_argument(source + ":" + std::to_string(stream.current_line()) + ": label '" +
                                           args.get("label") + "' must be 0 or 1 (1 = anomaly)"));
    scores.push_back(model.score_one(x));
    labels.push_back(y == 1.0 ? 1 : 0);
    model.learn_one(x);
  }
  if (!stream.status().is_ok()) return fail(stream.status());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::uint64_t anomalies = 0;
  for (const std::uint8_t l : labels) anomalies += l;
  const double auc = roc_auc(scores, labels), ap = average_precision(scores, labels);
  const double rate = seconds > 0.0 ? static_cast<double>(scores.size()) / seconds : 0.0;
  if (args.given("json")) {
    std::string out = "{\"task\":\"anomaly\",\"model\":\"" + std::string(detector->name) + "\",\"samples\":" +
                      std::to_string(scores.size()) + ",\"anomalies\":" + std::to_string(anomalies) + ",\"roc_auc\":";
    out += json_number(auc);
    out += ",\"pr_auc\":";
    out += json_number(ap);
    out += ",\"seconds\":";
    out += json_number(seconds);
    out += ",\"samples_per_second\":";
    out += json_number(rate);
    out += ",\"model_bytes\":" + std::to_string(model.memory_bytes()) + "}";
    std::printf("%s\n", out.c_str());
    return 0;
  }
  std::printf("model        %s\n", std::string(detector->name).c_str());
  std::printf("stream       %s (%zu features, anomaly scoring against '%s')\n", source.c_str(), width,
              args.get("label").c_str());
  std::printf("samples      %zu\n", scores.size());
  std::printf("anomalies    %llu\n", static_cast<unsigned long long>(anomalies));
  std::printf("roc_auc      %.4f\n", auc);
  std::printf("pr_auc       %.4f\n", ap);
  std::printf("seconds      %.3f\n", seconds);
  std::printf("samples/s    %.0f\n", rate);
  std::printf("model bytes  %zu\n", model.memory_bytes());
  if (anomalies == 0 || anomalies == labels.size())
    std::fprintf(stderr, "irithyll: note: the label column holds one class only, so the AUCs are undefined\n");
  return 0;
}

}  // namespace irithyll::cli
