// EntryId: stream ids "<ms>-<seq>" (a bare "<ms>" means seq 0, as Redis reads
// it); the polling default of LogSource::wait_for_entries; the copying
// default of LogSink::append_borrowed.
#include "serve/log.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <thread>

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

Result<bool> LogSource::wait_for_entries(std::span<const std::string> /*streams*/, std::string_view /*group*/,
                                         int timeout_ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(std::clamp(timeout_ms, 1, 2)));
  return true;
}

void LogSink::append_borrowed(std::string_view stream, std::span<const FieldView> fields) {
  Fields owned;
  owned.reserve(fields.size());
  for (const auto& [k, v] : fields) owned.emplace_back(std::string(k), std::string(v));
  append(stream, owned);
}

std::string EntryId::to_string() const { return std::to_string(ms) + "-" + std::to_string(seq); }

}  // namespace irithyll::serve
