// `irithyll compare`: several models over ONE pass of a stream (every row is
// predicted, scored and learned by each model in turn), then one table
// (metrics, samples/s inside each model, memory) and, with --plot, one
// learning-curve picture with a curve per model.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "command.hpp"
#include "output_paths.hpp"
#include "data_options.hpp"
#include "memory_budget.hpp"
#include "irithyll/eval/prequential.hpp"
#include "irithyll/eval/report.hpp"
#include "irithyll/stream/table_stream.hpp"
#include "irithyll/stream/generators.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/pipeline_spec.hpp"
#include "irithyll/stacked.hpp"
#include "model_options.hpp"
#include "plotting.hpp"
#include "progress.hpp"

namespace irithyll::cli {
namespace {

ArgParser make_compare_parser() {
  ArgParser p("irithyll compare (--data FILE | --stream NAME) --models A,B,... [--plot FILE.svg] [options]",
              "Runs several models over one pass of a stream; prints one table and draws one plot.");
  p.option("data", "FILE", "CSV or JSON-lines file (.gz or not); '-' = standard input")
      .option("stream", "NAME", "built-in generator (default " + std::string(kDefaultGenerator) + ")")
      .option("target", "COL", "target column (default: the last)")
      .option("task", "TASK", "classification|regression (default: inferred)")
      .option("models", "LIST",
              "comma-separated models, each with optional settings: sgbt(learning-rate=0.05),mamba, or pipelines: "
              "one_hot|standard_scaler|logistic_regression; among " +
                  listed_model_names(),
              "sgbt,loglinear")
      .option("seed", "N", "seed of the generator and the models", "42")
      .option("max-samples", "N", "at most N rows (generators default to " + std::to_string(kDefaultGeneratorSamples) +
                                      ")")
      .option("window", "N", "window of the rolling metrics", "1000")
      .option("curve-every", "N", "samples between curve points", "100")
      .option("plot", "FILE.svg", "draw one learning curve per model")
      .flag("json", "print one JSON object per model, one per line")
      .flag("quiet", "no progress bar");
  declare_data_options(p);
  declare_memory_budget(p);
  return p;
}

Result<std::uint64_t> count(const ArgParser& args, const std::string& name) {
  auto v = args.get_int(name);
  if (!v) return v.status();
  if (*v < 0) return Status::invalid_argument("option '--" + name + "' must be >= 0");
  return static_cast<std::uint64_t>(*v);
}

int run_compare(std::span<char* const> argv) {
  ArgParser args = make_compare_parser();
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (Status s = check_output_paths(args, {"plot"}); !s) return fail(s);
  auto seed = count(args, "seed");
  auto window = count(args, "window");
  auto every = count(args, "curve-every");
  for (const Status* s : {&seed.status(), &window.status(), &every.status()})
    if (!s->is_ok()) return fail(*s);
  if (*window == 0 || *every == 0) return fail(Status::invalid_argument("--window and --curve-every must be >= 1"));
  std::optional<std::uint64_t> max_samples;
  if (args.given("max-samples")) {
    auto m = count(args, "max-samples");
    if (!m) return fail(m.status());
    max_samples = *m;
  }
  if (args.given("data") && args.given("stream")) return fail(Status::invalid_argument("give --data or --stream"));

  std::unique_ptr<Stream> stream;
  std::string source;
  if (args.given("data")) {
    auto options = read_data_options(args);
    if (!options) return fail(options.status());
    options->allow_missing_target = true;
    auto opened = open_table_stream(args.get("data"), *options);
    if (!opened) return fail(opened.status());
    report_column_notes(**opened);
    stream = std::move(opened).value();
    source = args.get("data") == "-" ? "<stdin>" : args.get("data");
  } else {
    source = args.given("stream") ? args.get("stream") : std::string(kDefaultGenerator);
    auto made = make_generator(source, *seed, max_samples.value_or(kDefaultGeneratorSamples));
    if (!made) return fail(made.status());
    stream = std::move(made).value();
  }
  const Schema& schema = stream->schema();

  std::vector<std::unique_ptr<Learner>> owned;
  std::vector<Learner*> learners;
  auto specs = parse_model_list(args.get("models"));
  if (!specs) return fail(specs.status().with_context("--models"));
  std::vector<std::string> names;
  std::string categorical;  // text report: which columns each model splits by category sets
  for (const ModelSpec& spec : *specs) {
    names.push_back(spec.name);
    if (!is_pipeline_spec(spec.name)) {
      const LearnerContext context{schema.task, schema.n_classes(), schema.n_features(), *seed};
      if (Status s = check_class_memory(args, spec.name, spec.settings, context, schema.target_name); !s)
        return fail(s.with_context("--models " + spec.name));
    }
    std::string line;
    auto made = make_cli_model(spec.name, spec.settings, schema, *seed, line);
    if (!made) return fail(made.status().with_context("--models"));
    if (line.find("split by category") != std::string::npos)
      categorical += (categorical.empty() ? "" : ", ") + spec.name;
    owned.push_back(std::move(made).value());
    learners.push_back(owned.back().get());
  }
  if (learners.empty()) return fail(Status::invalid_argument("--models lists no model"));

  // A model listed twice under one name (two settings of sgbt) is labelled
  // by its whole specification, and an exact repeat by its position too.
  std::vector<std::string> specs_text;
  for (const ModelSpec& spec : *specs) {
    std::string text = spec.name;
    for (std::size_t k = 0; k < spec.settings.items().size(); ++k)
      text += (k == 0 ? "(" : ",") + spec.settings.items()[k].first + "=" + spec.settings.items()[k].second;
    specs_text.push_back(spec.settings.empty() ? text : text + ")");
  }
  const std::vector<std::string> bare = names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto same = [&](const std::vector<std::string>& v) {
      return static_cast<std::size_t>(std::count(v.begin(), v.end(), v[i]));
    };
    if (same(bare) > 1) names[i] = same(specs_text) > 1 ? specs_text[i] + " #" + std::to_string(i + 1) : specs_text[i];
  }
  int label_width = 20;
  for (const std::string& n : names) label_width = std::max(label_width, static_cast<int>(n.size()));

  std::vector<CurveRecorder> recorders;
  recorders.reserve(learners.size());
  for (Learner* l : learners) recorders.emplace_back(drift_event_counter(*l));
  std::vector<PrequentialObserver*> observers;
  for (CurveRecorder& r : recorders) observers.push_back(&r);
  // One bar for the whole pass, driven by the first model's lane (every lane
  // sees every row).
  ProgressBar bar(!args.given("quiet") && ::isatty(STDERR_FILENO) == 1, [&]() -> std::optional<std::uint64_t> {
    auto hint = stream->size_hint();
    if (!hint) return max_samples;
    return max_samples ? std::min(*hint, *max_samples) : *hint;
  }());
  if (const auto* table = dynamic_cast<const TableStream*>(stream.get()); table != nullptr)
    bar.set_fraction_source([table] { return table->fraction_read(); });
  ProgressObserver progress(bar);
  ObserverList first;
  first.add(observers[0]);
  first.add(&progress);
  observers[0] = &first;

  PrequentialOptions options;
  options.max_samples = max_samples;
  options.rolling_window = static_cast<std::size_t>(*window);
  options.curve_every = *every;
  options.progress_every = 1;  // the bar looks at the clock itself
  auto reports = run_prequential_side_by_side(learners, *stream, options, observers);
  bar.finish();
  if (!reports) return fail(reports.status().with_context(source));
  report_skipped_rows(*stream);

  const bool cls = schema.task == Task::kClassification;
  if (args.given("json")) {
    for (const PrequentialReport& r : *reports) std::printf("%s\n", report_to_json(r, schema.task).c_str());
  } else {
    std::printf("stream  %s (%zu features, %s", source.c_str(), schema.n_features(),
                cls ? "classification" : "regression");
    if (cls) std::printf(", %zu classes", schema.n_classes());
    std::printf("), %llu samples, one pass\n", static_cast<unsigned long long>((*reports)[0].samples));
    std::fputs(categorical_report(schema, categorical).c_str(), stdout);
    std::printf("\n");
    if (cls) {
      // The baselines see only the labels, so they are the same for every model.
      const MetricValues& m0 = (*reports)[0].metrics;
      std::printf("baselines: no-change accuracy %.4f, majority-class accuracy %.4f "
                  "(kappa_t and kappa_m are measured against them)\n\n",
                  m0.no_change_accuracy, m0.majority_accuracy);
      std::printf("%-*s %9s %9s %9s %9s %9s %9s %12s %14s\n", label_width, "model", "accuracy", "kappa", "kappa_t", "kappa_m",
                  "balanced", "macro_f1", "samples/s", "memory");
    } else {
      std::printf("%-*s %11s %11s %9s %9s %9s %12s %14s\n", label_width, "model", "mae", "rmse", "r2", "mape%", "smape%",
                  "samples/s", "memory");
    }
    for (std::size_t i = 0; i < reports->size(); ++i) {
      const PrequentialReport& r = (*reports)[i];
      if (cls)
        std::printf("%-*s %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f %12.0f %14zu\n", label_width, names[i].c_str(), r.metrics.accuracy,
                    r.metrics.kappa, r.metrics.kappa_t, r.metrics.kappa_m, r.metrics.balanced_accuracy,
                    r.metrics.macro_f1, r.samples_per_second, r.model_bytes);
      else
        std::printf("%-*s %11.6g %11.6g %9.4f %9.4g %9.4g %12.0f %14zu\n", label_width, names[i].c_str(), r.metrics.mae,
                    r.metrics.rmse, r.metrics.r2, r.metrics.mape, r.metrics.smape, r.samples_per_second,
                    r.model_bytes);
    }
  }
  if (args.given("plot")) {
    std::vector<CurveRun> runs;
    for (std::size_t i = 0; i < names.size(); ++i) runs.push_back({names[i], &recorders[i]});
    const std::string stream_name = source.substr(source.find_last_of('/') + 1);
    if (Status s = write_plot(args.get("plot"),
                              learning_curve_plot(runs, schema.task, stream_name, static_cast<std::size_t>(*window)));
        !s)
      return fail(s);
  }
  return 0;
}

const CommandRegistration kCompareCommand("compare", "several models over one pass of a stream: a table and a plot",
                                        &run_compare);

}  // namespace
}  // namespace irithyll::cli
