// The durable log under `irithyll serve`, as three narrow interfaces a worker
// programs against: LogSource (partitioned input read through a consumer
// group, acknowledged after use), LogSink (buffered appends: predictions,
// dead letters) and StateStore (partition leases and fenced, atomic
// checkpoint commits). Redis Streams implements all three (redis_log.hpp),
// and so does the in-memory log the unit tests use (memory_log.hpp); a Kafka
// source/sink would implement the first two and keep a StateStore beside it.
//
// Entry ids are Redis stream ids, "<ms>-<seq>", ordered numerically; EntryId
// parses and compares them. Field lists keep their order and may repeat names.
//
// Thread safety: one instance per thread (a Redis connection is not shared);
// MemoryLog alone is safe to share, since its tests run workers as threads.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "irithyll/core/status.hpp"

namespace irithyll::serve {

using Fields = std::vector<std::pair<std::string, std::string>>;
// One field whose name and value are borrowed, valid for the call only.
using FieldView = std::pair<std::string_view, std::string_view>;

struct LogEntry {
  std::string id;  // "<ms>-<seq>"
  Fields fields;
};

// A parsed stream id; "0-0" orders before every real entry.
struct EntryId {
  std::uint64_t ms = 0;
  std::uint64_t seq = 0;
  static std::optional<EntryId> parse(std::string_view text);
  std::string to_string() const;
  auto operator<=>(const EntryId&) const = default;
};

class LogSource {
 public:
  virtual ~LogSource() = default;
  // Creates `group` on `stream` from its first entry (and the stream when
  // missing); an existing group is left as it is.
  virtual Status create_group(std::string_view stream, std::string_view group) = 0;
  // Up to `count` entries for `consumer`: with start ">" entries never
  // delivered to the group (waiting up to block_ms when there are none,
  // block_ms 0 = return at once); with an id, this consumer's delivered but
  // unacknowledged entries after that id, in id order.
  virtual Result<std::vector<LogEntry>> read_group(std::string_view stream, std::string_view group,
                                                   std::string_view consumer, std::string_view start,
                                                   std::size_t count, int block_ms) = 0;
  virtual Status ack(std::string_view stream, std::string_view group, std::span<const std::string> ids) = 0;
  // Entries in `stream` the group has not been delivered yet.
  virtual Result<std::uint64_t> lag(std::string_view stream, std::string_view group) = 0;
  // Waits up to timeout_ms (at least 1) until one of `streams` may hold an
  // entry `group` has not been delivered; false when the time ran out with
  // none. Why: an idle worker would otherwise poll every partition every few
  // milliseconds, each poll a fenced read of several commands (about 9% of a
  // core, worker and server together, for an idle worker on 4 partitions).
  // The default sleeps min(timeout_ms, 2) ms and answers true: the plain
  // polling cadence, for logs that cannot wait on the server.
  virtual Result<bool> wait_for_entries(std::span<const std::string> streams, std::string_view group, int timeout_ms);
};

class LogSink {
 public:
  virtual ~LogSink() = default;
  // Buffered: nothing is sent until flush(), which sends every buffered
  // append in one pipelined round trip and reports the first failure.
  virtual void append(std::string_view stream, const Fields& fields) = 0;
  // The same append from borrowed text. Why: the worker publishes one
  // prediction per sample, and building a Fields (a vector and three pairs
  // of strings) for each was a measurable share of a cheap model's cost.
  // The default copies into a Fields and calls append().
  virtual void append_borrowed(std::string_view stream, std::span<const FieldView> fields);
  virtual Status flush() = 0;
  // Starts sending the buffered appends without waiting for their replies;
  // flush() still waits for them and reports any failure. Why: the log then
  // stores a batch's first predictions while the worker computes the rest,
  // instead of idling until the batch's end. Sending earlier changes no
  // outcome: an unacknowledged entry's prediction may be published again
  // after a crash either way. The default sends nothing early.
  virtual void send_buffered() {}
  // Up to `count` entries of `stream` from its start (tests and tools).
  virtual Result<std::vector<LogEntry>> range(std::string_view stream, std::size_t count) = 0;
  // Entries in `stream` (0 when it does not exist).
  virtual Result<std::uint64_t> length(std::string_view stream) = 0;
};

class StateStore {
 public:
  virtual ~StateStore() = default;
  // Takes the lease `key` for `token` when nobody holds it (SET NX PX);
  // true when it did.
  virtual Result<bool> acquire_lease(std::string_view key, std::string_view token, int ttl_ms) = 0;
  // Extends the lease for ttl_ms only while `token` still holds it; false
  // when it lapsed, even if nobody took it since. Why not re-take a lapsed
  // lease here: another worker may have held it in between and checkpointed
  // past this worker's in-memory state, which would then be stale.
  virtual Result<bool> renew_lease(std::string_view key, std::string_view token, int ttl_ms) = 0;
  // Gives the lease up if `token` holds it.
  virtual Status release_lease(std::string_view key, std::string_view token) = 0;
  // Atomically, and only while `token` holds `lease_key`: sets `values` in
  // the hash `hash` and renews the lease. False (and nothing written) when
  // the lease is held by someone else or lapsed into other hands.
  virtual Result<bool> commit(std::string_view lease_key, std::string_view token, int ttl_ms, std::string_view hash,
                              const Fields& values) = 0;
  virtual Result<std::optional<std::string>> hash_get(std::string_view hash, std::string_view field) = 0;
  virtual Result<Fields> hash_get_all(std::string_view hash) = 0;
};

// One object that is all three (what Redis and the in-memory log are), plus
// the one operation that needs the source and the store together.
class Log : public LogSource, public LogSink, public StateStore {
 public:
  // read_group (no blocking), atomically with a check that `token` holds
  // `lease_key`; nullopt when it does not. Why: a worker whose lease lapsed
  // unnoticed (a long pause) must not pull new entries into the partition
  // consumer's pending list after the next owner has replayed that list, or
  // those entries would be skipped by both.
  virtual Result<std::optional<std::vector<LogEntry>>> read_owned(std::string_view lease_key, std::string_view token,
                                                                  std::string_view stream, std::string_view group,
                                                                  std::string_view consumer, std::string_view start,
                                                                  std::size_t count) = 0;
  // hash_get, atomically with the same lease check; held = false when
  // `token` does not hold `lease_key`. Why: a worker that lazily loads a key
  // after its lease lapsed could read a successor's newer record and publish
  // predictions from a model that is ahead of the entries it is processing.
  struct OwnedValue {
    bool held = false;
    std::optional<std::string> value;
  };
  virtual Result<OwnedValue> hash_get_owned(std::string_view lease_key, std::string_view token, std::string_view hash,
                                            std::string_view field) = 0;
};

}  // namespace irithyll::serve
