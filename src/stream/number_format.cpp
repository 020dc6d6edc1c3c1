#include "number_format.hpp"

#include <charconv>
#include <cstddef>
#include <limits>

namespace irithyll::detail {
namespace {

// Signs and ISO codes a cell may carry before or after its number (UTF-8),
// longest first where one is a prefix of another ("US$" before "$").
constexpr std::string_view kCurrencies[] = {
    "US$", "$", "\xE2\x82\xAC" /* euro */, "\xC2\xA3" /* pound */, "\xC2\xA5" /* yen */,
    "\xE2\x82\xB9" /* rupee */, "\xE2\x82\xA9" /* won */, "\xE2\x82\xBD" /* rouble */,
    "USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "CNY", "INR",
};
constexpr std::size_t kMaxNumberBytes = 64;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_mark(char c) { return c == ',' || c == '.' || c == ' ' || c == '\''; }

void trim(std::string_view& s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
}

bool take_sign(std::string_view& s, bool& negative, bool& signed_already) {
  if (signed_already || s.empty() || (s.front() != '-' && s.front() != '+')) return false;
  negative = s.front() == '-';
  signed_already = true;
  s.remove_prefix(1);
  return true;
}

bool take_currency_prefix(std::string_view& s) {
  for (const std::string_view c : kCurrencies)
    if (s.size() > c.size() && s.substr(0, c.size()) == c) {
      s.remove_prefix(c.size());
      trim(s);
      return true;
    }
  return false;
}

bool take_currency_suffix(std::string_view& s) {
  for (const std::string_view c : kCurrencies)
    if (s.size() > c.size() && s.substr(s.size() - c.size()) == c) {
      s.remove_suffix(c.size());
      trim(s);
      return true;
    }
  return false;
}

// A cell split into its decorations and the digits-and-marks core.
struct Parts {
  bool negative = false, percent = false, currency = false;
  std::string_view core;  // digits, marks, and an exponent at the end
};

bool split(std::string_view s, Parts& p) {
  trim(s);
  bool signed_already = false;
  take_sign(s, p.negative, signed_already);
  p.currency = take_currency_prefix(s);
  take_sign(s, p.negative, signed_already);  // "$-5" as well as "-$5"
  if (!s.empty() && s.back() == '%') {
    p.percent = true;
    s.remove_suffix(1);
    trim(s);
  } else if (!p.currency) {
    p.currency = take_currency_suffix(s);
  }
  if (s.empty() || (p.percent && p.currency)) return false;
  // The core starts with a digit, or a mark then a digit (".5", ",5").
  if (!is_digit(s[0]) && !(s.size() > 1 && (s[0] == '.' || s[0] == ',') && is_digit(s[1]))) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (is_digit(c) || is_mark(c)) continue;
    if (c != 'e' && c != 'E') return false;
    // The exponent: digits after an optional sign, to the end.
    std::size_t j = i + 1;
    if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
    if (j == s.size()) return false;
    for (; j < s.size(); ++j)
      if (!is_digit(s[j])) return false;
    break;
  }
  p.core = s;
  return true;
}

}  // namespace

bool parse_number(std::string_view cell, const NumberFormat& format, double& value) {
  Parts p;
  if (!split(cell, p)) return false;
  if ((p.percent && !format.percent) || (p.currency && !format.currency)) return false;
  char buf[kMaxNumberBytes];
  std::size_t n = 0;
  if (p.core.size() + 1 > kMaxNumberBytes) return false;
  if (p.negative) buf[n++] = '-';
  char group = 0;            // the group character this cell uses
  std::size_t run = 0;       // digits since the last group character (or the start)
  bool grouped = false, in_fraction = false, in_exponent = false;
  for (const char c : p.core) {
    if (is_digit(c)) {
      buf[n++] = c;
      ++run;
      continue;
    }
    if (in_exponent) {  // only its sign gets here (split checked the rest)
      buf[n++] = c;
      continue;
    }
    if (c == 'e' || c == 'E') {
      if (grouped) return false;  // "1,234e5" is no one's number
      in_exponent = true;
      buf[n++] = 'e';
      continue;
    }
    if (c == format.decimal) {
      if (in_fraction) return false;
      if (grouped && run != 3) return false;
      in_fraction = true;
      buf[n++] = '.';
      continue;
    }
    // A group character: not the decimal mark, before it, consistent, and
    // closing a group of 1-3 digits first, then of exactly 3.
    if (!format.grouped || in_fraction || (group != 0 && c != group)) return false;
    if (grouped ? run != 3 : (run < 1 || run > 3)) return false;
    group = c;
    grouped = true;
    run = 0;
  }
  if (grouped && !in_fraction && !in_exponent && run != 3) return false;
  const auto [ptr, ec] = std::from_chars(buf, buf + n, value);
  if (ptr != buf + n) return false;
  // Out of range ("1e999"): an infinity in all but name; the caller reads it as missing.
  if (ec == std::errc::result_out_of_range) value = std::numeric_limits<double>::infinity();
  else if (ec != std::errc()) return false;
  if (p.percent) value /= 100.0;
  return true;
}

bool NumberFormatGuess::add(std::string_view cell) {
  Parts p;
  if (!split(cell, p)) return false;
  percent_ = percent_ || p.percent;
  currency_ = currency_ || p.currency;
  std::string_view core = p.core;
  if (const std::size_t e = core.find_first_of("eE"); e != std::string_view::npos) core = core.substr(0, e);
  std::size_t commas = 0, dots = 0, last_comma = 0, last_dot = 0;
  for (std::size_t i = 0; i < core.size(); ++i) {
    if (core[i] == ',') ++commas, last_comma = i;
    else if (core[i] == '.') ++dots, last_dot = i;
    else if (core[i] == ' ' || core[i] == '\'') other_group_ = true;
  }
  auto digits_after = [&](std::size_t at) {
    std::size_t k = 0;
    for (std::size_t i = at + 1; i < core.size() && is_digit(core[i]); ++i) ++k;
    return k;
  };
  if (commas > 0 && dots > 0) {
    if (last_comma > last_dot) ++comma_decimal_, ++dot_group_;
    else ++dot_decimal_, ++comma_group_;
  } else if (commas > 1) {
    ++comma_group_;
  } else if (commas == 1) {
    ++(digits_after(last_comma) == 3 ? comma_ambiguous_ : comma_decimal_);
  } else if (dots > 1) {
    ++dot_group_;
  } else if (dots == 1) {
    ++(digits_after(last_dot) == 3 ? dot_ambiguous_ : dot_decimal_);
  }
  return true;
}

NumberFormat NumberFormatGuess::result() const {
  NumberFormat f;
  f.percent = percent_;
  f.currency = currency_;
  if (forced_ == '.' || forced_ == ',') {
    f.decimal = forced_;
  } else if (separator_ != ',') {
    const bool dots_decimal = dot_decimal_ > 0, commas_group = comma_group_ > 0;
    if (!dots_decimal && !commas_group && comma_decimal_ > 0) {
      f.decimal = ',';  // "3,14", "1.234,5"
    } else if (!dots_decimal && !commas_group && dot_group_ > 0) {
      f.decimal = ',';  // "1.234.567"
    } else if (!dots_decimal && !commas_group && dot_ambiguous_ == 0 && comma_ambiguous_ > 0) {
      f.decimal = ',';  // only "1,234"-like cells: the convention of ';' and tab files
      f.decimal_guessed = true;
    }
  }
  f.grouped = other_group_ ||
              (f.decimal == '.' ? comma_group_ + comma_ambiguous_ + comma_decimal_ > 0
                                : dot_group_ + dot_ambiguous_ + dot_decimal_ > 0);
  return f;
}

std::string describe_number_format(const NumberFormat& format) {
  std::string out;
  auto add = [&](std::string_view part) {
    if (!out.empty()) out += ", ";
    out += part;
  };
  if (format.decimal == ',')
    add(format.decimal_guessed ? "',' as the decimal mark (every value had 3 digits after its comma: give "
                                 "--decimal . if it separates thousands)"
                               : "',' as the decimal mark");
  if (format.grouped) add(format.decimal == ',' ? "thousands separators ('.', ' ', ''') dropped"
                                               : "thousands separators (',', ' ', ''') dropped");
  if (format.percent) add("'%' read as hundredths (12% = 0.12)");
  if (format.currency) add("currency signs dropped");
  return out;
}

}  // namespace irithyll::detail
