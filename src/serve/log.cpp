// EntryId: stream ids "<ms>-<seq>" (a bare "<ms>" means seq 0, as Redis reads it).
#include "irithyll/serve/log.hpp"

#include <charconv>

namespace irithyll::serve {

std::optional<EntryId> EntryId::parse(std::string_view text) {
  const std::size_t dash = text.find('-');
  EntryId id;
  const std::string_view ms = text.substr(0, dash);
  auto r = std::from_chars(ms.data(), ms.data() + ms.size(), id.ms);
  if (ms.empty() || r.ec != std::errc() || r.ptr != ms.data() + ms.size()) return std::nullopt;
  if (dash != std::string_view::npos) {
    const std::string_view seq = text.substr(dash + 1);
    r = std::from_chars(seq.data(), seq.data() + seq.size(), id.seq);
    if (seq.empty() || r.ec != std::errc() || r.ptr != seq.data() + seq.size()) return std::nullopt;
  }
  return id;
}

std::string EntryId::to_string() const { return std::to_string(ms) + "-" + std::to_string(seq); }

}  // namespace irithyll::serve
