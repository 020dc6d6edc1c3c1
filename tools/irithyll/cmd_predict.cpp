// `irithyll predict`: predictions for every row of a table (CSV or JSON
// lines, a file, .gz, or '-' for standard input), streamed: one output line
// per input row as it is read, so memory stays flat on an endless pipe.
//
//   --checkpoint FILE  the full trained model. A classifier prints the class
//                      name and its probability ("UP,0.8125"); with --proba,
//                      a header line then the class and every probability.
//                      A regressor prints its estimate. When the checkpoint
//                      stores the training columns (eval --save does), the
//                      features are taken by header name: a column the model
//                      needs and the data lacks, or a data column the model
//                      does not know, is an error naming it (the model's own
//                      target column is ignored; --drop others). Older
//                      checkpoints take the first n_features columns.
//   --model FILE.bin   a packed model (f32, int16 or a multiclass bundle).
//                      When the file carries the metadata trailer (irithyll
//                      export writes it from an eval --save checkpoint),
//                      columns are taken by header name with the same checks
//                      as --checkpoint, and a classifier prints its class
//                      name and probability (--proba: every probability;
//                      --raw: the margins). A file without the trailer reads
//                      the first n_features columns (said once on stderr)
//                      and prints the raw output (bundles: class ids).
//   --confidence       sgbt checkpoints: a header line, then each row's
//                      prediction (as above) and the model's confidence
//                      (ConfidencePredictor; sgbt gives one); other models
//                      are refused by name.
//   --sigma            distributional_sgbt checkpoints: a header line, then
//                      each row's mu, the predictive sigma and the honest
//                      sigma (the spread of the location trees' votes);
//                      other models are refused by name.
// Numbers print in their shortest round-trip form (std::to_chars).
//
// --bench: instead of printing, holds the rows, repeats the prediction pass
// for at least a second per path (single, batch) and prints one JSON object
// with nanoseconds per prediction.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "args.hpp"
#include "command.hpp"
#include "data_options.hpp"
#include "irithyll/ensemble/distributional_sgbt.hpp"
#include "irithyll/eval/classification_metrics.hpp"
#include "irithyll/interval.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/packed/class_bundle.hpp"
#include "irithyll/packed/metadata.hpp"
#include "irithyll/packed/packed_model.hpp"

namespace irithyll::cli {
namespace {

ArgParser make_predict_parser() {
  ArgParser p("irithyll predict (--model FILE.bin | --checkpoint FILE) --data FILE [--proba] [--bench]",
              "Predicts every row of a table with a packed model or a checkpoint; one line per row.");
  p.option("model", "FILE.bin", "packed model (f32 \"IRIT\" or int16 \"IR16\")")
      .option("checkpoint", "FILE", "checkpoint written by irithyll (predicts with the full model)")
      .option("data", "FILE", "CSV or JSON lines with a header (features by name); '-' = standard input")
      .flag("proba", "classifiers: print every class probability (after a header line)")
      .flag("raw", "packed classifiers: print the margin (logit) of every ensemble instead of class names")
      .flag("bench", "time the single and batch paths (>= 1 s each) and print one JSON object")
      .flag("confidence",
            "sgbt checkpoints: add a confidence column, 1 / sqrt(sum over the trees x reaches of lr^2 / (H + lambda)) "
            "(grows with the hessian weight in those leaves), after a header line")
      .flag("sigma",
            "distributional_sgbt checkpoints: add sigma (the predictive standard deviation) and honest_sigma (the "
            "standard deviation of the location trees' contributions) columns, after a header line");
  declare_data_options(p);
  return p;
}

void append_shortest(std::string& out, double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}
void append_shortest(std::string& out, float v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// Where feature f of the model sits in the stream's columns.
struct ColumnMap {
  std::vector<std::size_t> index;
};

Result<ColumnMap> map_columns(const Schema& data, const Schema& model, std::size_t n_features,
                              const std::string& source) {
  ColumnMap m;
  if (model.feature_names.empty()) {  // no names stored: by position
    if (data.n_features() < n_features)
      return Status::invalid_argument(source + ": the model reads " + std::to_string(n_features) +
                                      " features, the data has " + std::to_string(data.n_features()) + " columns");
    for (std::size_t f = 0; f < n_features; ++f) m.index.push_back(f);
    return m;
  }
  for (const std::string& name : model.feature_names) {
    std::size_t c = 0;
    while (c < data.n_features() && data.feature_names[c] != name) ++c;
    if (c == data.n_features())
      return Status::invalid_argument(source + ": column '" + name + "' that the model was trained on is missing");
    m.index.push_back(c);
  }
  for (const std::string& name : data.feature_names) {
    bool known = name == model.target_name;
    for (const std::string& f : model.feature_names) known = known || f == name;
    if (!known)
      return Status::invalid_argument(source + ": column '" + name + "' is not a feature of the model (--drop it)");
  }
  return m;
}

Result<std::unique_ptr<TableStream>> open_data(const ArgParser& args, const Schema& stored = {}) {
  auto options = read_data_options(args);
  if (!options) return options.status();
  options->no_target = true;
  seed_known_categories(*options, stored);
  auto opened = open_table_stream(args.get("data"), *options);
  if (opened) report_column_notes(**opened);
  return opened;
}

std::string source_name(const ArgParser& args) { return args.get("data") == "-" ? "<stdin>" : args.get("data"); }

double time_ns_per_pred(std::size_t n_rows, const std::function<void()>& pass) {
  using clock = std::chrono::steady_clock;
  pass();  // warm-up
  std::size_t passes = 0;
  const auto t0 = clock::now();
  double elapsed = 0.0;
  do {
    pass();
    ++passes;
    elapsed = std::chrono::duration<double, std::nano>(clock::now() - t0).count();
  } while (elapsed < 1e9);
  return elapsed / static_cast<double>(passes * n_rows);
}

volatile float g_sink = 0.0f;

// Writes a line to stdout; false when stdout is gone (a closed pipe).

// Said once, after a run that read a file without names (at the end, so
// that an error stays the only line on stderr).
void note_positional(const ArgParser& args, const Schema& columns, std::size_t required) {
  if (!columns.feature_names.empty()) return;
  std::fprintf(stderr,
               "irithyll predict: note: %s stores no column names; the first %zu columns were read by position "
               "(export it again from an eval --save checkpoint to map them by name)\n",
               args.get("model").c_str(), required);
}

// The columns a packed file names in its metadata trailer, as the Schema
// map_columns reads; an empty Schema (positional reading) for a file
// without names.
Result<Schema> packed_columns(const ArgParser& args, const std::optional<packed::PackedMetadata>& meta,
                              std::size_t required) {
  Schema s;
  if (!meta || meta->feature_names.empty()) return s;
  if (meta->feature_names.size() < required)
    return Status::corruption(args.get("model") + ": the metadata names " + std::to_string(meta->feature_names.size()) +
                              " features, the trees read " + std::to_string(required));
  s.feature_names = meta->feature_names;
  s.target_name = meta->target_name;
  return s;
}

// Class names from the trailer, else the class ids.
std::vector<std::string> packed_class_names(const std::optional<packed::PackedMetadata>& meta, std::size_t k) {
  if (meta && meta->class_names.size() == k) return meta->class_names;
  std::vector<std::string> names;
  for (std::size_t c = 0; c < k; ++c) names.push_back(std::to_string(c));
  return names;
}

// "name,p" for the best class, or (all) "name,p0,p1,...".
void append_class_line(std::string& line, const std::vector<std::string>& names, std::span<const float> proba,
                       bool all) {
  std::size_t best = 0;
  for (std::size_t c = 1; c < proba.size(); ++c)
    if (proba[c] > proba[best]) best = c;
  line += names[best];
  for (std::size_t c = 0; c < proba.size(); ++c) {
    if (!all && c != best) continue;
    line += ',';
    append_shortest(line, proba[c]);
  }
}

bool emit_proba_header(const std::vector<std::string>& names) {
  std::string line = "prediction";
  for (const std::string& n : names) line += "," + n;
  line += '\n';
  return write_line(line);
}

// A multiclass bundle: the class name (the class id when the file has no
// trailer) and its softmax probability, or every probability with --proba,
// or every class's margin with --raw.
int run_bundle(const ArgParser& args) {
  auto bundle = packed::PackedClassBundle::load(args.get("model"));
  if (!bundle) return fail(bundle.status());
  auto meta = packed::read_metadata(bundle->member(0));
  if (!meta) return fail(meta.status().with_context(args.get("model")));
  const std::size_t nf = bundle->required_features(), k = bundle->n_classes();
  auto model_columns = packed_columns(args, *meta, nf);
  if (!model_columns) return fail(model_columns.status());
  const std::size_t width = std::max(nf, model_columns->n_features());
  auto stream = open_data(args);
  if (!stream) return fail(stream.status());
  TableStream& s = **stream;
  auto columns = map_columns(s.schema(), *model_columns, width, source_name(args));
  if (!columns) return fail(columns.status());
  const std::vector<std::string> names = packed_class_names(*meta, k);
  std::vector<double> x(s.schema().n_features());
  std::vector<float> row(width), proba(k);
  double y = 0.0;
  std::string line;
  const bool all = args.given("proba"), raw = args.given("raw");
  if (all && !raw && !emit_proba_header(names)) return 1;
  while (s.next(x, y)) {
    for (std::size_t f = 0; f < width; ++f) row[f] = static_cast<float>(x[columns->index[f]]);
    line.clear();
    if (raw) {
      bundle->predict_scores(row, proba);
      for (std::size_t c = 0; c < k; ++c) {
        if (c > 0) line += ',';
        append_shortest(line, proba[c]);
      }
    } else {
      bundle->predict_proba(row, proba);
      append_class_line(line, names, proba, all);
    }
    line += '\n';
    if (!write_line(line)) return 1;
  }
  if (!s.status().is_ok()) return fail(s.status());
  report_skipped_rows(s);
  note_positional(args, *model_columns, width);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

int run_packed(const ArgParser& args) {
  {
    std::FILE* f = std::fopen(args.get("model").c_str(), "rb");
    unsigned char magic[4] = {0, 0, 0, 0};
    const bool bundle = f != nullptr && std::fread(magic, 1, 4, f) == 4 && packed::is_class_bundle(magic);
    if (f != nullptr) std::fclose(f);
    if (bundle) {
      if (args.given("bench")) return fail(Status::invalid_argument("--bench times single-ensemble packed models"));
      return run_bundle(args);
    }
  }
  auto model = packed::PackedModel::load(args.get("model"));
  if (!model) return fail(model.status());
  const packed::PackedModel& m = *model;
  auto meta = packed::read_metadata(m);
  if (!meta) return fail(meta.status().with_context(args.get("model")));
  std::size_t nf = m.info().n_features > 0 ? m.info().n_features : m.required_features();
  if (nf == 0) return fail(Status::invalid_argument("model reads no features; nothing to predict per row"));
  auto model_columns = packed_columns(args, *meta, nf);
  if (!model_columns) return fail(model_columns.status());
  nf = std::max(nf, model_columns->n_features());
  // A binary classifier's one ensemble gives the logit of the second class.
  const bool binary = *meta && (*meta)->classification && (*meta)->class_names.size() == 2;
  const std::vector<std::string> names = packed_class_names(*meta, 2);
  auto stream = open_data(args);
  if (!stream) return fail(stream.status());
  TableStream& s = **stream;
  auto columns = map_columns(s.schema(), *model_columns, nf, source_name(args));
  if (!columns) return fail(columns.status());
  std::vector<double> x(s.schema().n_features());
  std::vector<float> row(nf), rows, proba(2);
  double y = 0.0;
  std::string line;
  const bool bench = args.given("bench"), all = args.given("proba"), raw = args.given("raw") || !binary;
  if (all && !binary) return fail(Status::invalid_argument("--proba needs a classifier exported with its class names"));
  if (all && !raw && !bench && !emit_proba_header(names)) return 1;
  while (s.next(x, y)) {
    for (std::size_t f = 0; f < nf; ++f) row[f] = static_cast<float>(x[columns->index[f]]);
    if (bench) {
      rows.insert(rows.end(), row.begin(), row.end());
      continue;
    }
    line.clear();
    const float margin = m.predict(row);
    if (raw) {
      append_shortest(line, margin);
    } else {
      proba[1] = 1.0f / (1.0f + std::exp(-margin));
      proba[0] = 1.0f - proba[1];
      append_class_line(line, names, proba, all);
    }
    line += '\n';
    if (!write_line(line)) return 1;
  }
  if (!s.status().is_ok()) return fail(s.status());
  report_skipped_rows(s);
  note_positional(args, *model_columns, nf);
  if (!bench) return std::fflush(stdout) == 0 ? 0 : 1;
  const std::size_t n = rows.size() / nf;
  if (n == 0) return fail(Status::invalid_argument("--bench needs at least one data row"));
  std::vector<float> out(n);
  const double single = time_ns_per_pred(n, [&] {
    for (std::size_t r = 0; r < n; ++r) out[r] = m.predict(std::span<const float>(rows.data() + r * nf, nf));
    g_sink = g_sink + out[0];
  });
  const double batch = time_ns_per_pred(n, [&] {
    (void)m.predict_batch(rows, nf, out);
    g_sink = g_sink + out[0];
  });
  std::printf("{\"model\":\"%s\",\"format\":\"%s\",\"rows\":%zu,\"trees\":%u,\"nodes\":%u,\"bytes\":%zu,"
              "\"single_ns_per_pred\":%.2f,\"batch_ns_per_pred\":%.2f,\"single_kernel\":\"%s\",\"batch_kernel\":\"%s\"}\n",
              args.get("model").c_str(), m.format() == packed::PackedFormat::kF32 ? "f32" : "i16", n,
              m.info().n_trees, m.info().total_nodes, m.bytes().size(), single, batch, m.single_kernel(),
              m.batch_kernel());
  return 0;
}

int run_checkpoint(const ArgParser& args) {
  Schema stored;
  auto learner = load_learner(args.get("checkpoint"), &stored);
  if (!learner) return fail(learner.status());
  const Learner& l = **learner;
  const std::size_t nf = l.n_features();
  if (nf == 0) return fail(Status::invalid_argument("checkpoint's learner has seen no features yet"));
  const bool classify = l.task() == Task::kClassification;
  const std::size_t k = l.n_classes();
  std::vector<std::string> names = stored.class_names;
  if (names.size() != k) {  // no names stored: the class ids are the names
    names.clear();
    for (std::size_t c = 0; c < k; ++c) names.push_back(std::to_string(c));
  }
  auto stream = open_data(args, stored);
  if (!stream) return fail(stream.status());
  TableStream& s = **stream;
  const std::string source = source_name(args);
  auto columns = map_columns(s.schema(), stored, nf, source);
  if (!columns) return fail(columns.status());
  std::vector<double> x(s.schema().n_features()), features(nf), proba(k), outputs(l.n_outputs());
  std::vector<std::vector<double>> held;  // --bench only
  double y = 0.0;
  const bool bench = args.given("bench"), all = args.given("proba");
  // --confidence: the model's own (prediction, confidence) pair.
  const auto* confident = dynamic_cast<const ConfidencePredictor*>(&l);
  const bool confidence = args.given("confidence");
  if (confidence && confident == nullptr)
    return fail(Status::invalid_argument("--confidence: model '" + std::string(l.name()) +
                                         "' gives no confidence (sgbt checkpoints do)"));
  // --sigma: a distributional model's sigma and honest sigma.
  const auto* distributional = dynamic_cast<const DistributionalSGBT*>(&l);
  const bool sigma = args.given("sigma");
  if (sigma && distributional == nullptr)
    return fail(Status::invalid_argument("--sigma: model '" + std::string(l.name()) +
                                         "' gives no sigma (distributional_sgbt checkpoints do)"));
  std::string line;
  if (!bench && ((classify && all) || confidence || sigma)) {
    line = "prediction";
    if (classify && all)
      for (const std::string& n : names) line += "," + n;
    else if (classify)
      line += ",probability";
    if (confidence) line += ",confidence";
    if (sigma) line += ",sigma,honest_sigma";
    line += '\n';
    if (!write_line(line)) return 1;
  }
  while (s.next(x, y)) {
    for (std::size_t f = 0; f < nf; ++f) features[f] = x[columns->index[f]];
    if (bench) {
      held.push_back(features);
      continue;
    }
    line.clear();
    if (classify) {
      l.predict_proba_one(features, proba);
      const std::size_t c = argmax_class(proba);
      line += names[c];
      if (all) {
        for (const double p : proba) {
          line += ',';
          append_shortest(line, p);
        }
      } else {
        line += ',';
        append_shortest(line, proba[c]);
      }
    } else if (outputs.size() > 1) {  // multi-target model: one column per target
      l.predict_multi(features, outputs);
      for (std::size_t t = 0; t < outputs.size(); ++t) {
        if (t > 0) line += ',';
        append_shortest(line, outputs[t]);
      }
    } else {
      append_shortest(line, l.predict_one(features));
    }
    if (confidence) {
      line += ',';
      append_shortest(line, confident->predict_with_confidence(features).second);
    }
    if (sigma) {
      line += ',';
      append_shortest(line, distributional->predict_sigma(features));
      line += ',';
      append_shortest(line, distributional->honest_sigma(features));
    }
    line += '\n';
    if (!write_line(line)) return 1;
  }
  if (!s.status().is_ok()) return fail(s.status());
  report_skipped_rows(s);
  report_unseen_categories(s, stored);
  if (!bench) return std::fflush(stdout) == 0 ? 0 : 1;
  if (held.empty()) return fail(Status::invalid_argument("--bench needs at least one data row"));
  auto pass = [&] {
    double sum = 0.0;
    for (const auto& r : held) sum += l.predict_one(r);
    g_sink = g_sink + static_cast<float>(sum);
  };
  // A trained learner has one prediction path; "batch" is the same loop.
  const double single = time_ns_per_pred(held.size(), pass);
  const double batch = time_ns_per_pred(held.size(), pass);
  std::printf("{\"checkpoint\":\"%s\",\"learner\":\"%.*s\",\"rows\":%zu,\"single_ns_per_pred\":%.2f,"
              "\"batch_ns_per_pred\":%.2f,\"batch_kernel\":\"loop\"}\n",
              args.get("checkpoint").c_str(), static_cast<int>(l.name().size()), l.name().data(), held.size(), single,
              batch);
  return 0;
}

int run_predict(std::span<char* const> argv) {
  ArgParser args = make_predict_parser();
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (args.given("model") == args.given("checkpoint"))
    return fail(Status::invalid_argument("give exactly one of --model FILE.bin and --checkpoint FILE"));
  if (!args.given("data")) return fail(Status::invalid_argument("--data FILE is required ('-' for standard input)"));
  if (args.given("model") && args.given("confidence"))
    return fail(Status::invalid_argument("--confidence needs --checkpoint (a packed model keeps no leaf statistics)"));
  if (args.given("model") && args.given("sigma"))
    return fail(Status::invalid_argument("--sigma needs --checkpoint (a packed model has no scale trees)"));
  return args.given("model") ? run_packed(args) : run_checkpoint(args);
}

const CommandRegistration kPredictCommand("predict", "predict a table with a packed model or a checkpoint", &run_predict);

}  // namespace
}  // namespace irithyll::cli
