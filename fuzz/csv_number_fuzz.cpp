// libFuzzer target for decorated numbers (decimal commas, thousands
// separators, '%', currency) in table cells: the cell parser and the
// per-column format guess on any bytes, then the table reader with the
// separators and decimal marks the CLI can set. Nothing may crash, hang or
// read out of bounds; a cell read as a number is never NaN; the inline
// decimal reader agrees bit for bit with std::from_chars on every cell it
// accepts; the guessed format reads a column only when it reads every cell
// of it; a stream that opens delivers finite regression targets and class
// ids in range.
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/stream/table_stream.hpp"
#include "stream/fast_double.hpp"
#include "stream/number_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t mode = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const char separator = (mode & 1) ? ';' : ',';
  const char decimal = (mode & 2) ? ((mode & 4) ? ',' : '.') : 0;

  // Cells: the text split at line breaks, one column.
  irithyll::detail::NumberFormatGuess guess(separator, decimal);
  std::vector<std::string_view> cells;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    cells.push_back(text.substr(start, end - start));
    guess.add(cells.back());
    start = end + 1;
  }
  const irithyll::detail::NumberFormat format = guess.result();
  if (format.decimal != '.' && format.decimal != ',') std::abort();
  (void)irithyll::detail::describe_number_format(format);
  irithyll::detail::NumberFormat any = format;
  any.grouped = any.percent = any.currency = true;
  for (const std::string_view cell : cells) {
    double fast = 0.0, lib = 0.0;
    if (irithyll::detail::parse_short_decimal(cell.data(), cell.data() + cell.size(), fast)) {
      const auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), lib);
      if (ptr != cell.data() + cell.size() || ec != std::errc() || std::memcmp(&fast, &lib, sizeof fast) != 0)
        std::abort();
    }
    double v = 0.0;
    if (irithyll::detail::parse_number(cell, format, v) && std::isnan(v)) std::abort();
    // A more permissive format reads whatever a stricter one does, alike.
    double w = 0.0;
    const bool strict = irithyll::detail::parse_number(cell, format, v);
    const bool loose = irithyll::detail::parse_number(cell, any, w);
    if (strict && (!loose || (v != w && !(std::isinf(v) && std::isinf(w))))) std::abort();
  }

  // The same bytes as a table.
  irithyll::TableOptions options;
  options.separator = separator;
  options.decimal = decimal;
  if (mode & 8) options.lookahead_rows = 2;
  if (mode & 16) options.task = irithyll::Task::kRegression;
  if (mode & 32) options.skip_bad_rows = true;
  if (mode & 64) options.format = irithyll::TableFormat::kJsonLines;
  auto opened = irithyll::open_table_stream_from_string(std::string(text), options, "fuzz.csv");
  if (!opened.is_ok()) return 0;
  irithyll::Stream& s = **opened;
  const irithyll::Schema& schema = s.schema();
  std::vector<double> x(schema.n_features());
  double y = 0.0;
  while (s.next(x, y)) {
    if (schema.task == irithyll::Task::kClassification) {
      if (!(y >= 0.0 && y < static_cast<double>(schema.n_classes()))) std::abort();
    } else if (!std::isfinite(y)) {
      std::abort();
    }
  }
  return 0;
}
