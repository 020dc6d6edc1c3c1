// The Log of `irithyll serve` with Kafka as the source and sink (librdkafka),
// and a StateStore beside it for leases and checkpoints (Redis in `serve`).
// docs/serve.md ("Kafka") has the design; in short:
//
//   stream {<prefix>:p}:in   topic "<prefix>.in",  Kafka partition p
//   stream {<prefix>:p}:out  topic "<prefix>.out", Kafka partition p
//   stream <prefix>:dead     topic "<prefix>.dead", partition 0
//   entry id                 "<offset + 1>-0" (so "0-0" stays before every entry)
//   fields                   one record header per field, in order; the
//                            record key is the "key" field, the value is empty
//   ack                      a synchronous commit of the group's offset, made
//                            only after the checkpoint covering the entries
//   pending after takeover   none kept per consumer: a partition (re)opened by
//                            create_group resumes at the group's committed
//                            offset, so every entry the checkpoint does not
//                            cover is delivered again (and skipped per key
//                            where the key's record already holds it)
//
// Producers must route by partition_of(key, P) (message.hpp), not by Kafka's
// default partitioner. Ownership stays with the StateStore's leases, which
// fence the checkpoint commit; the consumer assigns itself exactly the
// partitions its worker holds (no group rebalancing): see docs/serve.md for
// why Kafka's group assignment alone cannot fence a paused worker's write to
// an external checkpoint store.
//
// Built only with librdkafka (IRITHYLL_HAVE_RDKAFKA); without it
// connect_kafka() returns NotSupported. Not thread-safe: one per worker.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "serve/log.hpp"
#include "serve/message.hpp"

namespace irithyll::serve {

struct KafkaOptions {
  std::string brokers;       // bootstrap servers, "host:port[,host:port...]"
  int timeout_ms = 5000;     // connecting (a metadata round trip), commits, flushes
  // Extra librdkafka properties ("security.protocol", "sasl.*", ...); the
  // ones the exactly-once design depends on are refused (kafka_config.cpp).
  std::vector<std::pair<std::string, std::string>> properties;
};

// Connects a consumer (group names.group(), manual assignment, no automatic
// commits) and an idempotent producer, and checks within timeout_ms that a
// broker answers and that "<prefix>.in" has at least `partitions` partitions.
// `state` holds leases and checkpoints; it may be null for a producer only
// (then every StateStore call is NotSupported).
Result<std::unique_ptr<Log>> connect_kafka(const KafkaOptions& options, const StreamNames& names,
                                           std::uint32_t partitions, std::shared_ptr<Log> state);

// Whether this build has the Kafka log.
bool kafka_available();

}  // namespace irithyll::serve
