#include "irithyll/core/config_fields.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace irithyll {

namespace {

std::string quote(std::string_view v) { return "'" + std::string(v) + "'"; }

bool in_interval(const FieldInfo& f, double v) {
  if (f.lo_open ? !(v > f.lo) : !(v >= f.lo)) return false;
  if (f.hi_open ? !(v < f.hi) : !(v <= f.hi)) return false;
  return true;
}

// Integer rows print their bounds as integers (1000000000000, not 1e+12).
std::string bound_text(const FieldInfo& f, double v) {
  if (f.type == FieldType::kInt && std::abs(v) < 9.0e18) return std::to_string(static_cast<long long>(v));
  return format_field_real(v);
}

std::string interval_text(const FieldInfo& f) {
  const bool has_lo = std::isfinite(f.lo), has_hi = std::isfinite(f.hi);
  if (has_lo && has_hi)
    return std::string(f.lo_open ? "(" : "[") + bound_text(f, f.lo) + ", " + bound_text(f, f.hi) +
           (f.hi_open ? ")" : "]");
  if (has_lo) return std::string(f.lo_open ? "> " : ">= ") + bound_text(f, f.lo);
  if (has_hi) return std::string(f.hi_open ? "< " : "<= ") + bound_text(f, f.hi);
  return "any finite number";
}

}  // namespace

bool in_choices(std::string_view choices, std::string_view v) {
  for (std::string_view choice : split_list_items(choices, '|'))
    if (choice == v) return true;
  return false;
}

std::string_view field_type_name(FieldType type) {
  switch (type) {
    case FieldType::kInt: return "int";
    case FieldType::kReal: return "real";
    case FieldType::kBool: return "bool";
    case FieldType::kChoice: return "choice";
    case FieldType::kText: return "text";
  }
  return "?";
}

std::string FieldInfo::python_name() const {
  std::string s(name);
  for (char& c : s)
    if (c == '-') c = '_';
  return s;
}

std::string FieldInfo::range_text() const {
  switch (type) {
    case FieldType::kInt:
    case FieldType::kReal: {
      const std::string interval = interval_text(*this);
      return zero_is_off ? "0 (off) or " + interval : interval;
    }
    case FieldType::kBool: return "on|off";
    case FieldType::kChoice: return std::string(choices);
    case FieldType::kText: return "text";
  }
  return "";
}

bool field_name_matches(const FieldInfo& field, std::string_view name) {
  auto same = [](std::string_view a, std::string_view b) {
    if (a.size() != b.size() || a.empty()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const char x = a[i] == '_' ? '-' : a[i], y = b[i] == '_' ? '-' : b[i];
      if (x != y) return false;
    }
    return true;
  };
  return same(field.name, name) || same(field.alias, name);
}

std::vector<std::string_view> split_list_items(std::string_view text, char separator) {
  std::vector<std::string_view> items;
  while (!text.empty()) {
    const std::size_t at = text.find(separator);
    items.push_back(text.substr(0, at));
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + 1);
  }
  return items;
}

Result<std::vector<std::uint32_t>> parse_index_list(std::string_view name, std::string_view text) {
  std::vector<std::uint32_t> out;
  for (std::string_view item : split_list_items(text, ',')) {
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    std::uint32_t f = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), f);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || f >= (1u << 24))
      return Status::invalid_argument(std::string(name) + ": '" + std::string(item) +
                                      "' is not a feature index (a list like 0,3,7)");
    out.push_back(f);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string format_index_list(std::span<const std::uint32_t> items) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i ? "," : "") + std::to_string(items[i]);
  return s;
}

std::string format_field_real(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

Result<double> parse_field_real(std::string_view name, std::string_view value) {
  double v = 0.0;
  const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || r.ec != std::errc() || r.ptr != value.data() + value.size() || !std::isfinite(v))
    return Status::invalid_argument(std::string(name) + " = " + quote(value) + " is not a finite number");
  return v;
}

Result<std::uint64_t> parse_field_uint(std::string_view name, std::string_view value) {
  std::string_view digits = value;
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  std::uint64_t v = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
  if (digits.empty() || r.ec != std::errc() || r.ptr != digits.data() + digits.size())
    return Status::invalid_argument(std::string(name) + " = " + quote(value) + " is not a non-negative integer");
  return v;
}

Result<std::int64_t> parse_field_int(std::string_view name, std::string_view value) {
  if (!value.empty() && value[0] == '-') {
    std::int64_t v = 0;
    const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
    if (r.ec != std::errc() || r.ptr != value.data() + value.size())
      return Status::invalid_argument(std::string(name) + " = " + quote(value) + " is not an integer");
    return v;
  }
  auto u = parse_field_uint(name, value);
  if (!u) return u.status();
  if (*u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return Status::invalid_argument(std::string(name) + " = " + quote(value) + " is too large");
  return static_cast<std::int64_t>(*u);
}

Result<bool> parse_field_bool(std::string_view name, std::string_view value) {
  if (value == "on" || value == "true" || value == "1" || value == "yes") return true;
  if (value == "off" || value == "false" || value == "0" || value == "no") return false;
  return Status::invalid_argument(std::string(name) + " = " + quote(value) + " is not on|off");
}

Status check_field(const FieldInfo& f, std::string_view value) {
  double v = 0.0;
  switch (f.type) {
    case FieldType::kBool: {
      auto b = parse_field_bool(f.name, value);
      return b ? Status::ok() : b.status();
    }
    case FieldType::kChoice:
      if (in_choices(f.choices, value)) return Status::ok();
      return Status::invalid_argument(std::string(f.name) + " = " + quote(value) + " is not one of " +
                                      std::string(f.choices));
    case FieldType::kText: return Status::ok();
    case FieldType::kInt: {
      auto i = parse_field_int(f.name, value);
      if (!i) return i.status();
      v = static_cast<double>(*i);
      break;
    }
    case FieldType::kReal: {
      auto r = parse_field_real(f.name, value);
      if (!r) return r.status();
      v = *r;
      break;
    }
  }
  if (f.zero_is_off && v == 0.0) return Status::ok();
  if (in_interval(f, v)) return Status::ok();
  const bool bounded = std::isfinite(f.lo) && std::isfinite(f.hi);
  return Status::invalid_argument(std::string(f.name) + " = " + std::string(value) + " is out of range: must be " +
                                  (f.zero_is_off ? "0 (off) or " : "") + (bounded ? "in " : "") + interval_text(f));
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  out += '"';
}

namespace {
void append_json_bound(std::string& out, double v) {
  if (std::isfinite(v)) out += format_field_real(v);
  else out += "null";  // an unbounded end
}
}  // namespace

void append_field_json(std::string& out, const FieldInfo& f) {
  out += "{\"name\":";
  append_json_string(out, f.name);
  out += ",\"python_name\":";
  append_json_string(out, f.python_name());
  out += ",\"type\":";
  append_json_string(out, field_type_name(f.type));
  out += ",\"default\":";
  append_json_string(out, f.default_value);
  if (f.type == FieldType::kInt || f.type == FieldType::kReal) {
    out += ",\"min\":";
    append_json_bound(out, f.lo);
    out += ",\"max\":";
    append_json_bound(out, f.hi);
    out += std::string(",\"min_open\":") + (f.lo_open ? "true" : "false");
    out += std::string(",\"max_open\":") + (f.hi_open ? "true" : "false");
    out += std::string(",\"zero_is_off\":") + (f.zero_is_off ? "true" : "false");
  }
  if (f.type == FieldType::kChoice) {
    out += ",\"choices\":[";
    bool first_choice = true;
    for (std::string_view choice : split_list_items(f.choices, '|')) {
      if (!first_choice) out += ',';
      first_choice = false;
      append_json_string(out, choice);
    }
    out += ']';
  }
  out += ",\"range\":";
  append_json_string(out, f.range_text());
  out += ",\"help\":";
  append_json_string(out, f.help);
  out += '}';
}

void append_parameters_json(std::string& out, std::span<const FieldInfo> fields) {
  out += "\"parameters\":[";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    append_field_json(out, fields[i]);
  }
  out += ']';
}

}  // namespace irithyll
