// Pieces shared by the tree dumps (tree_dump.cpp, vfdt_dump.cpp): numbers
// short and round-trippable enough to read, feature and category names with
// x<i> and code fallbacks, dot string literals.
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace irithyll::dump {

inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

inline std::string feature_name(std::uint32_t f, std::span<const std::string> names) {
  return f < names.size() && !names[f].empty() ? names[f] : "x" + std::to_string(f);
}

// A category code by its value's name (per feature, names in code order),
// or by the code itself when no name is known.
inline std::string category_name(std::uint32_t f, std::size_t code, std::span<const std::vector<std::string>> names) {
  return f < names.size() && code < names[f].size() ? names[f][code] : std::to_string(code);
}

// Dot string literal: quotes and backslashes escaped.
inline std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

}  // namespace irithyll::dump
