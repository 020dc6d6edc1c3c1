// The table reader (CSV or JSON lines) in one pass: header, bounded
// look-ahead, then rows as they come (see table_stream.hpp for the rules).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include "csv_tokenizer.hpp"
#include "fast_double.hpp"
#include "irithyll/stream/table_stream.hpp"
#include "jsonl_object.hpp"
#include "number_format.hpp"

namespace irithyll {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kMaxInferredClasses = 32;
// More distinct target values than this fraction of the look-ahead rows (and
// more than max_classes) is an id-like column, not a class label.
constexpr double kDistinctFraction = 0.5;
// Rows held to infer number formats when the task, classes and keys are given.
constexpr std::uint64_t kFormatLookaheadRows = 100;

enum class CellKind { kMissing, kNumber, kText };

struct Cell {
  CellKind kind;
  double value;
};

bool iequals(std::string_view a, std::string_view lower) {
  if (a.size() != lower.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower[i]) return false;
  }
  return true;
}

Cell parse_cell(std::string_view s) {
  if (s.empty()) return {CellKind::kMissing, kNaN};
  std::string_view digits = s;
  if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-' && digits[1] != '+') digits.remove_prefix(1);
  double v = 0.0;
  // Most cells are short decimals: read inline; the library call takes the rest.
  if (detail::parse_short_decimal(digits.data(), digits.data() + digits.size(), v)) return {CellKind::kNumber, v};
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ptr != digits.data() + digits.size()) {
    if (is_missing_token(s)) return {CellKind::kMissing, kNaN};
    return {CellKind::kText, kNaN};
  }
  // Out-of-range literals ("1e999") parse as a number that does not fit:
  // they are infinities in all but name, hence missing like "inf".
  if (ec != std::errc() || !std::isfinite(v)) return {CellKind::kMissing, kNaN};
  return {CellKind::kNumber, v};
}

// A cell of a column whose numbers carry decorations (decimal comma,
// thousands separators, '%', currency): parsed under the column's format.
Cell parse_cell(std::string_view s, const detail::NumberFormat& format) {
  if (format.plain()) return parse_cell(s);
  if (s.empty()) return {CellKind::kMissing, kNaN};
  double v = 0.0;
  if (detail::parse_number(s, format, v)) return std::isfinite(v) ? Cell{CellKind::kNumber, v} : Cell{CellKind::kMissing, kNaN};
  return {is_missing_token(s) ? CellKind::kMissing : CellKind::kText, kNaN};
}

std::string quoted(std::string_view s) {
  constexpr std::size_t kShown = 60;
  std::string out = "'";
  out.append(s.substr(0, kShown));
  if (s.size() > kShown) out += "...";
  out += "'";
  return out;
}

class TableStreamImpl final : public TableStream {
 public:
  TableStreamImpl(std::string name, std::unique_ptr<detail::ByteSource> source, TableOptions options)
      : name_(std::move(name)), source_(std::move(source)), tok_(source_.get()), options_(std::move(options)) {}

  Status open();

  const Schema& schema() const override { return schema_; }
  const Status& status() const override { return status_; }
  std::optional<std::uint64_t> size_hint() const override { return size_hint_; }
  bool next(std::span<double> x, double& y) override;
  bool next_multi(std::span<double> x, std::span<double> y) override;
  std::uint64_t ignored_keys() const override { return ignored_keys_; }
  std::uint64_t current_line() const override { return line_; }
  std::optional<double> fraction_read() const override { return tok_.fraction_read(); }
  std::uint64_t skipped_rows() const override { return skipped_; }
  const std::vector<std::string>& skipped_examples() const override { return skipped_first_; }
  const std::vector<std::string>& column_notes() const override { return notes_; }

 private:
  enum class ColumnKind : std::uint8_t { kUnknown, kNumeric, kCategorical };
  struct HeldCell {
    std::uint32_t column, begin, size;
  };
  struct HeldRow {
    std::uint64_t line;
    std::size_t first, count;  // into held_cells_
  };

  bool jsonl() const { return options_.format == TableFormat::kJsonLines; }
  std::string where(std::uint64_t line, std::size_t column) const {
    if (jsonl()) {
      const std::string key = column < header_.size() ? header_[column] : std::string();
      return name_ + ":" + std::to_string(line) + ": key " + quoted(key) + ": ";
    }
    return name_ + ":" + std::to_string(line) + ":" + std::to_string(column + 1) + ": ";
  }
  bool fail(Status s) {
    status_ = std::move(s);
    done_ = true;
    return false;
  }
  // A fault of this row alone: with skip_bad_rows it is counted and the
  // stream goes on (next() reads the following row), else the stream ends.
  bool row_fail(Status s) {
    if (!options_.skip_bad_rows) return fail(std::move(s));
    note_skipped(s);
    row_error_ = true;
    return false;
  }
  void note_skipped(const Status& s) {
    ++skipped_;
    if (skipped_first_.size() < kSkippedExamples) skipped_first_.push_back(s.message());
  }
  bool next_row(std::span<double> x, double& y);
  Status tokenizer_error() const { return Status::invalid_argument(name_ + ":" + tok_.error_message()); }
  Status read_header();
  Status read_raw(bool& got);  // next input record into row_ (aligned to columns)
  std::size_t column_of(std::string_view key, bool add);
  Status hold_lookahead();
  Status choose_columns();
  Status infer_target();
  void settle_feature_kinds();  // after the look-ahead: fills schema_.categorical_features
  // After the look-ahead: each numeric-looking column's number format
  // (decimal comma, thousands separators, '%', currency), with a note for
  // every column read other than plainly.
  void infer_number_formats();
  // After settle_feature_kinds: notes on columns that look like ids or free
  // text (near-distinct categories, increasing unique integers).
  void note_suspicious_columns();
  // The look-ahead's non-missing cells of column c, in row order (with their lines).
  template <typename Fn>
  void for_held_cells(std::size_t c, Fn&& fn) const {
    for (const HeldRow& r : held_rows_)
      for (std::size_t k = r.first; k < r.first + r.count; ++k)
        if (held_cells_[k].column == c)
          fn(std::string_view(held_text_).substr(held_cells_[k].begin, held_cells_[k].size), r.line);
  }
  std::string column_label(std::size_t c) const {
    return (c == target_col_ || std::find(extra_target_cols_.begin(), extra_target_cols_.end(), c) !=
                                    extra_target_cols_.end()
                ? "target "
                : "column ") +
           quoted(header_[c]);
  }
  Status check_width(std::size_t found) const;
  bool deliver(std::span<double> x, double& y);
  // The code of category `text` of feature f (column c); a new value gets
  // the next code and joins schema_.category_values.
  double code_of(std::size_t f, std::size_t c, std::string_view text) {
    auto& ids = categories_[c];
    auto it = ids.find(text);
    if (it == ids.end()) {
      it = ids.emplace(std::string(text), static_cast<double>(ids.size())).first;
      schema_.category_values[f].emplace_back(text);
    }
    return it->second;
  }

  std::string name_;
  std::unique_ptr<detail::ByteSource> source_;
  detail::CsvTokenizer tok_;
  detail::JsonObjectParser json_;
  TableOptions options_;
  Schema schema_;
  Status status_;
  std::optional<std::uint64_t> size_hint_;
  bool done_ = false;
  bool input_ended_ = false;
  std::uint64_t line_ = 0;
  std::uint64_t ignored_keys_ = 0;
  std::uint64_t header_line_ = 0;

  std::vector<std::string> header_;
  std::map<std::string, std::size_t, std::less<>> column_index_;
  bool columns_frozen_ = false;  // JSON lines: no new columns after the look-ahead
  std::size_t target_col_ = 0;
  std::vector<std::size_t> extra_target_cols_;  // multi-target streams
  std::vector<double> extra_y_;                 // their values in the last delivered row
  std::vector<std::size_t> feature_cols_;
  std::vector<ColumnKind> kinds_;                                       // per column
  std::vector<detail::NumberFormat> formats_;                           // per column
  std::vector<std::string> notes_;                                      // the per-column report
  std::vector<std::map<std::string, double, std::less<>>> categories_;  // per column
  bool numeric_classes_ = false;
  std::map<double, double> class_of_number_;
  std::map<std::string, double, std::less<>> class_of_text_;

  std::vector<std::string_view> fields_;  // tokenizer output
  std::vector<detail::JsonField> json_fields_;
  std::vector<std::string_view> row_;  // current row, one view per column ("" = missing)
  std::uint64_t row_line_ = 0;
  std::vector<std::string> pending_first_fields_;  // no header: the first record is data

  std::string held_text_;
  std::vector<HeldCell> held_cells_;
  std::vector<HeldRow> held_rows_;
  std::size_t replay_ = 0;  // next held row to deliver
  std::size_t n_held_ = 0;  // look-ahead rows, for messages after they are freed

  static constexpr std::size_t kSkippedExamples = 5;
  bool row_error_ = false, raw_row_error_ = false;  // the last failure was this row's alone
  std::uint64_t skipped_ = 0;
  std::vector<std::string> skipped_first_;
};

Status TableStreamImpl::check_width(std::size_t found) const {
  if (found == header_.size()) return Status::ok();
  return Status::invalid_argument(where(tok_.record_line(), std::min(found, header_.size())) + "expected " +
                                  std::to_string(header_.size()) + " columns, found " + std::to_string(found));
}

std::size_t TableStreamImpl::column_of(std::string_view key, bool add) {
  const auto it = column_index_.find(key);
  if (it != column_index_.end()) return it->second;
  if (!add) return SIZE_MAX;
  header_.emplace_back(key);
  column_index_.emplace(std::string(key), header_.size() - 1);
  return header_.size() - 1;
}

Status TableStreamImpl::read_header() {
  tok_.skip_lines(options_.skip_rows);
  if (jsonl()) return Status::ok();  // columns come from the keys
  const char sep = options_.separator != 0 ? options_.separator : detail::guess_separator(tok_.peek_first_line());
  tok_.set_separator(sep);
  const auto outcome = tok_.next(fields_);
  if (outcome == detail::CsvTokenizer::Outcome::kError) return tokenizer_error();
  if (outcome == detail::CsvTokenizer::Outcome::kEnd)
    return Status::invalid_argument(name_ + ": empty file" + (options_.header ? " (a header row is required)" : ""));
  const std::uint64_t line = tok_.record_line();
  header_line_ = line;
  if (options_.header) {
    header_.assign(fields_.begin(), fields_.end());
  } else {
    // The first record is data: keep a copy, it is held like look-ahead rows.
    pending_first_fields_.assign(fields_.begin(), fields_.end());
    for (std::size_t i = 0; i < fields_.size(); ++i) header_.push_back("c" + std::to_string(i + 1));
  }
  for (std::size_t i = 0; i < header_.size(); ++i) {
    const auto [it, fresh] = column_index_.emplace(header_[i], i);
    if (!fresh)
      return Status::invalid_argument(where(line, i) + "duplicate column name " + quoted(header_[i]) +
                                      " (also column " + std::to_string(it->second + 1) + ")");
  }
  if (header_.size() < (options_.allow_target_only || options_.no_target ? 1u : 2u))
    return Status::invalid_argument(where(line, 0) + "need at least two columns (features and a target); " +
                                    "is the separator right? (found one column with '" +
                                    std::string(1, sep == '\t' ? ' ' : sep) + "')");
  return Status::ok();
}

Status TableStreamImpl::read_raw(bool& got) {
  got = false;
  if (input_ended_) return Status::ok();
  if (!jsonl()) {
    const auto outcome = tok_.next(fields_);
    if (outcome == detail::CsvTokenizer::Outcome::kEnd) {
      input_ended_ = true;
      return Status::ok();
    }
    if (outcome == detail::CsvTokenizer::Outcome::kError) return tokenizer_error();
    if (Status w = check_width(fields_.size()); !w.is_ok()) {
      raw_row_error_ = true;
      return w;
    }
    row_.swap(fields_);  // no copy; the tokenizer clears fields_ before its next record
    row_line_ = tok_.record_line();
    got = true;
    return Status::ok();
  }
  std::string_view text;
  const auto outcome = tok_.next_line(text);
  if (outcome == detail::CsvTokenizer::Outcome::kEnd) {
    input_ended_ = true;
    return Status::ok();
  }
  if (outcome == detail::CsvTokenizer::Outcome::kError) return tokenizer_error();
  row_line_ = tok_.record_line();
  if (!json_.parse(text, json_fields_)) {
    raw_row_error_ = true;
    return Status::invalid_argument(name_ + ":" + std::to_string(row_line_) + ":" +
                                    std::to_string(json_.error_column()) + ": " + json_.error());
  }
  row_.assign(header_.size(), std::string_view());
  for (const detail::JsonField& f : json_fields_) {
    const std::size_t c = column_of(f.key, !columns_frozen_);
    if (c == SIZE_MAX) {
      ++ignored_keys_;
      continue;
    }
    if (c >= row_.size()) row_.resize(header_.size());
    row_[c] = f.value;
  }
  got = true;
  return Status::ok();
}

Status TableStreamImpl::hold_lookahead() {
  auto hold = [&](const std::vector<std::string_view>& cells, std::uint64_t line) {
    HeldRow r{line, held_cells_.size(), 0};
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (cells[c].empty()) continue;
      held_cells_.push_back({static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(held_text_.size()),
                             static_cast<std::uint32_t>(cells[c].size())});
      held_text_.append(cells[c]);
      ++r.count;
    }
    held_rows_.push_back(r);
  };
  if (!pending_first_fields_.empty()) {
    std::vector<std::string_view> first(pending_first_fields_.begin(), pending_first_fields_.end());
    hold(first, tok_.record_line());
  }
  const bool need = options_.no_target ? jsonl() && options_.features.empty()
                                        : !options_.task.has_value() ||
                    (*options_.task == Task::kClassification && options_.classes.empty()) ||
                    (jsonl() && (options_.features.empty() || header_.empty()));
  // When nothing else needs inferring, still enough rows to settle each
  // column's number format (decimal mark, thousands separators, '%',
  // currency); at least one row in any case: an input with no data rows is
  // an error at open, not a silent empty run.
  const std::uint64_t wanted = std::max<std::uint64_t>(options_.lookahead_rows, 1);
  const std::uint64_t limit = need ? wanted : std::min(wanted, kFormatLookaheadRows);
  while (held_rows_.size() < limit && held_text_.size() < kMaxLookaheadBytes) {
    // On a live source (a pipe, `tail -f`) the look-ahead ends, once it holds
    // a row, when no byte arrives for kLiveLookaheadIdleMs: a slow stream
    // starts learning from the rows it has instead of waiting for thousands.
    if (!held_rows_.empty() && !tok_.data_ready(kLiveLookaheadIdleMs)) break;
    bool got = false;
    raw_row_error_ = false;
    if (Status r = read_raw(got); !r.is_ok()) {
      if (!(raw_row_error_ && options_.skip_bad_rows)) return r;
      note_skipped(r);
      continue;
    }
    if (!got) break;
    hold(row_, row_line_);
  }
  if (jsonl() && !options_.features.empty()) {
    // The named features exist even if the look-ahead never showed them.
    for (const std::string& f : options_.features) column_of(f, true);
  }
  if (jsonl() && !options_.target.empty()) column_of(options_.target, true);
  if (jsonl())
    for (const std::string& t : options_.extra_targets) column_of(t, true);
  columns_frozen_ = true;
  n_held_ = held_rows_.size();
  if (input_ended_) size_hint_ = held_rows_.size();
  return Status::ok();
}

Status TableStreamImpl::choose_columns() {
  if (held_rows_.empty())
    return Status::invalid_argument(name_ + (jsonl() ? ": no data rows" : ": no data rows after the header"));
  if (jsonl() && !options_.no_target && header_.size() < (options_.allow_target_only ? 1u : 2u))
    return Status::invalid_argument(name_ + ":" + std::to_string(held_rows_.empty() ? 1 : held_rows_[0].line) +
                                    ": need at least two keys (features and a target)");
  // JSON lines: the default target is the last key of the first row.
  target_col_ = header_.size() - 1;
  if (jsonl() && !held_rows_.empty() && held_rows_[0].count > 0)
    target_col_ = held_cells_[held_rows_[0].first + held_rows_[0].count - 1].column;
  if (options_.no_target) {
    target_col_ = SIZE_MAX;
  } else if (!options_.target.empty()) {
    target_col_ = column_of(options_.target, false);
    if (target_col_ == SIZE_MAX)
      return Status::invalid_argument(name_ + (header_line_ > 0 ? ":" + std::to_string(header_line_) : "") +
                                      ": unknown target column " + quoted(options_.target) +
                                      (options_.header ? "" : " (without a header the columns are c1, c2, ...)"));
  }
  std::vector<bool> dropped(header_.size(), false);
  if (!options_.extra_targets.empty()) {
    if (target_col_ == SIZE_MAX) return Status::invalid_argument(name_ + ": further targets need a first target");
    std::vector<bool> is_target(header_.size(), false);
    is_target[target_col_] = true;
    for (const std::string& t : options_.extra_targets) {
      const std::size_t c = column_of(t, false);
      if (c == SIZE_MAX)
        return Status::invalid_argument(name_ + (header_line_ > 0 ? ":" + std::to_string(header_line_) : "") +
                                        ": unknown target column " + quoted(t) +
                                        (options_.header ? "" : " (without a header the columns are c1, c2, ...)"));
      if (is_target[c]) return Status::invalid_argument(name_ + ": target column " + quoted(t) + " is listed twice");
      is_target[c] = true;
      dropped[c] = true;  // a target is never a feature
      extra_target_cols_.push_back(c);
      schema_.target_names.push_back(header_[c]);
    }
    extra_y_.assign(extra_target_cols_.size(), kNaN);
  }
  for (const std::string& d : options_.drop) {
    const std::size_t c = column_of(d, false);
    if (c == SIZE_MAX) return Status::invalid_argument(name_ + ": --drop names unknown column " + quoted(d));
    dropped[c] = true;
  }
  if (!options_.features.empty()) {
    for (const std::string& f : options_.features) {
      const std::size_t c = column_of(f, false);
      if (c == SIZE_MAX) return Status::invalid_argument(name_ + ": --features names unknown column " + quoted(f));
      if (c == target_col_ ||
          std::find(extra_target_cols_.begin(), extra_target_cols_.end(), c) != extra_target_cols_.end())
        return Status::invalid_argument(name_ + ": column " + quoted(f) + " is a target, not a feature");
      if (!dropped[c]) feature_cols_.push_back(c);
    }
  } else {
    for (std::size_t c = 0; c < header_.size(); ++c)
      if (c != target_col_ && !dropped[c]) feature_cols_.push_back(c);
  }
  if (feature_cols_.empty() && !options_.allow_target_only)
    return Status::invalid_argument(name_ + ": no feature columns left");
  kinds_.assign(header_.size(), ColumnKind::kUnknown);
  categories_.resize(header_.size());
  for (const std::string& k : options_.categorical) {
    std::size_t c = column_of(k, false);
    // Not a column name: a 0-based feature index ("2" = the third feature).
    if (c == SIZE_MAX && !k.empty() && k.size() < 10 && k.find_first_not_of("0123456789") == std::string::npos &&
        std::stoul(k) < feature_cols_.size())
      c = feature_cols_[std::stoul(k)];
    if (c == SIZE_MAX) return Status::invalid_argument(name_ + ": --categorical names unknown column " + quoted(k));
    kinds_[c] = ColumnKind::kCategorical;
  }
  schema_.category_values.assign(feature_cols_.size(), {});
  for (const auto& [name, values] : options_.known_categories) {
    const std::size_t c = column_of(name, false);
    const auto f = std::find(feature_cols_.begin(), feature_cols_.end(), c);
    if (c == SIZE_MAX || f == feature_cols_.end()) continue;
    kinds_[c] = ColumnKind::kCategorical;
    for (const std::string& v : values) code_of(static_cast<std::size_t>(f - feature_cols_.begin()), c, v);
  }
  if (target_col_ != SIZE_MAX) schema_.target_name = header_[target_col_];
  if (!schema_.target_names.empty()) schema_.target_names.insert(schema_.target_names.begin(), schema_.target_name);
  for (const std::size_t c : feature_cols_) schema_.feature_names.push_back(header_[c]);
  return Status::ok();
}

Status TableStreamImpl::infer_target() {
  if (target_col_ == SIZE_MAX) {
    schema_.task = Task::kRegression;
    return Status::ok();
  }
  const std::string& column = header_[target_col_];
  if (!extra_target_cols_.empty()) {
    // Several targets: regression (each target's cells are checked as rows come).
    if ((options_.task.has_value() && *options_.task == Task::kClassification) || !options_.classes.empty())
      return Status::invalid_argument(name_ + ": several targets are for regression only");
    schema_.task = Task::kRegression;
    return Status::ok();
  }
  if (!options_.classes.empty()) {
    if (options_.task.has_value() && *options_.task == Task::kRegression)
      return Status::invalid_argument(name_ + ": a class list was given for a regression task");
    schema_.task = Task::kClassification;
    bool all_numeric = true;
    for (const std::string& name : options_.classes) {
      const double id = static_cast<double>(schema_.class_names.size());
      if (!class_of_text_.emplace(name, id).second)
        return Status::invalid_argument(name_ + ": class " + quoted(name) + " listed twice");
      const Cell cell = parse_cell(name);
      if (cell.kind == CellKind::kNumber) class_of_number_.emplace(cell.value, id);
      else all_numeric = false;
      schema_.class_names.push_back(name);
    }
    numeric_classes_ = all_numeric;
    if (schema_.class_names.size() < 2) return Status::invalid_argument(name_ + ": --classes needs at least two classes");
    return Status::ok();
  }
  std::map<double, std::string> numbers;  // value -> first spelling
  std::set<std::string, std::less<>> texts;
  bool all_numeric = true, all_integer = true;
  std::string first_text_where, first_text;
  std::uint64_t labelled = 0;
  for (const HeldRow& r : held_rows_) {
    std::string_view label;
    for (std::size_t k = r.first; k < r.first + r.count; ++k)
      if (held_cells_[k].column == target_col_)
        label = std::string_view(held_text_).substr(held_cells_[k].begin, held_cells_[k].size);
    const Cell cell = parse_cell(label, formats_[target_col_]);
    if (cell.kind == CellKind::kMissing) {
      if (options_.allow_missing_target) continue;
      return Status::invalid_argument(where(r.line, target_col_) + "missing target value " + quoted(label) +
                                      " in column " + quoted(column));
    }
    ++labelled;
    if (cell.kind == CellKind::kText) {
      if (all_numeric) {
        first_text_where = where(r.line, target_col_);
        first_text = quoted(label);
      }
      all_numeric = false;
    } else {
      all_integer = all_integer && cell.value == std::floor(cell.value);
      numbers.emplace(cell.value, std::string(label));
    }
    if (texts.find(label) == texts.end()) texts.emplace(label);
  }
  if (labelled == 0 && !options_.task.has_value())
    return Status::invalid_argument(name_ + ": no labelled rows in the first " + std::to_string(held_rows_.size()) +
                                    " to infer the task from; give --task (and --classes)");
  Task task = Task::kRegression;
  if (options_.task.has_value()) task = *options_.task;
  else if (!all_numeric || (all_integer && numbers.size() <= kMaxInferredClasses)) task = Task::kClassification;
  if (task == Task::kRegression && !all_numeric)
    return Status::invalid_argument(first_text_where + "regression target " + quoted(column) +
                                    " is not numeric: " + first_text);
  schema_.task = task;
  if (task != Task::kClassification) return Status::ok();
  numeric_classes_ = all_numeric;
  const std::size_t n = all_numeric ? numbers.size() : texts.size();
  if (n > options_.max_classes && static_cast<double>(n) > kDistinctFraction * static_cast<double>(labelled))
    return Status::invalid_argument(name_ + ": target column " + quoted(column) + " has " + std::to_string(n) +
                                    " distinct values in its first " + std::to_string(labelled) +
                                    " rows (more than --max-classes " + std::to_string(options_.max_classes) +
                                    " and more than half the rows): it looks like an id, a timestamp or a "
                                    "real-valued target, not a class label. Pick the label with --target COL, "
                                    "or use --task regression");
  if (all_numeric) {
    for (const auto& [value, spelling] : numbers) {
      class_of_number_.emplace(value, static_cast<double>(schema_.class_names.size()));
      schema_.class_names.push_back(spelling);
    }
  } else {
    for (const std::string& t : texts) {
      class_of_text_.emplace(t, static_cast<double>(schema_.class_names.size()));
      schema_.class_names.push_back(t);
    }
  }
  return Status::ok();
}

Status TableStreamImpl::open() {
  IRITHYLL_RETURN_IF_ERROR(read_header());
  IRITHYLL_RETURN_IF_ERROR(hold_lookahead());
  IRITHYLL_RETURN_IF_ERROR(choose_columns());
  infer_number_formats();
  IRITHYLL_RETURN_IF_ERROR(infer_target());
  settle_feature_kinds();
  note_suspicious_columns();
  return Status::ok();
}

void TableStreamImpl::settle_feature_kinds() {
  // A feature column's kind is its first non-missing value's (deliver()
  // would decide the same on replay, as the held rows come first), so it is
  // known here for every column the look-ahead shows a value of; a column
  // empty throughout the look-ahead stays undecided and is not listed.
  std::vector<std::uint8_t> is_feature(header_.size(), 0);
  for (const std::size_t c : feature_cols_) is_feature[c] = 1;
  for (const HeldRow& r : held_rows_) {
    for (std::size_t i = r.first; i < r.first + r.count; ++i) {
      const HeldCell& cell = held_cells_[i];
      if (cell.column >= header_.size() || !is_feature[cell.column] || kinds_[cell.column] != ColumnKind::kUnknown) continue;
      const Cell parsed = parse_cell(std::string_view(held_text_).substr(cell.begin, cell.size), formats_[cell.column]);
      if (parsed.kind != CellKind::kMissing)
        kinds_[cell.column] = parsed.kind == CellKind::kNumber ? ColumnKind::kNumeric : ColumnKind::kCategorical;
    }
  }
  schema_.categorical_features.clear();
  for (std::size_t f = 0; f < feature_cols_.size(); ++f)
    if (kinds_[feature_cols_[f]] == ColumnKind::kCategorical) schema_.categorical_features.push_back(f);
}

void TableStreamImpl::infer_number_formats() {
  formats_.assign(header_.size(), detail::NumberFormat{});
  const char separator = jsonl() ? 0 : tok_.separator();
  for (std::size_t c = 0; c < header_.size(); ++c) {
    const bool target = c == target_col_ || std::find(extra_target_cols_.begin(), extra_target_cols_.end(), c) !=
                                                extra_target_cols_.end();
    const bool feature = std::find(feature_cols_.begin(), feature_cols_.end(), c) != feature_cols_.end();
    if (!target && !(feature && kinds_[c] != ColumnKind::kCategorical)) continue;
    // Plain numbers need nothing; a column with another cell gets a format
    // when every cell is a number under the one its cells suggest.
    bool decorated = false;
    std::uint64_t values = 0;
    for_held_cells(c, [&](std::string_view text, std::uint64_t) {
      const Cell plain = parse_cell(text);
      if (plain.kind == CellKind::kMissing) return;
      ++values;
      // A named decimal comma changes how plain cells with a '.' read ("1.234").
      if (plain.kind == CellKind::kText || (options_.decimal == ',' && text.find('.') != std::string_view::npos))
        decorated = true;
    });
    if (!decorated) continue;
    // The evidence, gathered only for the columns that need a format.
    detail::NumberFormatGuess guess(separator, options_.decimal);
    for_held_cells(c, [&](std::string_view text, std::uint64_t) {
      if (parse_cell(text).kind != CellKind::kMissing) guess.add(text);  // a cell no format reads fails the check below
    });
    auto failures = [&](const detail::NumberFormat& f, std::string& first_bad, std::uint64_t& bad_line) {
      std::uint64_t bad = 0;
      for_held_cells(c, [&](std::string_view text, std::uint64_t line) {
        if (parse_cell(text, f).kind != CellKind::kText) return;
        if (bad++ == 0) first_bad = text, bad_line = line;
      });
      return bad;
    };
    std::string first_bad;
    std::uint64_t bad_line = 0;
    const detail::NumberFormat format = guess.result();
    const std::uint64_t bad = failures(format, first_bad, bad_line);
    if (bad == 0) {
      formats_[c] = format;
      const std::string how = detail::describe_number_format(format);
      if (!how.empty()) notes_.push_back(name_ + ": " + column_label(c) + " read as numbers: " + how);
      continue;
    }
    if (2 * bad > values) {
      // Mostly text. Say so only when another decimal mark would have read it.
      detail::NumberFormatGuess comma(separator, format.decimal == ',' ? '.' : ',');
      bool all = true;
      for_held_cells(c, [&](std::string_view text, std::uint64_t) {
        if (parse_cell(text).kind != CellKind::kMissing) all = all && comma.add(text);
      });
      std::string other_bad;
      std::uint64_t other_line = 0;
      const detail::NumberFormat other = comma.result();
      if (all && values > 0 && failures(other, other_bad, other_line) == 0)
        notes_.push_back(name_ + ": " + column_label(c) + " read as text, but with --decimal " +
                         std::string(1, other.decimal) + " every value of it would be a number (" +
                         detail::describe_number_format(other) + ")");
      continue;
    }
    // A plain column with one text cell: its error comes when the row is read.
    if (detail::describe_number_format(format).empty()) continue;
    notes_.push_back(name_ + ":" + std::to_string(bad_line) + ": " + column_label(c) + ": " + std::to_string(values - bad) +
                     " of its " + std::to_string(values) + " values in the look-ahead are numbers (" +
                     detail::describe_number_format(format) + ") but " + quoted(first_bad) +
                     " is not, so the column is not read that way: fix the cell, --drop the column or name the "
                     "decimal mark with --decimal");
  }
}

void TableStreamImpl::note_suspicious_columns() {
  constexpr std::uint64_t kMinRows = 50;         // fewer look-ahead values say nothing about a column
  constexpr double kNearDistinct = 0.9;          // share of distinct categories that marks an id or free text
  for (const std::size_t c : feature_cols_) {
    if (kinds_[c] != ColumnKind::kCategorical) continue;
    std::set<std::string_view> distinct;
    std::uint64_t values = 0;
    for_held_cells(c, [&](std::string_view text, std::uint64_t) {
      if (is_missing_token(text)) return;
      ++values;
      distinct.insert(text);
    });
    if (values >= kMinRows && static_cast<double>(distinct.size()) >= kNearDistinct * static_cast<double>(values))
      notes_.push_back(name_ + ": warning: " + column_label(c) + " is read as categories but " +
                       std::to_string(distinct.size()) + " of its " + std::to_string(values) +
                       " values in the look-ahead are distinct (an id, a timestamp or free text?): a category "
                       "seen once teaches a model nothing; --drop it, or recode it");
  }
  // Increasing (or decreasing) unique integers: a row number, an id or an
  // epoch timestamp. As a feature it only encodes time; as a regression
  // target it is almost surely the wrong column.
  std::vector<std::size_t> numeric = feature_cols_;
  if (target_col_ != SIZE_MAX && schema_.task == Task::kRegression) numeric.push_back(target_col_);
  for (const std::size_t c : numeric) {
    if (c != target_col_ && kinds_[c] != ColumnKind::kNumeric) continue;
    std::uint64_t values = 0;
    bool integers = true, up = true, down = true;
    double last = 0.0;
    for_held_cells(c, [&](std::string_view text, std::uint64_t) {
      const Cell cell = parse_cell(text, formats_[c]);
      if (cell.kind != CellKind::kNumber) {
        integers = integers && cell.kind == CellKind::kMissing;
        return;
      }
      integers = integers && cell.value == std::floor(cell.value);
      if (values > 0) {
        up = up && cell.value > last;
        down = down && cell.value < last;
      }
      last = cell.value;
      ++values;
    });
    if (values < kMinRows || !integers || !(up || down)) continue;
    notes_.push_back(name_ + ": warning: " + column_label(c) + " holds " + (up ? "increasing" : "decreasing") +
                     " unique integers in all " + std::to_string(values) +
                     " look-ahead rows (an id, a row number or a timestamp?): " +
                     (c == target_col_ ? "a regression on it learns the row order; pick the label with --target COL"
                                       : "as a feature it only tells time; --drop it unless that is meant"));
  }
}

bool TableStreamImpl::deliver(std::span<double> x, double& y) {
  const std::uint64_t line = row_line_;
  line_ = line;
  if (target_col_ == SIZE_MAX) {
    y = kNaN;
  } else {
    const std::string_view text = row_[target_col_];
    const Cell cell = parse_cell(text, formats_[target_col_]);
    if (cell.kind == CellKind::kMissing) {
      if (!options_.allow_missing_target)
        return row_fail(Status::invalid_argument(where(line, target_col_) + "missing target value " + quoted(text) +
                                             " in column " + quoted(header_[target_col_])));
      y = kNaN;
    } else if (schema_.task == Task::kRegression) {
      if (cell.kind != CellKind::kNumber)
        return row_fail(Status::invalid_argument(where(line, target_col_) + "not a number: " + quoted(text) +
                                             " in regression target " + quoted(header_[target_col_])));
      y = cell.value;
    } else {
      auto t = class_of_text_.find(text);
      if (t != class_of_text_.end()) {
        y = t->second;
      } else {
        const auto it = numeric_classes_ && cell.kind == CellKind::kNumber ? class_of_number_.find(cell.value)
                                                                           : class_of_number_.end();
        if (it == class_of_number_.end())
          return row_fail(Status::invalid_argument(
              where(line, target_col_) + "class " + quoted(text) +
              (options_.classes.empty() ? " first appears after the " + std::to_string(n_held_) +
                                              " rows the class set was inferred from; list every class with "
                                              "--classes, or look further ahead with --lookahead"
                                        : " is not in the --classes list")));
        y = it->second;
      }
    }
  }
  for (std::size_t t = 0; t < extra_target_cols_.size(); ++t) {
    const std::size_t c = extra_target_cols_[t];
    const Cell cell = parse_cell(row_[c], formats_[c]);
    if (cell.kind == CellKind::kMissing && !options_.allow_missing_target)
      return row_fail(Status::invalid_argument(where(line, c) + "missing target value " + quoted(row_[c]) +
                                           " in column " + quoted(header_[c])));
    if (cell.kind == CellKind::kText)
      return row_fail(Status::invalid_argument(where(line, c) + "not a number: " + quoted(row_[c]) +
                                           " in regression target " + quoted(header_[c])));
    extra_y_[t] = cell.value;
  }
  for (std::size_t f = 0; f < feature_cols_.size(); ++f) {
    const std::size_t c = feature_cols_[f];
    const std::string_view text = row_[c];
    double value = kNaN;
    if (kinds_[c] == ColumnKind::kCategorical) {
      if (!text.empty() && !is_missing_token(text)) {
        value = code_of(f, c, text);
      }
    } else {
      const Cell cell = parse_cell(text, formats_[c]);
      if (cell.kind != CellKind::kMissing) {
        if (kinds_[c] == ColumnKind::kUnknown)
          kinds_[c] = cell.kind == CellKind::kNumber ? ColumnKind::kNumeric : ColumnKind::kCategorical;
        if (kinds_[c] == ColumnKind::kNumeric) {
          if (cell.kind != CellKind::kNumber)
            return row_fail(Status::invalid_argument(where(line, c) + "not a number: " + quoted(text) +
                                                 " in numeric column " + quoted(header_[c]) +
                                                 " (--categorical or --drop it if that is expected)"));
          value = cell.value;
        } else {
          value = code_of(f, c, text);
        }
      }
    }
    x[f] = value;
  }
  return true;
}

bool TableStreamImpl::next(std::span<double> x, double& y) {
  for (;;) {
    row_error_ = false;
    if (next_row(x, y)) return true;
    if (!row_error_) return false;  // the end, or an error that ends the stream
  }
}

bool TableStreamImpl::next_row(std::span<double> x, double& y) {
  if (done_) return false;
  if (x.size() != schema_.n_features())
    return fail(Status::invalid_argument(name_ + ": next() given " + std::to_string(x.size()) +
                                         " feature slots, the schema has " + std::to_string(schema_.n_features())));
  if (replay_ < held_rows_.size()) {
    const HeldRow& r = held_rows_[replay_++];
    row_.assign(header_.size(), std::string_view());
    for (std::size_t k = r.first; k < r.first + r.count; ++k)
      row_[held_cells_[k].column] = std::string_view(held_text_).substr(held_cells_[k].begin, held_cells_[k].size);
    row_line_ = r.line;
    const bool ok = deliver(x, y);
    if (replay_ == held_rows_.size()) {  // the look-ahead is spent: free it
      std::string().swap(held_text_);
      std::vector<HeldCell>().swap(held_cells_);
      std::vector<HeldRow>().swap(held_rows_);
      replay_ = 0;
    }
    return ok;
  }
  bool got = false;
  raw_row_error_ = false;
  if (Status s = read_raw(got); !s.is_ok()) return raw_row_error_ ? row_fail(std::move(s)) : fail(std::move(s));
  if (!got) {
    done_ = true;
    return false;
  }
  return deliver(x, y);
}

bool TableStreamImpl::next_multi(std::span<double> x, std::span<double> y) {
  if (y.size() != schema_.n_targets())
    return fail(Status::invalid_argument(name_ + ": next_multi() given " + std::to_string(y.size()) +
                                         " target slots, the schema has " + std::to_string(schema_.n_targets())));
  if (!next(x, y[0])) return false;
  std::copy(extra_y_.begin(), extra_y_.end(), y.begin() + 1);
  return true;
}

Result<std::unique_ptr<TableStream>> open_with(std::string name, std::unique_ptr<detail::ByteSource> source,
                                               const TableOptions& options) {
  auto stream = std::make_unique<TableStreamImpl>(std::move(name), std::move(source), options);
  IRITHYLL_RETURN_IF_ERROR(stream->open());
  return std::unique_ptr<TableStream>(std::move(stream));
}

}  // namespace

bool is_missing_token(std::string_view s) {
  if (s.empty() || s == "?" || s == "-") return true;
  // Spreadsheet error cells exported as text.
  if (s[0] == '#')
    for (const std::string_view m : {"#n/a", "#na", "#value!", "#div/0!", "#ref!", "#num!", "#name?", "#null!"})
      if (iequals(s, m)) return true;
  if (s.size() > 4) return false;
  for (const std::string_view m : {"na", "n/a", "nan", "null", "none", "nil", "-nan"})
    if (iequals(s, m)) return true;
  return false;
}

Result<std::unique_ptr<TableStream>> open_table_stream(const std::string& path, const TableOptions& options) {
  auto source = detail::open_file_source(path);
  if (!source.is_ok()) return source.status();
  return open_with(path == "-" ? std::string("<stdin>") : path, std::move(source).value(), options);
}

Result<std::unique_ptr<TableStream>> open_table_stream_from_string(std::string text, const TableOptions& options,
                                                                 std::string name) {
  return open_with(std::move(name), detail::make_string_source(std::move(text)), options);
}

}  // namespace irithyll
