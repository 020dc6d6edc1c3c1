// Message schema and routing: see message.hpp.
#include "serve/message.hpp"

#include <charconv>
#include <cmath>
#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace irithyll::serve {
namespace {

const std::string* find_field(const Fields& fields, std::string_view name) {
  for (const auto& [k, v] : fields)
    if (k == name) return &v;
  return nullptr;
}

// The whole text must be one number ("1abc" is refused). from_chars reads
// in place (no allocation per cell) and rounds exactly like strtod.
std::optional<double> to_number(std::string_view text) {
  std::size_t a = 0, b = text.size();
  while (a < b && (text[a] == ' ' || text[a] == '\t')) ++a;
  while (b > a && (text[b - 1] == ' ' || text[b - 1] == '\t')) --b;
  if (a < b && text[a] == '+') ++a;  // strtod's optional plus sign
  if (a == b) return std::nullopt;
  double v = 0.0;
  const auto r = std::from_chars(text.data() + a, text.data() + b, v);
  if (r.ec == std::errc::result_out_of_range) {
    // Overflow or underflow: strtod's result (±inf, or a denormal/zero).
    const std::string cell(text.substr(a, b - a));
    return std::strtod(cell.c_str(), nullptr);
  }
  if (r.ec != std::errc() || r.ptr != text.data() + b) return std::nullopt;
  return v;
}

// Length of the valid UTF-8 sequence of a printable character at text[i]
// (0: not one). Refuses overlong forms, surrogates and code points past
// U+10FFFF, and C0/C1 control characters.
std::size_t printable_run(std::string_view text, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = b(i);
  if (c >= 0x20 && c < 0x7f) return c == '\\' ? 0 : 1;
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
    cp = c & 0x1fu;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    cp = c & 0x0fu;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    cp = c & 0x07u;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xc0u) != 0x80u) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3fu);
  }
  const std::uint32_t min_cp = n == 2 ? 0x80u : n == 3 ? 0x800u : 0x10000u;
  if (cp < min_cp || cp > 0x10ffffu || (cp >= 0xd800u && cp <= 0xdfffu)) return 0;
  if (cp >= 0x80u && cp < 0xa0u) return 0;  // C1 controls
  return n;
}

Status bad(std::string why) { return Status::invalid_argument(std::move(why)); }

Result<double> parse_label(const std::string& text, const MessageShape& shape) {
  const auto y = to_number(text);
  if (!y) return bad("y is not a number: '" + printable(text) + "'");
  if (!std::isfinite(*y)) return bad("y is not finite: '" + printable(text) + "'");
  if (shape.task == Task::kClassification) {
    if (*y != std::floor(*y) || *y < 0 || *y >= static_cast<double>(shape.n_classes))
      return bad("y = " + printable(text) + " is not a class index in [0, " + std::to_string(shape.n_classes) + ")");
  }
  return *y;
}

}  // namespace

std::string printable(std::string_view text, std::size_t max_bytes) {
  const std::string_view shown = text.substr(0, std::min(text.size(), max_bytes));
  std::string out;
  out.reserve(shown.size() + 16);
  for (std::size_t i = 0; i < shown.size();) {
    const std::size_t n = printable_run(shown, i);
    if (n > 0) {
      out.append(shown.substr(i, n));
      i += n;
      continue;
    }
    static constexpr char kHex[] = "0123456789abcdef";
    const auto c = static_cast<unsigned char>(shown[i++]);
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 0xfu];
  }
  if (text.size() > shown.size()) out += "...(" + std::to_string(text.size() - shown.size()) + " more bytes)";
  return out;
}

Result<Message> parse_message(const Fields& fields, const MessageShape& shape) {
  Message m;
  const std::string* key = find_field(fields, "key");
  if (key == nullptr) return bad("missing field 'key'");
  m.key = *key;
  if (const std::string* label_for = find_field(fields, "label_for")) {
    m.is_label = true;
    m.id = *label_for;
    const std::string* y = find_field(fields, "y");
    if (y == nullptr) return bad("label message without field 'y'");
    auto v = parse_label(*y, shape);
    if (!v) return v.status();
    m.y = *v;
    return m;
  }
  const std::string* id = find_field(fields, "id");
  if (id == nullptr) return bad("missing field 'id'");
  m.id = *id;
  m.x.reserve(shape.n_features);
  if (const std::string* x = find_field(fields, "x")) {
    std::size_t start = 0;
    while (start <= x->size()) {
      std::size_t end = x->find(',', start);
      if (end == std::string::npos) end = x->size();
      const std::string_view cell(x->data() + start, end - start);
      const auto v = to_number(cell);
      if (!v) return bad("x[" + std::to_string(m.x.size()) + "] is not a number: '" + printable(cell) + "'");
      if (m.x.size() == shape.n_features)
        return bad("x has more than " + std::to_string(shape.n_features) + " values, the model takes " +
                   std::to_string(shape.n_features));
      m.x.push_back(*v);
      start = end + 1;
    }
  } else {
    for (const auto& [k, v] : fields) {
      if (k.rfind("f_", 0) != 0) continue;
      const auto n = to_number(v);
      if (!n) return bad("feature " + printable(k) + " is not a number: '" + printable(v) + "'");
      if (m.x.size() == shape.n_features)
        return bad("more than " + std::to_string(shape.n_features) + " f_ fields, the model takes " +
                   std::to_string(shape.n_features));
      m.x.push_back(*n);
    }
    if (m.x.empty()) return bad("missing features: no field 'x' and no f_<name> fields");
  }
  if (m.x.size() != shape.n_features)
    return bad("x has " + std::to_string(m.x.size()) + " values, the model takes " + std::to_string(shape.n_features));
  if (const std::string* y = find_field(fields, "y")) {
    auto v = parse_label(*y, shape);
    if (!v) return v.status();
    m.y = *v;
  }
  return m;
}

std::uint64_t key_hash(std::string_view key) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : key) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::uint32_t partition_of(std::string_view key, std::uint32_t partitions) {
  return partitions == 0 ? 0 : static_cast<std::uint32_t>(key_hash(key) % partitions);
}

// The shortest text that reads back as the same double (to_chars' round-trip
// guarantee): what %.17g promised, in fewer bytes and without printf's
// multi-precision digit loop, which was 8% of a worker's CPU.
std::string_view format_number(double v, NumberText& buf) {
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return {buf.data(), static_cast<std::size_t>(r.ptr - buf.data())};
}

std::string format_number(double v) {
  NumberText buf;
  return std::string(format_number(v, buf));
}

Fields sample_fields(std::string_view id, std::string_view key, std::span<const double> x, std::optional<double> y) {
  std::string xs;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i > 0) xs += ',';
    xs += format_number(x[i]);
  }
  Fields f{{"id", std::string(id)}, {"key", std::string(key)}, {"x", std::move(xs)}};
  if (y) f.emplace_back("y", format_number(*y));
  return f;
}

Fields label_fields(std::string_view key, std::string_view sample_id, double y) {
  return Fields{{"key", std::string(key)}, {"label_for", std::string(sample_id)}, {"y", format_number(y)}};
}

}  // namespace irithyll::serve
