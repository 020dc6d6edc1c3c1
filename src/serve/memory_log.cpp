// MemoryLog: see memory_log.hpp. Entry n (0-based) of a stream has id
// "<n+1>-0", so an id maps back to its index without a search.
#include "serve/memory_log.hpp"

#include <algorithm>

namespace irithyll::serve {

Status MemoryLog::create_group(std::string_view stream, std::string_view group) {
  std::lock_guard lock(mu_);
  auto it = streams_.find(stream);
  if (it == streams_.end()) it = streams_.emplace(std::string(stream), Stream{}).first;
  if (it->second.groups.find(group) == it->second.groups.end()) it->second.groups.emplace(std::string(group), Group{});
  return Status::ok();
}

Result<std::vector<LogEntry>> MemoryLog::read_group(std::string_view stream, std::string_view group,
                                                    std::string_view consumer, std::string_view start,
                                                    std::size_t count, int /*block_ms*/) {
  std::lock_guard lock(mu_);
  return read_locked(stream, group, consumer, start, count);
}

Result<std::optional<std::vector<LogEntry>>> MemoryLog::read_owned(std::string_view lease_key, std::string_view token,
                                                                   std::string_view stream, std::string_view group,
                                                                   std::string_view consumer, std::string_view start,
                                                                   std::size_t count) {
  std::lock_guard lock(mu_);
  if (!holds(lease_key, token, Clock::now())) return std::optional<std::vector<LogEntry>>{};
  auto r = read_locked(stream, group, consumer, start, count);
  if (!r) return r.status();
  return std::optional<std::vector<LogEntry>>{std::move(*r)};
}

// REQUIRES: mu_ held.
Result<std::vector<LogEntry>> MemoryLog::read_locked(std::string_view stream, std::string_view group,
                                                     std::string_view consumer, std::string_view start,
                                                     std::size_t count) {
  auto s = streams_.find(stream);
  if (s == streams_.end()) return Status::invalid_argument("no stream '" + std::string(stream) + "'");
  auto g = s->second.groups.find(group);
  if (g == s->second.groups.end()) return Status::invalid_argument("no group '" + std::string(group) + "'");
  Group& grp = g->second;
  auto& mine = grp.pending[std::string(consumer)];
  std::vector<LogEntry> out;
  if (start == ">") {
    while (out.size() < count && grp.delivered < s->second.entries.size()) {
      // An entry delivered once stays with the first consumer until acked.
      mine.insert(grp.delivered);
      out.push_back(s->second.entries[grp.delivered++]);
    }
    return out;
  }
  const auto after = EntryId::parse(start);
  if (!after) return Status::invalid_argument("bad stream id '" + std::string(start) + "'");
  // Entry index i has id (i+1)-0: entries after `after` start at index after->ms.
  for (auto it = mine.lower_bound(after->ms); it != mine.end() && out.size() < count; ++it)
    out.push_back(s->second.entries[*it]);
  return out;
}

Status MemoryLog::ack(std::string_view stream, std::string_view group, std::span<const std::string> ids) {
  std::lock_guard lock(mu_);
  auto s = streams_.find(stream);
  if (s == streams_.end()) return Status::ok();
  auto g = s->second.groups.find(group);
  if (g == s->second.groups.end()) return Status::ok();
  for (const auto& text : ids) {
    const auto id = EntryId::parse(text);
    if (!id || id->ms == 0) continue;
    const std::size_t index = id->ms - 1;
    for (auto& [consumer, set] : g->second.pending) set.erase(index);
    if (index < g->second.delivered) g->second.acked.insert(index);
  }
  return Status::ok();
}

std::uint64_t MemoryLog::lag_locked(std::string_view stream, std::string_view group) const {
  auto s = streams_.find(stream);
  if (s == streams_.end()) return 0;
  auto g = s->second.groups.find(group);
  if (g == s->second.groups.end()) return static_cast<std::uint64_t>(s->second.entries.size());
  return static_cast<std::uint64_t>(s->second.entries.size() - g->second.delivered);
}

Result<std::uint64_t> MemoryLog::lag(std::string_view stream, std::string_view group) {
  std::lock_guard lock(mu_);
  return lag_locked(stream, group);
}

Result<bool> MemoryLog::wait_for_entries(std::span<const std::string> streams, std::string_view group, int timeout_ms) {
  std::unique_lock lock(mu_);
  return appended_.wait_for(lock, std::chrono::milliseconds(std::max(1, timeout_ms)), [&] {
    for (const auto& s : streams)
      if (lag_locked(s, group) > 0) return true;
    return false;
  });
}

std::size_t MemoryLog::unacked(std::string_view stream, std::string_view group) {
  std::lock_guard lock(mu_);
  auto s = streams_.find(stream);
  if (s == streams_.end()) return 0;
  auto g = s->second.groups.find(group);
  if (g == s->second.groups.end()) return s->second.entries.size();
  return s->second.entries.size() - g->second.acked.size();
}

void MemoryLog::append(std::string_view stream, const Fields& fields) {
  std::lock_guard lock(mu_);
  auto it = streams_.find(stream);
  if (it == streams_.end()) it = streams_.emplace(std::string(stream), Stream{}).first;
  auto& entries = it->second.entries;
  entries.push_back(LogEntry{EntryId{entries.size() + 1, 0}.to_string(), fields});
  appended_.notify_all();
}

Result<std::vector<LogEntry>> MemoryLog::range(std::string_view stream, std::size_t count) {
  std::lock_guard lock(mu_);
  auto it = streams_.find(stream);
  if (it == streams_.end()) return std::vector<LogEntry>{};
  const auto& e = it->second.entries;
  return std::vector<LogEntry>(e.begin(), e.begin() + static_cast<std::ptrdiff_t>(std::min(count, e.size())));
}

Result<std::uint64_t> MemoryLog::length(std::string_view stream) {
  std::lock_guard lock(mu_);
  auto it = streams_.find(stream);
  return static_cast<std::uint64_t>(it == streams_.end() ? 0 : it->second.entries.size());
}

bool MemoryLog::holds(std::string_view key, std::string_view token, Clock::time_point now) const {
  auto it = leases_.find(key);
  return it != leases_.end() && it->second.token == token && it->second.expires > now;
}

Result<bool> MemoryLog::acquire_lease(std::string_view key, std::string_view token, int ttl_ms) {
  std::lock_guard lock(mu_);
  const auto now = Clock::now();
  auto it = leases_.find(key);
  if (it != leases_.end() && it->second.expires > now) return false;
  leases_[std::string(key)] = Lease{std::string(token), now + std::chrono::milliseconds(ttl_ms)};
  return true;
}

Result<bool> MemoryLog::renew_lease(std::string_view key, std::string_view token, int ttl_ms) {
  std::lock_guard lock(mu_);
  const auto now = Clock::now();
  if (!holds(key, token, now)) return false;
  leases_.find(key)->second.expires = now + std::chrono::milliseconds(ttl_ms);
  return true;
}

Status MemoryLog::release_lease(std::string_view key, std::string_view token) {
  std::lock_guard lock(mu_);
  auto it = leases_.find(key);
  if (it != leases_.end() && it->second.token == token) leases_.erase(it);
  return Status::ok();
}

Result<bool> MemoryLog::commit(std::string_view lease_key, std::string_view token, int ttl_ms, std::string_view hash,
                               const Fields& values) {
  std::lock_guard lock(mu_);
  const auto now = Clock::now();
  if (!holds(lease_key, token, now)) return false;
  leases_.find(lease_key)->second.expires = now + std::chrono::milliseconds(ttl_ms);
  auto& h = hashes_[std::string(hash)];
  for (const auto& [field, value] : values) h[field] = value;
  return true;
}

Result<std::optional<std::string>> MemoryLog::hash_get(std::string_view hash, std::string_view field) {
  std::lock_guard lock(mu_);
  auto h = hashes_.find(hash);
  if (h == hashes_.end()) return std::optional<std::string>{};
  auto f = h->second.find(field);
  if (f == h->second.end()) return std::optional<std::string>{};
  return std::optional<std::string>{f->second};
}

Result<Fields> MemoryLog::hash_get_all(std::string_view hash) {
  std::lock_guard lock(mu_);
  Fields out;
  auto h = hashes_.find(hash);
  if (h != hashes_.end())
    for (const auto& [field, value] : h->second) out.emplace_back(field, value);
  return out;
}

Result<Log::OwnedValue> MemoryLog::hash_get_owned(std::string_view lease_key, std::string_view token,
                                                  std::string_view hash, std::string_view field) {
  std::lock_guard lock(mu_);
  OwnedValue out;
  if (!holds(lease_key, token, Clock::now())) return out;
  out.held = true;
  auto h = hashes_.find(hash);
  if (h == hashes_.end()) return out;
  auto f = h->second.find(field);
  if (f != h->second.end()) out.value = f->second;
  return out;
}

void MemoryLog::expire_lease(std::string_view key) {
  std::lock_guard lock(mu_);
  auto it = leases_.find(key);
  if (it != leases_.end()) leases_.erase(it);
}

}  // namespace irithyll::serve
