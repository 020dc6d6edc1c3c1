#include "data_options.hpp"

#include <algorithm>
#include <cstdio>

namespace irithyll::cli {

void declare_data_options(ArgParser& p) {
  p.option("format", "FMT", "csv | jsonl (one JSON object per line; default: jsonl for *.jsonl[.gz], else csv)")
      .option("sep", "C", "CSV field separator: , ; tab | or any one character (default: guessed from line 1)")
      .flag("no-header", "the CSV has no header row; columns are named c1, c2, ...")
      .option("features", "COLS", "comma-separated feature columns, in this order (default: all but the target)")
      .option("drop", "COLS", "comma-separated columns never used as features (ids, timestamps)")
      .option("categorical", "COLS", "comma-separated columns (names, or 0-based feature indices) read as category codes 0, 1, ... in order of first appearance, even when numeric; string columns always are. Models with category splits (sgbt, hoeffding_tree) split them by category sets")
      .option("classes", "LIST", "comma-separated class labels; class ids follow this order (default: inferred)")
      .option("max-classes", "N", "refuse an id-like target with more distinct values than N", "1000")
      .option("lookahead", "N", "rows read ahead to infer the task, classes and JSON keys", "10000")
      .option("decimal", ". or ,",
              "the decimal mark of numeric cells (default: inferred per column; ',' only when the separator is "
              "not ','). Thousands separators, a trailing '%' (12% = 0.12) and currency signs ($1,200) are "
              "read in a column whose every look-ahead value is a number that way; stderr says how each such "
              "column was read")
      .option("on-error", "stop|skip",
              "a malformed row (wrong field count, bad JSON line, text in a numeric column, a class outside the "
              "class set): stop with its error, or skip it (counted, the first few reported on stderr); files "
              "and pipes alike",
              "stop");
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (const char c : text) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty() || !out.empty()) out.push_back(cur);
  return out;
}

Result<TableOptions> read_data_options(const ArgParser& args, bool several_targets) {
  TableOptions o;
  if (args.has("target")) o.target = args.get("target");
  if (o.target.find(',') != std::string::npos) {
    if (!several_targets)
      return Status::invalid_argument("--target names one column here, got '" + o.target + "' (several targets: eval)");
    std::vector<std::string> names = split_list(o.target);
    for (const std::string& n : names)
      if (n.empty()) return Status::invalid_argument("--target '" + o.target + "' has an empty column name");
    o.target = names.front();
    o.extra_targets.assign(names.begin() + 1, names.end());
  }
  if (args.has("task") && args.given("task")) {
    const std::string t = args.get("task");
    if (t == "classification") o.task = Task::kClassification;
    else if (t == "regression") o.task = Task::kRegression;
    else return Status::invalid_argument("--task must be classification or regression, got '" + t + "'");
  }
  const std::string data = args.has("data") ? args.get("data") : std::string();
  std::string format = args.given("format") ? args.get("format") : std::string();
  if (format.empty()) format = data.ends_with(".jsonl") || data.ends_with(".jsonl.gz") ? "jsonl" : "csv";
  if (format == "jsonl" || format == "json") o.format = TableFormat::kJsonLines;
  else if (format != "csv") return Status::invalid_argument("--format must be csv or jsonl, got '" + format + "'");
  if (args.given("sep")) {
    const std::string s = args.get("sep");
    if (s == "tab" || s == "\\t" || s == "\t") o.separator = '\t';
    else if (s.size() == 1 && s[0] != '"' && s[0] != '\n' && s[0] != '\r') o.separator = s[0];
    else return Status::invalid_argument("--sep must be one character (or 'tab'), got '" + s + "'");
  }
  o.header = !args.given("no-header");
  if (args.given("features")) o.features = split_list(args.get("features"));
  if (args.given("drop")) o.drop = split_list(args.get("drop"));
  if (args.given("categorical")) o.categorical = split_list(args.get("categorical"));
  if (args.given("classes")) o.classes = split_list(args.get("classes"));
  auto max_classes = args.get_int("max-classes");
  if (!max_classes) return max_classes.status();
  if (*max_classes < 2) return Status::invalid_argument("--max-classes must be >= 2");
  o.max_classes = static_cast<std::size_t>(*max_classes);
  auto lookahead = args.get_int("lookahead");
  if (!lookahead) return lookahead.status();
  if (*lookahead < 1) return Status::invalid_argument("--lookahead must be >= 1");
  o.lookahead_rows = static_cast<std::uint64_t>(*lookahead);
  if (args.given("decimal")) {
    const std::string d = args.get("decimal");
    if (d != "." && d != ",") return Status::invalid_argument("--decimal must be . or , got '" + d + "'");
    o.decimal = d[0];
  }
  const std::string on_error = args.get("on-error");
  if (on_error == "skip") o.skip_bad_rows = true;
  else if (on_error != "stop") return Status::invalid_argument("--on-error must be stop or skip, got '" + on_error + "'");
  return o;
}

const TableStream* source_table(const Stream& stream) {
  for (const Stream* s = &stream; s != nullptr; s = s->wrapped())
    if (const auto* table = dynamic_cast<const TableStream*>(s); table != nullptr) return table;
  return nullptr;
}

void report_skipped_rows(const Stream& stream) {
  const TableStream* table = source_table(stream);
  if (table == nullptr || table->skipped_rows() == 0) return;
  std::fprintf(stderr, "irithyll: skipped %llu malformed row%s (--on-error skip); the first:\n",
               static_cast<unsigned long long>(table->skipped_rows()), table->skipped_rows() == 1 ? "" : "s");
  for (const std::string& e : table->skipped_examples()) std::fprintf(stderr, "  %s\n", e.c_str());
}

void report_column_notes(const Stream& stream) {
  const TableStream* table = source_table(stream);
  if (table == nullptr) return;
  for (const std::string& note : table->column_notes()) std::fprintf(stderr, "irithyll: %s\n", note.c_str());
}

void report_unseen_categories(const Stream& stream, const Schema& stored) {
  const Schema& seen = stream.schema();
  for (std::size_t f = 0; f < stored.category_values.size() && f < stored.feature_names.size(); ++f) {
    const std::vector<std::string>& known = stored.category_values[f];
    if (known.empty()) continue;
    const auto at = std::find(seen.feature_names.begin(), seen.feature_names.end(), stored.feature_names[f]);
    const auto c = static_cast<std::size_t>(at - seen.feature_names.begin());
    if (at == seen.feature_names.end() || c >= seen.category_values.size()) continue;
    // Known values keep codes 0 .. known.size() - 1; the rest came after.
    const std::vector<std::string>& values = seen.category_values[c];
    if (values.size() <= known.size()) continue;
    const std::size_t n_new = values.size() - known.size();
    std::string shown;
    for (std::size_t k = known.size(); k < values.size() && k < known.size() + 3; ++k)
      shown += (k > known.size() ? ", '" : "'") + values[k] + "'";
    if (n_new > 3) shown += ", ...";
    std::fprintf(stderr,
                 "irithyll: column '%s' had %zu value%s the model never saw in training (%s); rows with one were "
                 "predicted as if '%s' were missing\n",
                 stored.feature_names[f].c_str(), n_new, n_new == 1 ? "" : "s", shown.c_str(),
                 stored.feature_names[f].c_str());
  }
}

void seed_known_categories(TableOptions& options, const Schema& stored) {
  for (std::size_t f = 0; f < stored.category_values.size() && f < stored.feature_names.size(); ++f)
    if (!stored.category_values[f].empty())
      options.known_categories.emplace_back(stored.feature_names[f], stored.category_values[f]);
}

}  // namespace irithyll::cli
