// `irithyll eval`: prequential (test-then-train) evaluation of a model on a CSV
// file or a built-in generator, with a summary, optional JSON, learning curve,
// per-sample predictions and checkpoints. With no arguments: SGBT on the
// default drifting generator.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "args.hpp"
#include "command.hpp"
#include "output_paths.hpp"
#include "data_options.hpp"
#include "memory_budget.hpp"
#include "provenance.hpp"
#include "diagnostics_report.hpp"
#include "eval_anomaly.hpp"
#include "eval_multi.hpp"
#include "importance_report.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/eval/class_report.hpp"
#include "irithyll/eval/prequential.hpp"
#include "irithyll/eval/report.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/model_report.hpp"
#include "irithyll/pipeline_spec.hpp"
#include "irithyll/selection/conformal.hpp"
#include "irithyll/stream/read_ahead.hpp"
#include "irithyll/stream/reservoir.hpp"
#include "irithyll/stream/table_stream.hpp"
#include "irithyll/threaded.hpp"
#include "irithyll/stream/generators.hpp"
#include "model_options.hpp"
#include "plotting.hpp"
#include "progress.hpp"

namespace irithyll::cli {
namespace {

// `model`: the model whose options exist (nullptr: none). With --load every
// model's options are declared, so that one given beside a checkpoint is
// recognised and refused by name rather than reported as unknown.
ArgParser make_eval_parser(const CatalogueEntry* model, bool loading) {
  std::string streams;
  for (const auto& g : generator_table()) streams += (streams.empty() ? "" : "|") + std::string(g.name);
  ArgParser p("irithyll eval [--data FILE.csv | --stream NAME] [--model NAME] [options]",
              "Prequential evaluation: every sample is predicted, scored, then learned, once.");
  p.option("data", "FILE", "read the stream from a CSV or JSON-lines file, .gz or not; '-' = stdin (one pass)")
      .option("stream", "NAME", "built-in generator: " + streams + " (default " + std::string(kDefaultGenerator) + ")")
      .option("target", "COL", "target column of the CSV (default: the last); a,b,c = several regression targets "
              "(multi_target_sgbt)")
      .option("task", "TASK", "classification|regression (default: inferred from the target); anomaly: "
              "see --task anomaly --help")
      .option("model", "NAME", "model: " + listed_model_names() + "; or a pipeline T1|T2|LEARNER of transformers (irithyll models) and a learner, each with optional (key=value;...) settings (--model NAME --help lists its options)", "sgbt")
      .option("seed", "N", "seed of the generator and the model", "42")
      .option("max-samples", "N", "evaluate at most N samples (generators default to " +
                                      std::to_string(kDefaultGeneratorSamples) + ")")
      .flag("no-target-guard", "regression: learn every target as given (by default a target beyond the recent "
                                 "median +- 8 MADs is clipped for learning; scores use the raw target)")
      .option("skip", "N", "skip the first N rows of the stream (neither scored nor learned)", "0")
      .option("subsample", "N", "learn and score N rows drawn uniformly (reservoir sampling, --seed) from those "
              "--skip and --max-samples select, in stream order; the N rows are held in memory and the first "
              "is learned once the stream has been read to its end")
      .option("curve", "FILE.csv", "write the learning curve (cumulative and rolling metrics)")
      .option("curve-every", "N", "samples between learning-curve points (default 1000; 100 with --plot)")
      .option("plot", "FILE.svg", "draw the learning curve (cumulative and rolling metric, drift events); .png via rsvg-convert")
      .option("window", "N", "window of the rolling metrics", "1000")
      .option("interval", "LEVEL", "level of the prediction intervals scored for models that give them; given, "
              "any other model gets conformal intervals (regression) or prediction sets (classification)", "0.9")
      .option("predictions", "FILE", "write each prediction, one line per row: class name and its probability")
      .option("unlabelled", "MODE", "rows with an empty label: predict (reported, not learned) | skip | error",
              "predict")
      .option("label-delay", "N", "learn the label of row t at row t+N (delayed-label evaluation)", "0")
      .option("save", "FILE", "save the complete trained model (checkpoint) at the end")
      .option("load", "FILE", "start from a saved checkpoint instead of a fresh model")
      .flag("json", "print one JSON object with the results on stdout")
      .flag("quiet", "no progress bar");
  declare_data_options(p);
  declare_memory_budget(p);
  if (loading) {
    for (const auto& e : catalogue())
      if (e.listed) declare_model_options(p, e);
  } else if (model != nullptr) {
    declare_model_options(p, *model);
  }
  return p;
}

Result<std::uint64_t> get_count(const ArgParser& args, const std::string& name) {
  auto v = args.get_int(name);
  if (!v) return v.status();
  if (*v < 0) return Status::invalid_argument("option '--" + name + "' must be >= 0");
  return static_cast<std::uint64_t>(*v);
}

Result<std::unique_ptr<Stream>> open_stream(const ArgParser& args, std::uint64_t seed, std::uint64_t skip,
                                            std::optional<std::uint64_t> max_samples, const Schema& stored) {
  if (args.given("data") && args.given("stream"))
    return Status::invalid_argument("give either --data or --stream, not both");
  if (args.given("data")) {
    auto options = read_data_options(args, true);
    if (!options) return options.status();
    options->allow_missing_target = args.get("unlabelled") != "error";
    seed_known_categories(*options, stored);
    auto opened = open_table_stream(args.get("data"), *options);
    if (!opened) return opened.status();
    report_column_notes(**opened);
    // A file is read, split and parsed on a second thread while the model
    // learns (src/stream/read_ahead.cpp). Standard input and pipes decide
    // their look-ahead by what has arrived and are read directly; so is a
    // run that saves its model, whose category dictionaries must hold the
    // values of the rows learned and no more, wherever it stops.
    std::error_code ec;
    if (!args.given("save") && args.get("data") != "-" && std::filesystem::is_regular_file(args.get("data"), ec))
      return std::unique_ptr<Stream>(read_ahead(std::move(opened).value()));
    return std::unique_ptr<Stream>(std::move(opened).value());
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

void print_summary(const PrequentialReport& r, const Schema& schema, const std::string& source,
                   const std::string& categorical) {
  std::printf("model        %s\n", r.learner.c_str());
  std::printf("stream       %s (%zu features, %s", source.c_str(), schema.n_features(),
              schema.task == Task::kClassification ? "classification" : "regression");
  if (schema.task == Task::kClassification) std::printf(", %zu classes", schema.n_classes());
  std::printf(")\n");
  std::fputs(categorical.c_str(), stdout);
  std::printf("samples      %llu\n", static_cast<unsigned long long>(r.samples));
  if (r.unlabelled > 0) std::printf("unlabelled   %llu\n", static_cast<unsigned long long>(r.unlabelled));
  if (schema.task == Task::kClassification) {
    std::printf("accuracy     %.4f\n", r.metrics.accuracy);
    std::printf("kappa        %.4f\n", r.metrics.kappa);
    std::printf("macro_f1     %.4f\n", r.metrics.macro_f1);
    std::printf("log_loss     %.4f\n", r.metrics.log_loss);
    std::printf("balanced     %.4f\n", r.metrics.balanced_accuracy);
    if (std::isfinite(r.metrics.roc_auc)) std::printf("roc_auc      %.4f\n", r.metrics.roc_auc);
    std::printf("kappa_t      %.4f  (no-change baseline accuracy %.4f)\n", r.metrics.kappa_t,
                r.metrics.no_change_accuracy);
    std::printf("kappa_m      %.4f  (majority-class baseline accuracy %.4f)\n", r.metrics.kappa_m,
                r.metrics.majority_accuracy);
  } else {
    std::printf("mae          %.6g\n", r.metrics.mae);
    std::printf("rmse         %.6g\n", r.metrics.rmse);
    std::printf("r2           %.4f\n", r.metrics.r2);
    std::printf("mape         %.4g%%\n", r.metrics.mape);
    std::printf("smape        %.4g%%\n", r.metrics.smape);
  }
  if (r.interval) {
    std::printf("interval     %.0f%%: coverage %.4f, mean %s %.6g\n", 100.0 * r.interval->level,
                r.interval->coverage, r.interval->sets ? "set size" : "width", r.interval->mean_width);
    for (const QuantileScore& q : r.interval->quantiles)
      std::printf("quantile     tau %-5g pinball %.6g, P(y <= q) %.4f\n", q.tau, q.pinball, q.coverage);
    if (!r.interval->quantiles.empty())
      std::printf("crossings    %llu\n", static_cast<unsigned long long>(r.interval->crossings));
  }
  std::printf("seconds      %.3f\n", r.seconds);
  std::printf("samples/s    %.0f\n", r.samples_per_second);
  std::printf("model bytes  %zu\n", r.model_bytes);
  if (schema.task == Task::kClassification && r.confusion.n_classes() > 0)
    std::printf("\n%s", class_report_text(r.confusion, schema.class_names).c_str());
}

// The checkpoint fixes the model: model options next to --load would be
// silently ignored, so they are refused unless they restate the checkpoint
// (--model naming its learner).
Status check_load_flags(const ArgParser& args, const Learner& loaded) {
  const bool restates_pipeline = loaded.name() == "pipeline" && is_pipeline_spec(args.get("model"));
  if (args.given("model") && args.get("model") != loaded.name() && !restates_pipeline)
    return Status::invalid_argument("--model " + args.get("model") + " but the checkpoint holds a '" +
                                    std::string(loaded.name()) + "' model");
  // Several models share a setting's name; each given one is named once.
  std::vector<std::string> names;
  for (const auto& e : catalogue())
    for (const FieldInfo& f : e.fields()) {
      const std::string name(f.name);
      // --threads is a run-time setting a Threaded model takes after loading.
      if (e.listed && args.given(name) && name != "threads" &&
          std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(name);
    }
  std::string given;
  for (const std::string& name : names) given += (given.empty() ? "--" : ", --") + name;
  if (!given.empty())
    return Status::invalid_argument("model options (" + given + ") cannot change a loaded checkpoint; drop them " +
                                    "or train a new model without --load");
  return Status::ok();
}

// --threads N on a loaded model: checkpoints do not keep the thread count
// (every count writes the same bytes), so a decoded model is given it here.
Status apply_load_threads(const ArgParser& args, Learner& loaded) {
  if (!args.given("threads")) return Status::ok();
  auto n = get_count(args, "threads");
  if (!n) return n.status();
  auto* threaded = dynamic_cast<Threaded*>(&loaded);
  if (threaded == nullptr)
    return Status::invalid_argument("--threads: a '" + std::string(loaded.name()) +
                                    "' model trains on one thread (sgbt, arf, srp and leveraging_bagging take it)");
  IRITHYLL_RETURN_IF_ERROR(check_threads(loaded.name(), *n));  // before narrowing to set_threads' width
  return threaded->set_threads(static_cast<std::uint32_t>(*n));
}

// A checkpoint that knows its training columns must meet the same columns.
Status check_schema(const Schema& stored, const Schema& stream, const std::string& path) {
  if (stored.feature_names.empty()) return Status::ok();  // older file: nothing to check
  for (const std::string& f : stored.feature_names)
    if (std::find(stream.feature_names.begin(), stream.feature_names.end(), f) == stream.feature_names.end())
      return Status::invalid_argument(path + ": the model was trained with feature '" + f +
                                      "', which the stream lacks");
  for (const std::string& f : stream.feature_names)
    if (std::find(stored.feature_names.begin(), stored.feature_names.end(), f) == stored.feature_names.end())
      return Status::invalid_argument(path + ": the stream has feature '" + f +
                                      "', which the model was not trained with (--drop it)");
  if (stored.feature_names != stream.feature_names)
    return Status::invalid_argument(path + ": the stream's features are in another order than the model's "
                                    "(reorder them with --features)");
  if (stored.task == Task::kClassification && stored.class_names != stream.class_names)
    return Status::invalid_argument(path + ": the model's classes differ from the stream's (give the model's with "
                                    "--classes)");
  return Status::ok();
}

int run_eval(std::span<char* const> argv) {
  if (wants_anomaly_task(argv)) return run_eval_anomaly(argv);
  const std::string model_name = model_from_argv(argv, "sgbt");
  const CatalogueEntry* model = find_model(learner_of_model(model_name));
  if (model != nullptr && !model->listed) model = nullptr;
  bool loading = false;
  for (char* const a : argv) loading = loading || std::string_view(a) == "--load" || std::string_view(a).starts_with("--load=");
  ArgParser args = make_eval_parser(model, loading);
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (Status s = check_output_paths(args, {"save", "plot", "predictions", "curve"}); !s) return fail(s);
  auto seed = get_count(args, "seed");
  auto skip = get_count(args, "skip");
  Result<std::uint64_t> curve_every = std::uint64_t{args.given("plot") ? 100u : 1000u};
  if (args.given("curve-every")) curve_every = get_count(args, "curve-every");
  auto window = get_count(args, "window");
  auto label_delay = get_count(args, "label-delay");
  for (const Status* s : {&seed.status(), &skip.status(), &curve_every.status(), &window.status(),
                          &label_delay.status()})
    if (!s->is_ok()) return fail(*s);
  if (*window == 0) return fail(Status::invalid_argument("--window must be >= 1"));
  std::optional<std::uint64_t> max_samples;
  if (args.given("max-samples")) {
    auto m = get_count(args, "max-samples");
    if (!m) return fail(m.status());
    max_samples = *m;
  }

  // A loaded model's schema comes first: its category dictionaries code
  // this file's categories as they were coded in training.
  Schema stored;
  std::unique_ptr<Learner> learner;
  if (args.given("load")) {
    auto loaded = load_learner(args.get("load"), &stored);
    if (!loaded) return fail(loaded.status());
    learner = std::move(loaded).value();
  }
  auto stream = open_stream(args, *seed, *skip, max_samples, stored);
  if (!stream) return fail(stream.status());
  // --subsample: the sample takes over --skip and --max-samples, so the loop
  // below sees the sampled rows only.
  std::uint64_t loop_skip = *skip;
  std::optional<std::uint64_t> loop_max = max_samples;
  std::optional<std::uint64_t> subsample;
  if (args.given("subsample")) {
    auto n = get_count(args, "subsample");
    if (!n) return fail(n.status());
    if (*n == 0) return fail(Status::invalid_argument("--subsample must be >= 1"));
    subsample = *n;
    *stream = reservoir_sample(std::move(*stream), static_cast<std::size_t>(*n), *seed, *skip, max_samples);
    loop_skip = 0;
    loop_max.reset();
  }
  const Schema& schema = (*stream)->schema();
  const std::string source = args.given("data") ? (args.get("data") == "-" ? std::string("<stdin>") : args.get("data"))
                             : args.given("stream") ? args.get("stream") : std::string(kDefaultGenerator);

  std::string categorical;  // the report's line on categorical columns (new models only)
  if (learner) {
    if (Status s = check_load_flags(args, *learner); !s) return fail(s);
    if (Status s = apply_load_threads(args, *learner); !s) return fail(s);
    if (Status s = check_schema(stored, schema, args.get("load")); !s) return fail(s);
    if (learner->n_outputs() != schema.n_targets())
      return fail(Status::invalid_argument(args.get("load") + ": the model predicts " +
                                           std::to_string(learner->n_outputs()) + " target(s), the stream has " +
                                           std::to_string(schema.n_targets())));
  } else {
    if (model == nullptr && model_name.find_first_of("|(") != std::string::npos)
      if (auto steps = parse_pipeline_spec(model_name); !steps) return fail(steps.status());
    if (model == nullptr)
      return fail(Status::invalid_argument("unknown model '" + model_name + "' (models: " + listed_model_names() + ")"));
    ModelSettings settings = given_model_settings(args, *model);
    // The class-memory check speaks of one catalogue learner (a pipeline's
    // learner sees another width than the stream's: its steps decide it).
    if (!is_pipeline_spec(model_name)) {
      const LearnerContext context{schema.task, schema.n_classes(), schema.n_features(), *seed, schema.n_targets()};
      if (Status s = check_class_memory(args, model->name, settings, context, schema.target_name); !s)
        return fail(s.with_context(source));
    }
    auto made = make_cli_model(model_name, settings, schema, *seed, categorical);
    // Name the data too: "elec.csv: sgbt: ..." says which input made the model refuse.
    if (!made) return fail(made.status().with_context(source));
    learner = std::move(made).value();
  }

  PrequentialOptions options;
  options.max_samples = loop_max;
  options.skip = loop_skip;
  options.curve_every = args.given("curve") || args.given("plot") ? *curve_every : 0;
  if (options.curve_every == 0 && args.given("plot")) return fail(Status::invalid_argument("--plot needs --curve-every >= 1"));
  options.rolling_window = static_cast<std::size_t>(*window);
  options.progress_every = 1;  // the bar looks at the clock itself, so slow models show it from the start
  options.label_delay = *label_delay;
  options.guard_targets = !args.given("no-target-guard");
  auto level = args.get_double("interval");
  if (!level) return fail(level.status());
  if (!(*level > 0.0 && *level < 1.0)) return fail(Status::invalid_argument("--interval must be in (0, 1)"));
  options.interval_level = *level;
  const std::string unlabelled = args.get("unlabelled");
  if (unlabelled == "predict") options.unlabelled = UnlabelledPolicy::kPredict;
  else if (unlabelled == "skip") options.unlabelled = UnlabelledPolicy::kSkip;
  else if (unlabelled == "error") options.unlabelled = UnlabelledPolicy::kError;
  else return fail(Status::invalid_argument("--unlabelled must be predict, skip or error, not '" + unlabelled + "'"));

  const bool multi = schema.n_targets() > 1;
  // --interval on a model without intervals (or sets): conformal ones around it.
  const bool has_ranges = schema.task == Task::kRegression ? dynamic_cast<const IntervalPredictor*>(learner.get()) != nullptr
                                                           : dynamic_cast<const SetPredictor*>(learner.get()) != nullptr;
  if (args.given("interval") && !multi && !has_ranges) {
    ConformalConfig conformal;
    conformal.level = *level;
    auto wrapped = ConformalLearner::wrap(std::move(learner), conformal, catalogue_member_factory());
    if (!wrapped) return fail(wrapped.status());
    learner = std::move(wrapped).value();
  }
  if (multi)
    for (const char* single : {"curve", "plot", "label-delay", "interval"})
      if (args.given(single))
        return fail(Status::invalid_argument(std::string("--") + single + " is not available with several targets"));

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
  if (args.given("predictions") && !multi) {
    predictions_file.open(args.get("predictions"));
    if (!predictions_file) return fail(Status::io_error(args.get("predictions") + ": cannot open for writing"));
    predictions.emplace(predictions_file, schema.task, schema.n_classes());
    if (schema.task == Task::kClassification) predictions->set_class_names(schema.class_names);
    observers.add(&*predictions);
  }
  ProgressBar bar(!args.given("quiet") && ::isatty(STDERR_FILENO) == 1, [&]() -> std::optional<std::uint64_t> {
    auto hint = (*stream)->size_hint();
    if (!hint) return loop_max;
    const std::uint64_t left = *hint > loop_skip ? *hint - loop_skip : 0;
    return loop_max ? std::min(left, *loop_max) : left;
  }());
  // The fraction of the file read measures progress only when the loop reads
  // the file itself: a --subsample reservoir has read all of it before the
  // first sample, so its bar counts the sampled rows instead.
  if (const auto* table = dynamic_cast<const TableStream*>(stream->get()); table != nullptr)
    bar.set_fraction_source([table] { return table->fraction_read(); });
  ProgressObserver progress(bar);
  observers.add(&progress);
  CurveRecorder recorder(drift_event_counter(*learner));
  if (args.given("plot")) observers.add(&recorder);

  // After a run that finished: what the reader passed over, on stderr (the
  // single-target path stops its read-ahead thread first, below; a
  // multi-target stream reads without one).
  const auto report_reading = [&] {
    if (const TableStream* table = source_table(**stream); table != nullptr && table->ignored_keys() > 0)
      std::fprintf(stderr, "irithyll: note: %llu values under keys first seen after the look-ahead were ignored "
                   "(name them with --features, or raise --lookahead)\n",
                   static_cast<unsigned long long>(table->ignored_keys()));
    report_skipped_rows(**stream);
  };
  if (multi) {
    const int code = run_multi_target_eval(args, *learner, **stream, options, source, &progress);
    bar.finish();
    if (code == 0) report_reading();
    return code;
  }
  auto report = run_prequential(*learner, **stream, options, &observers);
  bar.finish();
  // Stopped before the end (--max-samples, an error): the reader thread
  // stops too, so the schema and the counts below are settled.
  if (const TableStream* table = source_table(**stream); table != nullptr) stop_read_ahead(*table);
  if (!report) {
    // Errors raised on the model side name neither file nor row: add them.
    Status st = report.status();
    if (args.given("data") && st.message().rfind(source, 0) != 0) {
      // The file's line names the failing row only when the loop reads the
      // file itself: behind a --subsample reservoir the file was read to its
      // end before the first sample, so its line would name the wrong row.
      const auto* table = dynamic_cast<const TableStream*>(stream->get());
      const std::string row = table != nullptr && table->current_line() > 0
                                  ? ":" + std::to_string(table->current_line())
                                  : std::string();
      st = st.with_context(source + row);
    }
    // The work done before the error is not lost: --save still writes the
    // model as it stood at the failing row.
    if (args.given("save") && learner->n_samples_seen() > 0) {
      if (Status s = save_learner(args.get("save"), *learner, &schema); !s) (void)fail(s);
      else
        std::fprintf(stderr, "irithyll: saved the model as learned before the error (%llu samples) to %s\n",
                     static_cast<unsigned long long>(learner->n_samples_seen()), args.get("save").c_str());
    }
    return fail(st);
  }
  if (*skip > 0 && report->samples == 0)
    return fail(Status::invalid_argument("--skip " + std::to_string(*skip) + " skips past the end of " + source +
                                         ": no row was evaluated"));
  report_reading();
  if (curve && !curve->status().is_ok()) return fail(curve->status().with_context(args.get("curve")));
  if (predictions && !predictions->status().is_ok())
    return fail(predictions->status().with_context(args.get("predictions")));
  if (args.given("plot")) {
    const std::string stream_name = source.substr(source.find_last_of('/') + 1);
    LinePlot plot = learning_curve_plot({CurveRun{report->learner, &recorder}}, schema.task, stream_name,
                                        static_cast<std::size_t>(*window));
    if (Status s = write_plot(args.get("plot"), plot); !s) return fail(s);
  }
  if (args.given("save")) {
    if (Status s = save_learner(args.get("save"), *learner, &schema); !s) return fail(s);
  }
  if (args.given("json")) {
    std::string json = report_to_json(*report, schema.task);
    if (!json.empty()) {
      json.pop_back();  // the closing brace: the class report and importances go inside
      if (schema.task == Task::kClassification) json += class_report_json_members(report->confusion, schema.class_names);
      if (const std::string imp = importance_json(*learner, schema); !imp.empty()) json += ",\"feature_importances\":" + imp;
      if (const std::string diag = diagnostics_json(*learner); !diag.empty()) json += ",\"diagnostics\":" + diag;
      if (const auto* facts = dynamic_cast<const ModelReport*>(learner.get()); facts != nullptr)
        if (const std::string r = facts->report_json(); !r.empty()) json += ",\"model_report\":" + r;
      Provenance from;
      from.data = source;
      from.data_is_file = args.given("data");
      from.loaded = args.given("load") ? args.get("load") : std::string();
      from.seed = *seed;
      from.skip = *skip;
      from.max_samples = max_samples;
      from.subsample = subsample;
      json += provenance_json_member(from, *learner);
      json += "}";
    }
    std::printf("%s\n", json.c_str());
  } else {
    print_summary(*report, schema, source, categorical);
    std::fputs(importance_table(*learner, schema).c_str(), stdout);
    if (const auto* facts = dynamic_cast<const ModelReport*>(learner.get()); facts != nullptr)
      if (const std::string text = facts->report_text(); !text.empty()) std::printf("\n%s", text.c_str());
  }
  return 0;
}

const CommandRegistration kEvalCommand("eval", "prequential evaluation of a model on a stream", &run_eval);

}  // namespace
}  // namespace irithyll::cli
