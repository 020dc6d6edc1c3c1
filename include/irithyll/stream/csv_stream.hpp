// CSV files as a Stream: one sample per data row, read through a 64 KiB
// buffer (the file is never held in memory whole).
//
// Cost: the file is read twice. open_csv_stream() makes a first pass that
// tokenizes every row but converts only the target column, to infer the task,
// fix the class set before the first sample (a learner needs n_classes up
// front) and count the rows (size_hint). The second pass, driven by next(),
// yields the samples one at a time. Memory: one record plus, per categorical
// feature column, its distinct strings. Not thread-safe (one reader per
// thread); a file must be seekable (no pipes).
//
// Format (lenient RFC 4180, see src/stream/csv_tokenizer.hpp):
//   - A header row is required; names must be distinct. The first
//     CsvOptions::skip_rows physical lines before it are ignored.
//   - The target column is CsvOptions::target (default: the last column);
//     every other column is a feature, in file order.
//   - Missing cells: empty, "NA", "?", and non-finite literals ("nan", "inf",
//     "-inf", "infinity", any case). A missing feature is delivered as NaN;
//     infinities are delivered as NaN too, since every learner treats
//     non-finite inputs as missing. A missing target is an error.
//   - A feature column is numeric if its first non-missing value parses as a
//     number, categorical otherwise. A later non-number in a numeric column is
//     an error. Categorical values become ids 0, 1, 2, ... in order of first
//     appearance, per column (a numeric-looking string in a categorical column
//     is just another category).
//   - Task, when CsvOptions::task is empty: a non-numeric target means
//     classification; a numeric target with only integer values and at most
//     32 distinct values means classification; anything else regression.
//     Asking for regression on a non-numeric target is an error.
//   - Class ids: if every label is a number, labels sorted numerically ("1"
//     and "1.0" are the same class, named by its first spelling); otherwise
//     sorted lexicographically by their bytes (elec8: DOWN = 0, UP = 1).
//
// Errors name the file, the 1-based physical line where the row starts and
// the 1-based column: "data.csv:17:3: expected 5 columns, found 4". Problems
// the first pass sees (column counts, quoting, target values, the header) are
// returned by open_csv_stream(); feature values are checked by next(), which
// then returns false with status() set.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "irithyll/core/status.hpp"
#include "irithyll/stream/stream.hpp"

namespace irithyll {

struct CsvOptions {
  std::string target;              // target column name; empty = last column
  std::optional<Task> task;        // empty = infer (rules above)
  std::uint64_t skip_rows = 0;     // physical lines ignored before the header
  // A learner needs features, so one column is normally an error; a drift
  // monitor reads a single column of errors or losses and sets this.
  bool allow_target_only = false;
};

// Most classes a CSV target may have; more is almost surely a regression
// target or an id column, and an error says so.
inline constexpr std::size_t kCsvMaxClasses = 65536;

Result<std::unique_ptr<Stream>> open_csv_stream(const std::string& path, const CsvOptions& options = {});

// Same reader over text already in memory (tests, fuzzing); `name` stands in
// for the file name in error messages.
Result<std::unique_ptr<Stream>> open_csv_stream_from_string(std::string text, const CsvOptions& options = {},
                                                            std::string name = "<string>");

}  // namespace irithyll
