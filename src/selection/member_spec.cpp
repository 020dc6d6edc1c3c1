#include <string>
#include <vector>

#include "irithyll/selection/member_factory.hpp"

namespace irithyll {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

Result<MemberSpec> parse_member_spec(std::string_view text) {
  text = trim(text);
  MemberSpec m;
  m.label = std::string(text);
  const std::size_t colon = text.find(':');
  m.name = std::string(trim(text.substr(0, colon)));
  if (m.name.empty()) return Status::invalid_argument("model entry '" + std::string(text) + "': no model name");
  for (const char c : m.name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      return Status::invalid_argument("model entry '" + std::string(text) + "': '" + m.name +
                                      "' is not a model name (lower-case letters, digits, '_')");
  if (colon == std::string_view::npos) return m;
  for (std::string_view kv : split_list_items(text.substr(colon + 1), ',')) {
    kv = trim(kv);
    const std::size_t eq = kv.find('=');
    if (eq == std::string_view::npos || eq == 0)
      return Status::invalid_argument("model entry '" + std::string(text) + "': expected key=value, got '" +
                                      std::string(kv) + "'");
    m.settings.set(std::string(trim(kv.substr(0, eq))), std::string(trim(kv.substr(eq + 1))));
  }
  return m;
}

Result<std::vector<MemberSpec>> parse_member_specs(std::string_view text) {
  std::vector<MemberSpec> out;
  for (std::string_view item : split_list_items(text, ';')) {
    if (trim(item).empty())
      return Status::invalid_argument("model list '" + std::string(text) + "': an empty entry");
    auto m = parse_member_spec(item);
    if (!m) return m.status();
    out.push_back(std::move(m).value());
  }
  return out;
}

}  // namespace irithyll
