// CSV reader: two passes over a CsvTokenizer (see csv_stream.hpp for the
// rules). The first pass fixes the schema; the second yields samples.
#include "irithyll/stream/csv_stream.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <vector>

#include "csv_tokenizer.hpp"

namespace irithyll {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kMaxInferredClasses = 32;

enum class CellKind { kMissing, kNumber, kText };

struct Cell {
  CellKind kind;
  double value;
};

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != b[i]) return false;
  }
  return true;
}

Cell parse_cell(std::string_view s) {
  if (s.empty() || s == "?" || iequals(s, "na")) return {CellKind::kMissing, kNaN};
  std::string_view digits = s;
  if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-' && digits[1] != '+') digits.remove_prefix(1);
  double v = 0.0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ptr != digits.data() + digits.size()) return {CellKind::kText, kNaN};
  // Out-of-range literals ("1e999") parse as a number that does not fit:
  // they are infinities in all but name, hence missing like "inf".
  if (ec != std::errc() || !std::isfinite(v)) return {CellKind::kMissing, kNaN};
  return {CellKind::kNumber, v};
}

std::string quoted(std::string_view s) {
  constexpr std::size_t kShown = 60;
  std::string out = "'";
  out.append(s.substr(0, kShown));
  if (s.size() > kShown) out += "...";
  out += "'";
  return out;
}

class CsvStream final : public Stream {
 public:
  CsvStream(std::string name, std::unique_ptr<detail::ByteSource> source, CsvOptions options)
      : name_(std::move(name)), source_(std::move(source)), tok_(source_.get()), options_(std::move(options)) {}

  Status open();

  const Schema& schema() const override { return schema_; }
  const Status& status() const override { return status_; }
  std::optional<std::uint64_t> size_hint() const override { return n_rows_; }
  bool next(std::span<double> x, double& y) override;

 private:
  enum class ColumnKind : std::uint8_t { kUnknown, kNumeric, kCategorical };

  std::string where(std::uint64_t line, std::size_t column) const {
    return name_ + ":" + std::to_string(line) + ":" + std::to_string(column + 1) + ": ";
  }
  bool fail(Status s) {
    status_ = std::move(s);
    done_ = true;
    return false;
  }
  Status check_width(std::size_t found) const;
  Status read_header();

  std::string name_;
  std::unique_ptr<detail::ByteSource> source_;
  detail::CsvTokenizer tok_;
  CsvOptions options_;
  Schema schema_;
  Status status_;
  std::uint64_t n_rows_ = 0;
  bool done_ = false;

  std::vector<std::string> header_;
  std::size_t target_col_ = 0;
  std::vector<ColumnKind> kinds_;  // per column
  std::vector<std::map<std::string, double, std::less<>>> categories_;  // per column
  bool numeric_classes_ = false;
  std::map<double, double> class_of_number_;
  std::map<std::string, double, std::less<>> class_of_text_;
  std::vector<std::string_view> fields_;
};

Status CsvStream::check_width(std::size_t found) const {
  if (found == header_.size()) return Status::ok();
  return Status::invalid_argument(where(tok_.record_line(), std::min(found, header_.size())) + "expected " +
                                  std::to_string(header_.size()) + " columns, found " + std::to_string(found));
}

Status CsvStream::read_header() {
  tok_.skip_lines(options_.skip_rows);
  const auto outcome = tok_.next(fields_);
  if (outcome == detail::CsvTokenizer::Outcome::kError)
    return Status::invalid_argument(name_ + ":" + tok_.error_message());
  if (outcome == detail::CsvTokenizer::Outcome::kEnd)
    return Status::invalid_argument(name_ + ": empty file (a header row is required)");
  header_.assign(fields_.begin(), fields_.end());
  const std::uint64_t line = tok_.record_line();
  for (std::size_t i = 0; i < header_.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (header_[i] == header_[j])
        return Status::invalid_argument(where(line, i) + "duplicate column name " + quoted(header_[i]) +
                                        " (also column " + std::to_string(j + 1) + ")");
  if (header_.size() < (options_.allow_target_only ? 1u : 2u))
    return Status::invalid_argument(where(line, 0) + "need at least two columns (features and a target)");
  target_col_ = header_.size() - 1;
  if (!options_.target.empty()) {
    std::size_t i = 0;
    while (i < header_.size() && header_[i] != options_.target) ++i;
    if (i == header_.size())
      return Status::invalid_argument(name_ + ":" + std::to_string(line) + ": unknown target column " +
                                      quoted(options_.target));
    target_col_ = i;
  }
  return Status::ok();
}

Status CsvStream::open() {
  IRITHYLL_RETURN_IF_ERROR(read_header());
  // First pass: the target column only.
  std::map<double, std::string> numbers;  // value -> first spelling
  std::set<std::string, std::less<>> texts;
  bool all_numeric = true, all_integer = true, too_many = false;
  std::string first_text_where, first_text;
  for (;;) {
    const auto outcome = tok_.next(fields_);
    if (outcome == detail::CsvTokenizer::Outcome::kEnd) break;
    if (outcome == detail::CsvTokenizer::Outcome::kError)
      return Status::invalid_argument(name_ + ":" + tok_.error_message());
    IRITHYLL_RETURN_IF_ERROR(check_width(fields_.size()));
    ++n_rows_;
    const std::string_view label = fields_[target_col_];
    const Cell cell = parse_cell(label);
    if (cell.kind == CellKind::kMissing)
      return Status::invalid_argument(where(tok_.record_line(), target_col_) + "missing target value " +
                                      quoted(label) + " in column " + quoted(header_[target_col_]));
    if (cell.kind == CellKind::kText) {
      if (all_numeric) {
        first_text_where = where(tok_.record_line(), target_col_);
        first_text = quoted(label);
      }
      all_numeric = false;
    } else {
      all_integer = all_integer && cell.value == std::floor(cell.value);
      if (numbers.size() <= kCsvMaxClasses) numbers.emplace(cell.value, std::string(label));
    }
    if (texts.size() <= kCsvMaxClasses) {
      if (texts.find(label) == texts.end()) texts.emplace(label);
    } else {
      too_many = true;
    }
  }
  if (n_rows_ == 0) return Status::invalid_argument(name_ + ": no data rows after the header");

  schema_.target_name = header_[target_col_];
  for (std::size_t c = 0; c < header_.size(); ++c)
    if (c != target_col_) schema_.feature_names.push_back(header_[c]);
  Task task = Task::kRegression;
  if (options_.task.has_value()) {
    task = *options_.task;
  } else if (!all_numeric || (all_integer && numbers.size() <= kMaxInferredClasses)) {
    task = Task::kClassification;
  }
  if (task == Task::kRegression && !all_numeric)
    return Status::invalid_argument(first_text_where + "regression target " + quoted(header_[target_col_]) +
                                    " is not numeric: " + first_text);
  schema_.task = task;
  if (task == Task::kClassification) {
    numeric_classes_ = all_numeric;
    const std::size_t n = all_numeric ? numbers.size() : texts.size();
    if (too_many || n > kCsvMaxClasses)
      return Status::invalid_argument(name_ + ": target " + quoted(header_[target_col_]) + " has more than " +
                                      std::to_string(kCsvMaxClasses) + " distinct values; is it a regression target?");
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
  }
  kinds_.assign(header_.size(), ColumnKind::kUnknown);
  categories_.resize(header_.size());

  // Second pass starts here.
  IRITHYLL_RETURN_IF_ERROR(tok_.rewind());
  tok_.skip_lines(options_.skip_rows);
  if (tok_.next(fields_) != detail::CsvTokenizer::Outcome::kRecord)
    return Status::io_error(name_ + ": file changed between the two passes");
  return Status::ok();
}

bool CsvStream::next(std::span<double> x, double& y) {
  if (done_) return false;
  if (x.size() != schema_.n_features())
    return fail(Status::invalid_argument(name_ + ": next() given " + std::to_string(x.size()) +
                                         " feature slots, the schema has " + std::to_string(schema_.n_features())));
  const auto outcome = tok_.next(fields_);
  if (outcome == detail::CsvTokenizer::Outcome::kEnd) {
    done_ = true;
    return false;
  }
  if (outcome == detail::CsvTokenizer::Outcome::kError)
    return fail(Status::invalid_argument(name_ + ":" + tok_.error_message()));
  if (Status s = check_width(fields_.size()); !s.is_ok()) return fail(std::move(s));
  const std::uint64_t line = tok_.record_line();
  std::size_t f = 0;
  for (std::size_t c = 0; c < fields_.size(); ++c) {
    const std::string_view text = fields_[c];
    const Cell cell = parse_cell(text);
    if (c == target_col_) {
      if (cell.kind == CellKind::kMissing)
        return fail(Status::invalid_argument(where(line, c) + "missing target value " + quoted(text) +
                                             " in column " + quoted(header_[c])));
      if (schema_.task == Task::kRegression) {
        if (cell.kind != CellKind::kNumber)
          return fail(Status::invalid_argument(where(line, c) + "not a number: " + quoted(text) +
                                               " in regression target " + quoted(header_[c])));
        y = cell.value;
      } else if (numeric_classes_) {
        const auto it = cell.kind == CellKind::kNumber ? class_of_number_.find(cell.value) : class_of_number_.end();
        if (it == class_of_number_.end())
          return fail(Status::invalid_argument(where(line, c) + "label " + quoted(text) + " was not seen in the first pass"));
        y = it->second;
      } else {
        const auto it = class_of_text_.find(text);
        if (it == class_of_text_.end())
          return fail(Status::invalid_argument(where(line, c) + "label " + quoted(text) + " was not seen in the first pass"));
        y = it->second;
      }
      continue;
    }
    double value = kNaN;
    if (cell.kind != CellKind::kMissing) {
      if (kinds_[c] == ColumnKind::kUnknown)
        kinds_[c] = cell.kind == CellKind::kNumber ? ColumnKind::kNumeric : ColumnKind::kCategorical;
      if (kinds_[c] == ColumnKind::kNumeric) {
        if (cell.kind != CellKind::kNumber)
          return fail(Status::invalid_argument(where(line, c) + "not a number: " + quoted(text) + " in numeric column " +
                                               quoted(header_[c])));
        value = cell.value;
      } else {
        auto& ids = categories_[c];
        auto it = ids.find(text);
        if (it == ids.end()) it = ids.emplace(std::string(text), static_cast<double>(ids.size())).first;
        value = it->second;
      }
    }
    x[f++] = value;
  }
  return true;
}

Result<std::unique_ptr<Stream>> open_with(std::string name, std::unique_ptr<detail::ByteSource> source,
                                          const CsvOptions& options) {
  auto stream = std::make_unique<CsvStream>(std::move(name), std::move(source), options);
  IRITHYLL_RETURN_IF_ERROR(stream->open());
  return std::unique_ptr<Stream>(std::move(stream));
}

}  // namespace

Result<std::unique_ptr<Stream>> open_csv_stream(const std::string& path, const CsvOptions& options) {
  auto source = detail::open_file_source(path);
  if (!source.is_ok()) return source.status();
  return open_with(path, std::move(source).value(), options);
}

Result<std::unique_ptr<Stream>> open_csv_stream_from_string(std::string text, const CsvOptions& options,
                                                            std::string name) {
  return open_with(std::move(name), detail::make_string_source(std::move(text)), options);
}

}  // namespace irithyll
