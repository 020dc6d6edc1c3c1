#include "jsonl_object.hpp"

#include <cstdint>

namespace irithyll::detail {
namespace {

void skip_space(std::string_view s, std::size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool read_hex4(std::string_view s, std::size_t i, std::uint32_t& out) {
  if (i + 4 > s.size()) return false;
  out = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    const int d = hex_digit(s[i + k]);
    if (d < 0) return false;
    out = out * 16 + static_cast<std::uint32_t>(d);
  }
  return true;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

bool JsonObjectParser::fail(std::size_t at, std::string why) {
  error_ = std::move(why);
  error_column_ = at + 1;
  return false;
}

bool JsonObjectParser::string_at(std::string_view s, std::size_t& i) {
  const std::size_t start = i;
  ++i;  // opening quote
  for (;;) {
    if (i >= s.size()) return fail(start, "unterminated string");
    const char c = s[i];
    if (c == '"') {
      ++i;
      return true;
    }
    if (static_cast<unsigned char>(c) < 0x20) return fail(i, "control character in a string");
    if (c != '\\') {
      buf_.push_back(c);
      ++i;
      continue;
    }
    if (i + 1 >= s.size()) return fail(start, "unterminated string");
    const char e = s[i + 1];
    i += 2;
    switch (e) {
      case '"': buf_.push_back('"'); break;
      case '\\': buf_.push_back('\\'); break;
      case '/': buf_.push_back('/'); break;
      case 'b': buf_.push_back('\b'); break;
      case 'f': buf_.push_back('\f'); break;
      case 'n': buf_.push_back('\n'); break;
      case 'r': buf_.push_back('\r'); break;
      case 't': buf_.push_back('\t'); break;
      case 'u': {
        std::uint32_t cp = 0;
        if (!read_hex4(s, i, cp)) return fail(i, "bad \\u escape");
        i += 4;
        if (cp >= 0xD800 && cp < 0xDC00) {  // high surrogate: a low one must follow
          std::uint32_t lo = 0;
          if (i + 1 < s.size() && s[i] == '\\' && s[i + 1] == 'u' && read_hex4(s, i + 2, lo) && lo >= 0xDC00 &&
              lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
          } else {
            cp = 0xFFFD;  // unpaired: the replacement character, as lenient readers do
          }
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          cp = 0xFFFD;
        }
        append_utf8(buf_, cp);
        break;
      }
      default: return fail(i - 1, std::string("bad escape '\\") + e + "'");
    }
  }
}

bool JsonObjectParser::scalar_at(std::string_view s, std::size_t& i) {
  if (i >= s.size()) return fail(i, "missing value");
  const char c = s[i];
  if (c == '"') return string_at(s, i);
  if (c == '{' || c == '[') return fail(i, "nested objects and arrays are not supported (one flat object per line)");
  // NaN, Infinity and -Infinity are not JSON, but Python's json.dumps (and
  // others) write them: read as missing, like null.
  for (const std::string_view word : {std::string_view("true"), std::string_view("false"), std::string_view("null"),
                                      std::string_view("NaN"), std::string_view("Infinity"),
                                      std::string_view("-Infinity")}) {
    if (s.substr(i, word.size()) == word) {
      if (word == "true" || word == "false") buf_.append(word);
      i += word.size();
      return true;
    }
  }
  // A number: its text is kept and parsed later like a CSV cell.
  const std::size_t begin = i;
  while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '+' || s[i] == '.' || s[i] == 'e' ||
                          s[i] == 'E'))
    ++i;
  if (i == begin) return fail(i, "expected a value");
  buf_.append(s.substr(begin, i - begin));
  return true;
}

bool JsonObjectParser::parse(std::string_view s, std::vector<JsonField>& fields) {
  fields.clear();
  buf_.clear();
  bounds_.clear();
  error_.clear();
  std::size_t i = 0;
  skip_space(s, i);
  if (i >= s.size() || s[i] != '{') return fail(i, "expected '{' (one JSON object per line)");
  ++i;
  skip_space(s, i);
  if (i < s.size() && s[i] == '}') {
    ++i;
  } else {
    for (;;) {
      skip_space(s, i);
      if (i >= s.size() || s[i] != '"') return fail(i, "expected a quoted key");
      bounds_.push_back(buf_.size());
      if (!string_at(s, i)) return false;
      bounds_.push_back(buf_.size());
      skip_space(s, i);
      if (i >= s.size() || s[i] != ':') return fail(i, "expected ':'");
      ++i;
      skip_space(s, i);
      bounds_.push_back(buf_.size());
      if (!scalar_at(s, i)) return false;
      bounds_.push_back(buf_.size());
      skip_space(s, i);
      if (i < s.size() && s[i] == ',') {
        ++i;
        continue;
      }
      if (i < s.size() && s[i] == '}') {
        ++i;
        break;
      }
      return fail(i, "expected ',' or '}'");
    }
  }
  skip_space(s, i);
  if (i != s.size()) return fail(i, "text after the object");
  for (std::size_t k = 0; k < bounds_.size(); k += 4) {
    const std::string_view key(buf_.data() + bounds_[k], bounds_[k + 1] - bounds_[k]);
    const std::string_view value(buf_.data() + bounds_[k + 2], bounds_[k + 3] - bounds_[k + 2]);
    fields.push_back({key, value});
  }
  return true;
}

}  // namespace irithyll::detail
