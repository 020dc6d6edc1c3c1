// Internal: numbers as spreadsheets and locales write them in table cells.
//
// A column's cells may carry a decimal comma ("3,14"), thousands separators
// ("1,234,567", "1.234.567,89", "1 234", "1'234"), a percent sign ("12.3%",
// read as 0.123) or a currency sign before or after the number ("$4.56",
// "-$1,200", "4,56 €", "EUR 12"). One NumberFormat per column says which of
// these its cells use; infer_number_format picks it from the look-ahead's
// cells, so that one column is read one way throughout.
//
// Deciding the decimal mark. Each cell with separators gives evidence:
//   both ',' and '.'         the later one is the decimal mark ("1.234,5")
//   one mark twice or more   that mark groups thousands ("1,234,567")
//   one mark once, followed by other than 3 digits   it is the decimal mark ("3,14")
//   one mark once, followed by exactly 3 digits      ambiguous ("1,234")
// A ',' decimal mark is inferred only when the CSV separator is not ','
// (there a comma inside a quoted number can only group thousands); the
// caller may also force the mark (--decimal). A column whose only evidence
// is ambiguous commas reads them as the decimal mark when the separator is
// not ',' (the convention of files written with ';' or tabs), and says so in
// its description. Grouping is checked: 1 to 3 digits, then groups of exactly
// 3, one group character per cell, before the decimal mark only; anything
// else is not a number under the format.
//
// Cost: one pass over the cell, no allocation (cells longer than 64 bytes
// are not numbers under a decorated format). Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace irithyll::detail {

struct NumberFormat {
  char decimal = '.';           // the decimal mark: '.' or ','
  bool grouped = false;         // cells may group thousands (by ',', '.', ' ' or '\'', not the decimal mark)
  bool percent = false;         // cells may end in '%' (value / 100)
  bool currency = false;        // cells may carry a currency sign or code before or after the number
  bool decimal_guessed = false; // ',' chosen on ambiguous cells only ("1,234" in a ';' file)
  // Plain numbers only: what std::from_chars reads.
  bool plain() const { return decimal == '.' && !grouped && !percent && !currency; }
};

// The value of `cell` under `format`; false when it is not a number under
// it (missing tokens included: the caller tests those first). Non-finite
// results ("1e999") are returned as they are; the caller decides.
bool parse_number(std::string_view cell, const NumberFormat& format, double& value);

// Evidence gathered over one column's cells, then the format it supports.
class NumberFormatGuess {
 public:
  // separator: the CSV separator (0 for JSON lines); forced_decimal: '.' or
  // ',' when the user named the mark, else 0.
  NumberFormatGuess(char separator, char forced_decimal) : separator_(separator), forced_(forced_decimal) {}
  // A non-missing cell of the column. Returns false when the cell cannot be
  // a number under any format (the column is text).
  bool add(std::string_view cell);
  // The format the evidence supports. The caller then checks every cell
  // with parse_number: a cell that fails means the column is not numeric.
  NumberFormat result() const;

 private:
  char separator_, forced_;
  std::uint64_t comma_decimal_ = 0, comma_group_ = 0, comma_ambiguous_ = 0;
  std::uint64_t dot_decimal_ = 0, dot_group_ = 0, dot_ambiguous_ = 0;
  bool percent_ = false, currency_ = false, other_group_ = false;
};

// What the format reads beyond plain numbers, for the per-column report:
// "',' decimal mark, '.' thousands separators, '%' read as /100". Empty
// for plain().
std::string describe_number_format(const NumberFormat& format);

}  // namespace irithyll::detail
