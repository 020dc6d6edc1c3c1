// Pieces shared by the tree dumps (tree_dump.cpp, vfdt_dump.cpp): numbers
// short and round-trippable enough to read, feature names with an x<i>
// fallback, dot string literals.
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

namespace irithyll::dump {

inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

inline std::string feature_name(std::uint32_t f, std::span<const std::string> names) {
  return f < names.size() && !names[f].empty() ? names[f] : "x" + std::to_string(f);
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
