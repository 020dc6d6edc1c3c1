// `irithyll explain`: SHAP values of a tree model's raw prediction for every
// row of a table (TreeSHAP, src/explain): per row the base value, one
// contribution per feature by name, and the raw prediction they sum to.
//
//   --checkpoint FILE  a trained tree model (sgbt, adaptive_sgbt,
//                      multi_target_sgbt, bagged_sgbt regression,
//                      distributional_sgbt (its location), hoeffding_tree,
//                      arf, srp, leveraging_bagging; TreeExplainer::trees_of);
//                      rows are read by header name as `predict --checkpoint`.
//   --data FILE        CSV or JSON lines ('-' = standard input).
//   --json             one object per row:
//                      {"base": b, "contributions": {"f": v, ...}, "raw": r}
//                      (classifiers add "class": name, multi-target
//                      regressors one line per target with "target":
//                      name). Without it: CSV, header
//                      [class,|target,]base,<features>,raw.
//   --class NAME       classifiers: explain this class's output; default the
//                      predicted class of each row; --all-classes: one
//                      object (line) per class. Binary sgbt has one output,
//                      the log-odds of the second class, and explains it.
//   --background FILE  interventional SHAP: the first --background-rows rows
//   --background-rows N  (default 100) of FILE are the reference sample.
//   --plot FILE.svg    a waterfall of the first row (one row) or a beeswarm
//                      of all rows (several), drawn by the SVG writer.
// Raw is the learner's margin scale: sgbt's score before the loss transform
// (regression: the estimate), the Hoeffding tree's and arf's leaf class
// probabilities (majority-class leaves) or leaf means.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "args.hpp"
#include "command.hpp"
#include "output_paths.hpp"
#include "data_options.hpp"
#include "irithyll/explain/tree_shap.hpp"
#include "irithyll/model_file.hpp"
#include "plotting.hpp"

namespace irithyll::cli {
namespace {

ArgParser make_explain_parser() {
  ArgParser p("irithyll explain --checkpoint FILE --data FILE [--json] [--class NAME | --all-classes] "
              "[--background FILE [--background-rows N]] [--plot FILE.svg]",
              "SHAP values (TreeSHAP) of a tree model's raw prediction for every row: base + contributions = raw.");
  p.option("checkpoint", "FILE", "checkpoint of a tree model (sgbt, adaptive_sgbt, multi_target_sgbt, bagged_sgbt, distributional_sgbt, "
           "hoeffding_tree, arf, srp, leveraging_bagging)")
      .option("data", "FILE", "CSV or JSON lines with a header (features by name); '-' = standard input")
      .flag("json", "one JSON object per row instead of CSV")
      .option("class", "NAME", "classifiers: explain this class (default: each row's predicted class)")
      .flag("all-classes", "classifiers: one line per class for every row")
      .option("background", "FILE", "interventional SHAP against the rows of FILE (same columns as --data)")
      .option("background-rows", "N", "rows of --background to use", "100")
      .option("plot", "FILE.svg", "waterfall (one row) or beeswarm (several rows) SVG");
  declare_data_options(p);
  return p;
}

void append_number(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_json_string(std::string& out, const std::string& s) {
  out += '"';
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

// Where feature f of the model sits in the stream's columns (by header
// name when the checkpoint stores names, else by position).
Result<std::vector<std::size_t>> explain_columns(const Schema& data, const Schema& model, std::size_t n_features,
                                             const std::string& source) {
  std::vector<std::size_t> index;
  if (model.feature_names.empty()) {
    if (data.n_features() < n_features)
      return Status::invalid_argument(source + ": the model reads " + std::to_string(n_features) + " features, the data has " +
                                      std::to_string(data.n_features()) + " columns");
    for (std::size_t f = 0; f < n_features; ++f) index.push_back(f);
    return index;
  }
  for (const std::string& name : model.feature_names) {
    std::size_t c = 0;
    while (c < data.n_features() && data.feature_names[c] != name) ++c;
    if (c == data.n_features())
      return Status::invalid_argument(source + ": column '" + name + "' that the model was trained on is missing");
    index.push_back(c);
  }
  for (const std::string& name : data.feature_names) {
    bool known = name == model.target_name;
    for (const std::string& t : model.target_names) known = known || t == name;
    for (const std::string& f : model.feature_names) known = known || f == name;
    if (!known) return Status::invalid_argument(source + ": column '" + name + "' is not a feature of the model (--drop it)");
  }
  return index;
}

Result<std::unique_ptr<TableStream>> open_table(const ArgParser& args, const std::string& path, const Schema& stored) {
  auto options = read_data_options(args);
  if (!options) return options.status();
  options->no_target = true;
  seed_known_categories(*options, stored);
  auto opened = open_table_stream(path, *options);
  if (opened) report_column_notes(**opened);
  return opened;
}

// The rows kept for --plot.
struct ExplainPlotData {
  std::vector<std::string> feature_names;
  std::vector<double> base, raw, phi;  // phi row-major
  std::string class_name;
  void add_row(double b, std::span<const double> p, double r, const std::string& cls) {
    base.push_back(b);
    raw.push_back(r);
    phi.insert(phi.end(), p.begin(), p.end());
    class_name = cls;
  }
};

// Features by mean |phi| over the rows, largest first, at most `top`.
std::vector<std::size_t> ranked(const ExplainPlotData& d, std::size_t top) {
  const std::size_t nf = d.feature_names.size(), n = d.base.size();
  std::vector<double> score(nf, 0.0);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t f = 0; f < nf; ++f) score[f] += std::abs(d.phi[r * nf + f]);
  std::vector<std::size_t> order(nf);
  for (std::size_t f = 0; f < nf; ++f) order[f] = f;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
  order.resize(std::min(top, nf));
  return order;
}

// One row: a waterfall, features as horizontal bars (largest at the top)
// from the running total before them to after, base and raw as dashed
// verticals. Several rows: a beeswarm, each row's contribution a dot at
// its feature's height (jittered), one colour per feature.
LinePlot explain_plot(const ExplainPlotData& d, const std::string& model) {
  LinePlot plot;
  const std::size_t nf = d.feature_names.size(), n = d.base.size();
  const std::vector<std::size_t> order = ranked(d, 12);
  const double top = static_cast<double>(order.size());
  plot.y_label = "feature (largest mean |SHAP| at the top)";
  plot.y_min = 0.0;
  plot.y_max = top + 1.0;
  const std::string cls = d.class_name.empty() ? "" : ", class " + d.class_name;
  if (n == 1) {
    plot.title = "SHAP waterfall (" + model + cls + ")";
    plot.x_label = "raw prediction";
    plot.x_from_zero = false;
    char sub[96];
    std::snprintf(sub, sizeof sub, "base %.4g -> raw %.4g", d.base[0], d.raw[0]);
    plot.subtitle = sub;
    // Features outside the top 12 are summed into the running total first.
    double total = d.base[0];
    for (std::size_t f = 0; f < nf; ++f)
      if (std::find(order.begin(), order.end(), f) == order.end()) total += d.phi[f];
    for (std::size_t i = order.size(); i-- > 0;) {
      const std::size_t f = order[i];
      const double v = d.phi[f], y = top - static_cast<double>(i);
      char label[64];
      std::snprintf(label, sizeof label, " = %+.4g", v);
      plot.series.push_back({d.feature_names[f] + label, {total, total + v}, {y, y}, false, v >= 0.0 ? 0 : 1});
      total += v;
    }
    plot.series.push_back({"base", {d.base[0], d.base[0]}, {0.0, top + 1.0}, true, 2});
    plot.series.push_back({"raw", {d.raw[0], d.raw[0]}, {0.0, top + 1.0}, true, 3});
    return plot;
  }
  plot.title = "SHAP beeswarm (" + model + cls + ", " + std::to_string(n) + " rows)";
  plot.x_label = "SHAP value (contribution to the raw prediction)";
  plot.x_from_zero = false;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t f = order[i];
    PlotSeries s;
    s.label = d.feature_names[f];
    s.style = PlotStyle::kPoints;
    for (std::size_t r = 0; r < n; ++r) {
      // Deterministic jitter from the row index (golden-ratio sequence).
      const double frac = static_cast<double>(r) * 0.6180339887498949;
      s.x.push_back(d.phi[r * nf + f]);
      s.y.push_back(top - static_cast<double>(i) + 0.6 * (frac - std::floor(frac) - 0.5));
    }
    plot.series.push_back(std::move(s));
  }
  // A zero line: left of it the feature lowered the prediction.
  plot.series.push_back({"0", {0.0, 0.0}, {0.0, top + 1.0}, true, static_cast<int>(order.size())});
  return plot;
}

Status write_explain_plot(const ExplainPlotData& d, const std::string& path, const std::string& model) {
  if (d.base.empty()) return Status::invalid_argument("--plot: no rows to plot");
  return write_plot(path, explain_plot(d, model));
}


// Reads the first n rows of --background into the explainer.
Status load_background(const ArgParser& args, const Schema& stored, std::size_t nf, TreeExplainer& ex) {
  auto n = args.get_int("background-rows");
  if (!n) return n.status();
  if (*n < 1) return Status::invalid_argument("--background-rows must be >= 1");
  const std::string path = args.get("background");
  auto stream = open_table(args, path, stored);
  if (!stream) return stream.status();
  TableStream& s = **stream;
  auto columns = explain_columns(s.schema(), stored, nf, path);
  if (!columns) return columns.status();
  std::vector<double> x(s.schema().n_features()), rows;
  double y = 0.0;
  std::size_t got = 0;
  while (got < static_cast<std::size_t>(*n) && s.next(x, y)) {
    for (std::size_t f = 0; f < nf; ++f) rows.push_back(x[(*columns)[f]]);
    ++got;
  }
  if (!s.status().is_ok()) return s.status();
  if (got == 0) return Status::invalid_argument(path + ": no background rows");
  return ex.set_background(rows, got);
}

int run_explain(std::span<char* const> argv) {
  ArgParser args = make_explain_parser();
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (Status s = check_output_paths(args, {"plot"}); !s) return fail(s);
  if (!args.given("checkpoint")) return fail(Status::invalid_argument("--checkpoint FILE is required"));
  if (!args.given("data")) return fail(Status::invalid_argument("--data FILE is required ('-' for standard input)"));
  if (args.given("class") && args.given("all-classes")) return fail(Status::invalid_argument("give --class or --all-classes, not both"));
  Schema stored;
  const std::string checkpoint = args.get("checkpoint");
  auto learner = load_learner(checkpoint, &stored);
  if (!learner) return fail(learner.status());
  auto explainer = TreeExplainer::make(**learner);
  if (!explainer) return fail(Status(explainer.status()).with_context(checkpoint));
  TreeExplainer& ex = *explainer;
  const std::size_t nf = ex.n_features(), k = ex.n_outputs();
  const Learner& l = **learner;
  // Output names: the class names where outputs are classes; binary sgbt's
  // one output is the second class.
  std::vector<std::string> classes = stored.class_names;
  if (l.task() == Task::kClassification && classes.size() != l.n_classes()) {
    classes.clear();
    for (std::size_t c = 0; c < l.n_classes(); ++c) classes.push_back(std::to_string(c));
  }
  const bool classify = l.task() == Task::kClassification;
  std::vector<std::string> output_class(k);
  if (classify) {
    for (std::size_t o = 0; o < k; ++o) output_class[o] = k == classes.size() ? classes[o] : classes.back();
  }
  std::size_t fixed = k;  // k = per-row predicted class
  if (args.given("class")) {
    if (!classify) return fail(Status::invalid_argument("--class applies to classifiers; '" + std::string(l.name()) + "' is a regressor"));
    for (std::size_t o = 0; o < k; ++o)
      if (output_class[o] == args.get("class")) fixed = o;
    if (fixed == k)
      return fail(Status::invalid_argument("--class '" + args.get("class") + "': the model explains " +
                                           (k == 1 ? "only the log-odds of class '" + output_class[0] + "'" : std::string("no such class"))));
  }
  const bool interventional = args.given("background");
  if (interventional)
    if (Status s = load_background(args, stored, nf, ex); !s) return fail(s);
  std::vector<std::string> names = stored.feature_names;
  names.resize(nf);
  for (std::size_t f = 0; f < nf; ++f)
    if (names[f].empty()) names[f] = "x" + std::to_string(f);
  auto stream = open_table(args, args.get("data"), stored);
  if (!stream) return fail(stream.status());
  TableStream& s = **stream;
  const std::string source = args.get("data") == "-" ? "<stdin>" : args.get("data");
  auto columns = explain_columns(s.schema(), stored, nf, source);
  if (!columns) return fail(columns.status());
  const bool json = args.given("json"), all = args.given("all-classes");
  std::string line;
  // A multi-target regressor (multi_target_sgbt) explains every target.
  const bool targets = !classify && k > 1;
  std::vector<std::string> target_names = stored.target_names;
  if (target_names.size() != k) target_names = ex.output_names();
  if (!json) {
    line = classify ? "class,base" : targets ? "target,base" : "base";
    for (const std::string& n : names) line += "," + n;
    line += ",raw\n";
    if (!write_line(line)) return 1;
  }
  std::vector<double> x(s.schema().n_features()), features(nf), phi(nf), raw(k);
  ExplainPlotData plot;
  plot.feature_names = names;
  double y = 0.0;
  std::size_t row = 0;
  while (s.next(x, y)) {
    ++row;
    for (std::size_t f = 0; f < nf; ++f) features[f] = x[(*columns)[f]];
    std::size_t predicted = 0;
    for (std::size_t o = 0; o < k; ++o) {
      raw[o] = *ex.predict_raw(features, o);
      if (raw[o] > raw[predicted]) predicted = o;
    }
    const std::size_t first = all || targets ? 0 : fixed < k ? fixed : predicted;
    const std::size_t last = all || targets ? k : first + 1;
    for (std::size_t o = first; o < last; ++o) {
      auto r = interventional ? ex.explain_one_interventional(features, o, phi) : ex.explain_one(features, o, phi);
      if (!r) return fail(Status(r.status()).with_context(source + " row " + std::to_string(row)));
      const double base = interventional ? ex.background_base_value(o) : ex.base_value(o);
      if (args.given("plot")) plot.add_row(base, phi, *r, output_class[o]);
      line.clear();
      if (json) {
        line += "{";
        if (classify) {
          line += "\"class\": ";
          append_json_string(line, output_class[o]);
          line += ", ";
        }
        if (targets) {
          line += "\"target\": ";
          append_json_string(line, target_names[o]);
          line += ", ";
        }
        line += "\"base\": ";
        append_number(line, base);
        line += ", \"contributions\": {";
        for (std::size_t f = 0; f < nf; ++f) {
          if (f > 0) line += ", ";
          append_json_string(line, names[f]);
          line += ": ";
          append_number(line, phi[f]);
        }
        line += "}, \"raw\": ";
        append_number(line, *r);
        line += "}\n";
      } else {
        if (classify) line += output_class[o] + ",";
        if (targets) line += target_names[o] + ",";
        append_number(line, base);
        for (std::size_t f = 0; f < nf; ++f) {
          line += ',';
          append_number(line, phi[f]);
        }
        line += ',';
        append_number(line, *r);
        line += '\n';
      }
      if (!write_line(line)) return 1;
    }
  }
  if (!s.status().is_ok()) return fail(s.status());
  if (args.given("plot"))
    if (Status st = write_explain_plot(plot, args.get("plot"), std::string(l.name())); !st) return fail(st);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

const CommandRegistration kExplainCommand("explain", "SHAP values (TreeSHAP) of a tree model's predictions, per row",
                                        &run_explain);

}  // namespace
}  // namespace irithyll::cli
