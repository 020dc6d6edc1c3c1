// MemoryLog: the whole Log (streams, consumer groups, leases, checkpoint
// hashes) in one process's memory, with the Redis semantics the worker relies
// on: ids "<n>-0" in append order, a group's delivery cursor, per-consumer
// pending lists, NX leases with a time to live, and all-or-nothing fenced
// commits. read_group never blocks (block_ms is ignored).
//
// For unit tests of the worker: it is thread-safe (one mutex), so several
// workers can run as threads over one MemoryLog, and expire_lease() lets a
// test hand a partition over without waiting for the lease to lapse.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "serve/log.hpp"

namespace irithyll::serve {

class MemoryLog final : public Log {
 public:
  Status create_group(std::string_view stream, std::string_view group) override;
  Result<std::vector<LogEntry>> read_group(std::string_view stream, std::string_view group, std::string_view consumer,
                                           std::string_view start, std::size_t count, int block_ms) override;
  Status ack(std::string_view stream, std::string_view group, std::span<const std::string> ids) override;
  Result<std::uint64_t> lag(std::string_view stream, std::string_view group) override;
  // Woken by append (a condition variable), not by polling.
  Result<bool> wait_for_entries(std::span<const std::string> streams, std::string_view group, int timeout_ms) override;

  void append(std::string_view stream, const Fields& fields) override;
  Status flush() override { return Status::ok(); }
  Result<std::vector<LogEntry>> range(std::string_view stream, std::size_t count) override;
  Result<std::uint64_t> length(std::string_view stream) override;

  Result<bool> acquire_lease(std::string_view key, std::string_view token, int ttl_ms) override;
  Result<bool> renew_lease(std::string_view key, std::string_view token, int ttl_ms) override;
  Status release_lease(std::string_view key, std::string_view token) override;
  Result<bool> commit(std::string_view lease_key, std::string_view token, int ttl_ms, std::string_view hash,
                      const Fields& values) override;
  Result<std::optional<std::string>> hash_get(std::string_view hash, std::string_view field) override;
  Result<Fields> hash_get_all(std::string_view hash) override;

  Result<std::optional<std::vector<LogEntry>>> read_owned(std::string_view lease_key, std::string_view token,
                                                          std::string_view stream, std::string_view group,
                                                          std::string_view consumer, std::string_view start,
                                                          std::size_t count) override;

  Result<OwnedValue> hash_get_owned(std::string_view lease_key, std::string_view token, std::string_view hash,
                                    std::string_view field) override;

  // Test hook: the lease lapses now, as if its holder had died.
  void expire_lease(std::string_view key);
  // Entries acknowledged by no consumer of `group` yet (delivered or not).
  std::size_t unacked(std::string_view stream, std::string_view group);

 private:
  using Clock = std::chrono::steady_clock;
  struct Group {
    std::size_t delivered = 0;                            // index of the next never-delivered entry
    std::map<std::string, std::set<std::size_t>, std::less<>> pending;  // consumer -> entry indices
    std::set<std::size_t> acked;
  };
  struct Stream {
    std::vector<LogEntry> entries;
    std::map<std::string, Group, std::less<>> groups;
  };
  struct Lease {
    std::string token;
    Clock::time_point expires;
  };
  std::uint64_t lag_locked(std::string_view stream, std::string_view group) const;
  bool holds(std::string_view key, std::string_view token, Clock::time_point now) const;
  Result<std::vector<LogEntry>> read_locked(std::string_view stream, std::string_view group, std::string_view consumer,
                                            std::string_view start, std::size_t count);

  std::mutex mu_;
  std::condition_variable appended_;
  std::map<std::string, Stream, std::less<>> streams_;
  std::map<std::string, Lease, std::less<>> leases_;
  std::map<std::string, std::map<std::string, std::string, std::less<>>, std::less<>> hashes_;
};

}  // namespace irithyll::serve
