// Internal: one line of a JSON-lines file as flat (key, value text) pairs.
//
// A line must hold one JSON object (RFC 8259) whose values are scalars:
// numbers keep their text (the table reader parses them like CSV cells),
// strings are unescaped (\uXXXX and surrogate pairs to UTF-8), true/false
// become the text "true"/"false", null becomes "" (missing). Nested objects
// and arrays are an error: a row is a flat record of features. Keys come back
// in line order, duplicates included (the reader lets the last one win).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace irithyll::detail {

struct JsonField {
  std::string_view key;
  std::string_view value;
};

class JsonObjectParser {
 public:
  // false on a syntax error; then error() says why and error_column() where
  // (1-based byte). The views stay valid until the next call.
  bool parse(std::string_view line, std::vector<JsonField>& fields);
  const std::string& error() const { return error_; }
  std::size_t error_column() const { return error_column_; }

 private:
  bool fail(std::size_t at, std::string why);
  bool string_at(std::string_view line, std::size_t& i);  // appends to buf_
  bool scalar_at(std::string_view line, std::size_t& i);  // appends to buf_

  std::string buf_;
  std::vector<std::size_t> bounds_;  // key begin/end, value begin/end per field
  std::string error_;
  std::size_t error_column_ = 0;
};

}  // namespace irithyll::detail
