// Tables as a Stream: CSV (any separator) or JSON lines, from a file, a
// gzip-compressed file, a pipe or standard input ("-"); one sample per row.
//
// Single pass. The input is read once, front to back, through a 64 KiB
// buffer, so pipes, FIFOs and endless streams work and memory stays flat.
// What used to need a first pass is settled by a bounded look-ahead: the
// first TableOptions::lookahead_rows rows (default 10,000, at most 64 MiB) are
// read and held before the first sample, to infer the task and the class set
// (a learner needs n_classes up front) and, for JSON lines, the keys. They are
// then replayed, so every row is delivered once and in order. The same code
// runs on files and pipes: a file and the same bytes piped give identical
// samples. The look-ahead is shortened to 100 rows (for the columns' number
// formats) when nothing else needs inferring (task given, and for
// classification the classes given; for JSON lines, the features).
//
// Classes. With TableOptions::classes the class ids are the list's order. Else
// the classes seen in the look-ahead are sorted (numerically when every label
// is a number, "1" and "1.0" being one class named by its first spelling;
// else by bytes: elec8's DOWN = 0, UP = 1). A label first seen after the
// look-ahead is an error naming its row: learners fix n_classes at
// construction, so a stream that grows classes must list them (--classes).
//
// Guard rail: a classification target with more than max_classes distinct
// values in the look-ahead, more than half of its rows distinct, is an error
// naming the column (an id or a timestamp, or a real-valued regression
// target): it would otherwise build thousands of per-class models.
//
// Format, CSV (lenient RFC 4180, see src/stream/csv_tokenizer.hpp):
//   - Separator: TableOptions::separator, or guessed from the first line: the
//     most frequent of ',', ';', tab, '|' outside quotes (',' on a tie).
//   - A header row (names distinct) unless header = false; then the columns
//     are named c1, c2, ... The first skip_rows physical lines are ignored.
// Format, JSON lines: one flat object per line (src/stream/jsonl_object.hpp),
//   features by key. The columns are the keys of the look-ahead rows in order
//   of first appearance (or TableOptions::features); a key missing from a row
//   is a missing value; a key first seen after the look-ahead is ignored and
//   counted (ignored_keys()). The default target is the last key of the first
//   row.
// Common rules:
//   - The target column is TableOptions::target (default: the last column).
//     TableOptions::extra_targets adds further regression targets (multi-target:
//     Schema::target_names, Stream::next_multi); an unknown one is an error
//     naming it, a text cell in one is an error naming its row and column.
//     Features: TableOptions::features when given (in that order), else every
//     other column in file order; minus TableOptions::drop.
//   - Missing cells: empty, "?", "-", "NA", "N/A", "NaN", "null", "None",
//     "nil", spreadsheet errors ("#N/A", "#VALUE!", "#DIV/0!", "#REF!",
//     "#NUM!", "#NAME?", "#NULL!") (any case), non-finite literals ("inf",
//     "1e999", ...) and JSON lines' bare NaN, Infinity, -Infinity. A
//     missing feature is delivered as NaN. A missing target is an error unless
//     allow_missing_target (then y is NaN: the caller predicts the row and
//     does not learn it).
//   - A feature column is numeric if its first non-missing value parses as a
//     number, categorical otherwise or when listed in TableOptions::categorical.
//     A later non-number in a numeric column is an error. Categorical values
//     become ids 0, 1, 2, ... in order of first appearance, per column
//     (the dictionary is the reader's: the same input gives the same ids),
//     after the values TableOptions::known_categories seeds (a loaded model's
//     dictionary, so other files code the same values alike). The values met
//     so far are in Schema::category_values.
//     Schema::categorical_features lists the categorical feature columns
//     decided by the end of the look-ahead (listed ones, and those whose
//     first value there is not a number); a column with no value in the
//     look-ahead is decided later and not listed (name it in categorical).
//   - Number formats. A numeric column's cells may carry a decimal comma
//     ("3,14"), thousands separators ("1,234,567", "1.234,5", "1 234"), a
//     trailing '%' (read as hundredths: "12%" is 0.12) or a currency sign
//     or code before or after the number ("$1,200", "-4,56 EUR"). One
//     format per column is inferred from its look-ahead cells
//     (src/stream/number_format.hpp has the rules): a ',' decimal mark only
//     when the separator is not ',' or TableOptions::decimal names it. A
//     column is read this way only when every look-ahead value is a number
//     under the one format; column_notes() says how each such column was
//     read, and names a column left as text that another decimal mark
//     would have read as numbers. Features and targets alike.
//   - Task, when TableOptions::task is empty (from the look-ahead): a
//     non-numeric target means classification; a numeric target with only
//     integer values and at most 32 distinct values means classification;
//     anything else regression.
//
// Errors name the input, the 1-based physical line where the row starts and
// the 1-based column: "data.csv:17:3: expected 5 columns, found 4" (JSON
// lines: the byte column of a syntax error, else the key). Problems in the
// header and the look-ahead are returned by open_table_stream(); later rows'
// problems by next(), which then returns false with status() set. Not
// thread-safe (one reader per thread).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "irithyll/core/status.hpp"
#include "irithyll/stream/stream.hpp"

namespace irithyll {

enum class TableFormat : std::uint8_t { kCsv, kJsonLines };

struct TableOptions {
  TableFormat format = TableFormat::kCsv;
  std::string target;              // target column name; empty = last column
  // Further regression targets after `target` (multi-target streams): never
  // features, numeric, delivered by next_multi() in this order; the task is
  // then regression.
  std::vector<std::string> extra_targets;
  std::optional<Task> task;        // empty = infer (rules above)
  std::uint64_t skip_rows = 0;     // physical lines ignored before the header
  // A learner needs features, so one column is normally an error; a drift
  // monitor reads a single column of errors or losses and sets this.
  bool allow_target_only = false;
  char separator = 0;              // CSV; 0 = guess from the first line
  bool header = true;              // CSV; false = columns c1, c2, ...
  std::vector<std::string> features;     // empty = every column but the target
  std::vector<std::string> drop;         // never features
  std::vector<std::string> categorical;  // categorical even if numbers (names, or 0-based feature indices)
  // A model's category dictionaries (feature name, values in code order): such
  // a column is categorical, its listed values keep codes 0, 1, ... and
  // values not listed get the next codes. Names that are not feature columns
  // are ignored (the caller checks columns against the model).
  std::vector<std::pair<std::string, std::vector<std::string>>> known_categories;
  std::vector<std::string> classes;      // fixed class list; empty = infer
  std::size_t max_classes = 1000;        // guard rail (see above)
  std::uint64_t lookahead_rows = 10000;  // >= 1
  bool allow_missing_target = false;     // empty label -> y = NaN, not an error
  // No target at all (prediction): every column, or TableOptions::features, is
  // a feature; y is always NaN; the schema's task is regression.
  bool no_target = false;
  // A malformed row (a wrong number of fields, a bad JSON line, text in a
  // numeric column or the target, a class outside the fixed class set) is
  // counted and passed over instead of ending the stream with its error.
  // Errors of the input as a whole (the header, an unterminated quote,
  // unreadable bytes) still end it.
  bool skip_bad_rows = false;
  // The decimal mark of numeric cells: '.' or ','; 0 = inferred per column
  // (see "Number formats" above).
  char decimal = 0;
};

// Rows and bytes of look-ahead at most: memory stays bounded on any input.
inline constexpr std::uint64_t kMaxLookaheadBytes = std::uint64_t{64} << 20;
// On a live input (a pipe, FIFO or terminal) the look-ahead also ends once it
// holds a row and nothing arrives for this long: `tail -f log | irithyll eval`
// starts at once, while a file and a pipe fed at full speed read the same rows.
inline constexpr int kLiveLookaheadIdleMs = 500;

// The table reader behind the Stream interface, with what only it knows.
class TableStream : public Stream {
 public:
  // JSON lines: keys first seen after the look-ahead, dropped (0 for CSV).
  virtual std::uint64_t ignored_keys() const = 0;
  // The 1-based physical line where the last delivered row started (0 before
  // the first): lets callers name the row in their own errors.
  virtual std::uint64_t current_line() const = 0;
  // Share of a regular file read so far (0..1), for progress bars; empty
  // for pipes, standard input and strings.
  virtual std::optional<double> fraction_read() const = 0;
  // Rows passed over under TableOptions::skip_bad_rows, and the errors of the
  // first few (each names its line).
  virtual std::uint64_t skipped_rows() const { return 0; }
  virtual const std::vector<std::string>& skipped_examples() const {
    static const std::vector<std::string> kNone;
    return kNone;
  }
  // The per-column report, settled at open: how each column whose numbers
  // carry decorations is read ("data.csv: column 'price' read as numbers:
  // currency signs dropped, ..."), and warnings on columns that look like
  // ids, timestamps or free text. Empty when every column is plain.
  virtual const std::vector<std::string>& column_notes() const {
    static const std::vector<std::string> kNone;
    return kNone;
  }
};

// path "-" reads standard input; gzip input is recognised by its content.
Result<std::unique_ptr<TableStream>> open_table_stream(const std::string& path, const TableOptions& options = {});

// Same reader over text already in memory (tests, fuzzing); `name` stands in
// for the file name in error messages.
Result<std::unique_ptr<TableStream>> open_table_stream_from_string(std::string text, const TableOptions& options = {},
                                                                 std::string name = "<string>");

// A value the readers take as missing (the list above, any case).
bool is_missing_token(std::string_view text);

}  // namespace irithyll
