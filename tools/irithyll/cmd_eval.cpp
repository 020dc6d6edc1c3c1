// `irithyll eval`: prequential (test-then-train) evaluation of a model on a CSV
// file or a built-in generator, with a summary, optional JSON, learning curve,
// per-sample predictions and checkpoints. With no arguments: SGBT on the
// default drifting generator.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include "args.hpp"
#include "command.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/eval/prequential.hpp"
#include "irithyll/eval/report.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/stream/csv_stream.hpp"
#include "irithyll/stream/generators.hpp"
#include "model_options.hpp"
#include "progress.hpp"

namespace irithyll::cli {
namespace {

ArgParser make_parser(const CatalogueEntry* model) {
  std::string streams;
  for (const auto& g : generator_table()) streams += (streams.empty() ? "" : "|") + std::string(g.name);
  ArgParser p("irithyll eval [--data FILE.csv | --stream NAME] [--model NAME] [options]",
              "Prequential evaluation: every sample is predicted, scored, then learned, once.");
  p.option("data", "FILE.csv", "read the stream from a CSV file (header row; target = last column unless --target)")
      .option("stream", "NAME", "built-in generator: " + streams + " (default " + std::string(kDefaultGenerator) + ")")
      .option("target", "COL", "target column of the CSV (default: the last)")
      .option("task", "TASK", "classification|regression (default: inferred from the target)")
      .option("model", "NAME", "model: " + listed_model_names() + " (--model NAME --help lists its options)", "sgbt")
      .option("seed", "N", "seed of the generator and the model", "42")
      .option("max-samples", "N", "evaluate at most N samples (generators default to " +
                                      std::to_string(kDefaultGeneratorSamples) + ")")
      .option("skip", "N", "skip the first N rows of the stream (neither scored nor learned)", "0")
      .option("curve", "FILE.csv", "write the learning curve (cumulative and rolling metrics)")
      .option("curve-every", "N", "samples between learning-curve points", "1000")
      .option("window", "N", "window of the rolling metrics", "1000")
      .option("predictions", "FILE", "write each prequential prediction, one line per sample")
      .option("save", "FILE", "save the complete trained model (checkpoint) at the end")
      .option("load", "FILE", "start from a saved checkpoint instead of a fresh model")
      .flag("json", "print one JSON object with the results on stdout")
      .flag("quiet", "no progress bar");
  if (model != nullptr) declare_model_options(p, *model);
  return p;
}

Result<std::uint64_t> get_count(const ArgParser& args, const std::string& name) {
  auto v = args.get_int(name);
  if (!v) return v.status();
  if (*v < 0) return Status::invalid_argument("option '--" + name + "' must be >= 0");
  return static_cast<std::uint64_t>(*v);
}

Result<std::unique_ptr<Stream>> open_stream(const ArgParser& args, std::uint64_t seed, std::uint64_t skip,
                                            std::optional<std::uint64_t> max_samples) {
  if (args.given("data") && args.given("stream"))
    return Status::invalid_argument("give either --data or --stream, not both");
  if (args.given("data")) {
    CsvOptions options;
    options.target = args.get("target");
    if (args.given("task")) {
      const std::string t = args.get("task");
      if (t == "classification") options.task = Task::kClassification;
      else if (t == "regression") options.task = Task::kRegression;
      else return Status::invalid_argument("--task must be classification or regression, got '" + t + "'");
    }
    return open_csv_stream(args.get("data"), options);
  }
  if (args.given("target")) return Status::invalid_argument("--target applies to --data files only");
  const std::string name = args.given("stream") ? args.get("stream") : std::string(kDefaultGenerator);
  const std::uint64_t length = skip + max_samples.value_or(kDefaultGeneratorSamples);
  auto stream = make_generator(name, seed, length);
  if (stream && args.given("task")) {
    const bool cls = (*stream)->schema().task == Task::kClassification;
    if ((args.get("task") == "classification") != cls)
      return Status::invalid_argument("stream '" + name + "' is a " + (cls ? "classification" : "regression") +
                                      " stream");
  }
  return stream;
}

class ProgressObserver final : public PrequentialObserver {
 public:
  explicit ProgressObserver(ProgressBar& bar) : bar_(bar) {}
  void on_progress(std::uint64_t done, std::optional<std::uint64_t>) override { bar_.update(done); }

 private:
  ProgressBar& bar_;
};

void print_summary(const PrequentialReport& r, const Schema& schema, const std::string& source) {
  std::printf("model        %s\n", r.learner.c_str());
  std::printf("stream       %s (%zu features, %s", source.c_str(), schema.n_features(),
              schema.task == Task::kClassification ? "classification" : "regression");
  if (schema.task == Task::kClassification) std::printf(", %zu classes", schema.n_classes());
  std::printf(")\n");
  std::printf("samples      %llu\n", static_cast<unsigned long long>(r.samples));
  if (schema.task == Task::kClassification) {
    std::printf("accuracy     %.4f\n", r.metrics.accuracy);
    std::printf("kappa        %.4f\n", r.metrics.kappa);
    std::printf("macro_f1     %.4f\n", r.metrics.macro_f1);
    std::printf("log_loss     %.4f\n", r.metrics.log_loss);
  } else {
    std::printf("mae          %.6g\n", r.metrics.mae);
    std::printf("rmse         %.6g\n", r.metrics.rmse);
    std::printf("r2           %.4f\n", r.metrics.r2);
  }
  std::printf("seconds      %.3f\n", r.seconds);
  std::printf("samples/s    %.0f\n", r.samples_per_second);
  std::printf("model bytes  %zu\n", r.model_bytes);
}

int run_eval(std::span<char* const> argv) {
  const std::string model_name = model_from_argv(argv, "sgbt");
  const CatalogueEntry* model = find_model(model_name);
  if (model != nullptr && !model->listed) model = nullptr;
  ArgParser args = make_parser(model);
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (model == nullptr)
    return fail(Status::invalid_argument("unknown model '" + model_name + "' (models: " + listed_model_names() + ")"));
  auto seed = get_count(args, "seed");
  auto skip = get_count(args, "skip");
  auto curve_every = get_count(args, "curve-every");
  auto window = get_count(args, "window");
  for (const Status* s : {&seed.status(), &skip.status(), &curve_every.status(), &window.status()})
    if (!s->is_ok()) return fail(*s);
  if (*window == 0) return fail(Status::invalid_argument("--window must be >= 1"));
  std::optional<std::uint64_t> max_samples;
  if (args.given("max-samples")) {
    auto m = get_count(args, "max-samples");
    if (!m) return fail(m.status());
    max_samples = *m;
  }

  auto stream = open_stream(args, *seed, *skip, max_samples);
  if (!stream) return fail(stream.status());
  const Schema& schema = (*stream)->schema();
  const std::string source = args.given("data") ? args.get("data")
                             : args.given("stream") ? args.get("stream") : std::string(kDefaultGenerator);

  std::unique_ptr<Learner> learner;
  if (args.given("load")) {
    auto loaded = load_learner(args.get("load"));
    if (!loaded) return fail(loaded.status());
    learner = std::move(loaded).value();
  } else {
    const LearnerContext context{schema.task, schema.n_classes(), schema.n_features(), *seed};
    auto made = make_learner(model->name, given_model_settings(args, *model), context);
    if (!made) return fail(made.status());  // the message starts with the model name
    learner = std::move(made).value();
  }

  PrequentialOptions options;
  options.max_samples = max_samples;
  options.skip = *skip;
  options.curve_every = args.given("curve") ? *curve_every : 0;
  options.rolling_window = static_cast<std::size_t>(*window);
  options.progress_every = 1000;

  ObserverList observers;
  std::ofstream curve_file, predictions_file;
  std::optional<LearningCurveWriter> curve;
  std::optional<PredictionWriter> predictions;
  if (args.given("curve")) {
    curve_file.open(args.get("curve"));
    if (!curve_file) return fail(Status::io_error(args.get("curve") + ": cannot open for writing"));
    curve.emplace(curve_file, schema.task);
    observers.add(&*curve);
  }
  if (args.given("predictions")) {
    predictions_file.open(args.get("predictions"));
    if (!predictions_file) return fail(Status::io_error(args.get("predictions") + ": cannot open for writing"));
    predictions.emplace(predictions_file, schema.task, schema.n_classes());
    observers.add(&*predictions);
  }
  ProgressBar bar(!args.given("quiet") && ::isatty(STDERR_FILENO) == 1, [&]() -> std::optional<std::uint64_t> {
    auto hint = (*stream)->size_hint();
    if (!hint) return max_samples;
    const std::uint64_t left = *hint > *skip ? *hint - *skip : 0;
    return max_samples ? std::min(left, *max_samples) : left;
  }());
  ProgressObserver progress(bar);
  observers.add(&progress);

  auto report = run_prequential(*learner, **stream, options, &observers);
  bar.finish();
  if (!report) return fail(report.status());
  if (curve && !curve->status().is_ok()) return fail(curve->status().with_context(args.get("curve")));
  if (predictions && !predictions->status().is_ok())
    return fail(predictions->status().with_context(args.get("predictions")));
  if (args.given("save")) {
    if (Status s = save_learner(args.get("save"), *learner); !s) return fail(s);
  }
  if (args.given("json")) std::printf("%s\n", report_to_json(*report, schema.task).c_str());
  else print_summary(*report, schema, source);
  return 0;
}

const CommandRegistration kRegistration("eval", "prequential evaluation of a model on a stream", &run_eval);

}  // namespace
}  // namespace irithyll::cli
