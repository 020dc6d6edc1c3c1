// The message schema of `irithyll serve` and the key -> partition routing
// shared by producers and workers. Prose and examples: docs/serve.md.
//
// Streams, for a prefix (default "irithyll") and P partitions:
//   {<prefix>:<p>}:in     samples and labels of partition p (p = partition_of(key, P))
//   {<prefix>:<p>}:out    predictions published by the owner of partition p
//   {<prefix>:<p>}:lease  the lease (a string: the owner's token)
//   {<prefix>:<p>}:ckpt   the checkpoint hash of partition p
//   <prefix>:dead         dead letters (any partition)
//
// A sample message has the fields
//   id   the sample's id, unique within its key (predictions and labels name it)
//   key  the routing key (one model per key)
//   x    the features, comma-separated numbers ("0.5,1,-2e-3"), or instead
//        one field per feature named f_<name>, in message order
//   y    optional: the label (a class index 0..n_classes-1, or a real target)
// A label message joins a label to an earlier unlabelled sample of its key:
//   key, label_for (the sample's id), y
// Unknown fields are ignored. Anything else (a missing field, a cell that is
// not a number, the wrong feature count, a class out of range) is refused
// with a reason, and the worker sends the entry to the dead-letter stream.
//
// Numbers are written with %.17g so a double survives the trip exactly.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"
#include "serve/log.hpp"

namespace irithyll::serve {

struct Message {
  bool is_label = false;        // a label message (label_for) rather than a sample
  std::string id;               // the sample's id (label messages: label_for)
  std::string key;
  std::vector<double> x;        // samples only
  std::optional<double> y;      // always set for label messages
};

// What the worker's model expects of a message.
struct MessageShape {
  std::size_t n_features = 0;  // > 0
  Task task = Task::kRegression;
  std::size_t n_classes = 0;   // classification: labels are 0..n_classes-1
};

// Parses and checks one entry's fields; the error message is the dead
// letter's reason ("x has 3 values, the model takes 4").
Result<Message> parse_message(const Fields& fields, const MessageShape& shape);

// FNV-1a (64-bit) of the key's bytes, modulo the partition count: stable
// across machines and releases, so any producer can route by it.
std::uint64_t key_hash(std::string_view key);
std::uint32_t partition_of(std::string_view key, std::uint32_t partitions);

// Field lists of the two message kinds; x is written as one "x" field.
Fields sample_fields(std::string_view id, std::string_view key, std::span<const double> x, std::optional<double> y);
Fields label_fields(std::string_view key, std::string_view sample_id, double y);

// The shortest text that reads back to the same double (std::to_chars).
std::string format_number(double v);
// The same text written into `buf` (no allocation); the view points into it.
using NumberText = std::array<char, 32>;
std::string_view format_number(double v, NumberText& buf);

// `text` as it may be echoed in a dead letter's reason or an error message:
// valid UTF-8 of printable characters kept, every other byte (NUL, control
// characters, invalid UTF-8, a sequence cut by the cap) and the backslash
// written as \xNN, and at most `max_bytes` of the input shown, then
// "...(N more bytes)". Why: the reason is read by people and by tools that
// stop at NUL or reject invalid UTF-8; the message's own fields keep the raw bytes.
std::string printable(std::string_view text, std::size_t max_bytes = 40);

// Stream and key names for a prefix and partition.
struct StreamNames {
  std::string prefix = "irithyll";
  // "{prefix:p}" is a Redis Cluster hash tag: a partition's streams, lease and
  // checkpoint share one slot, so its scripts and MULTI/EXEC stay legal there.
  std::string tag(std::uint32_t p) const { return "{" + prefix + ":" + std::to_string(p) + "}"; }
  std::string input(std::uint32_t p) const { return tag(p) + ":in"; }
  std::string output(std::uint32_t p) const { return tag(p) + ":out"; }
  std::string lease(std::uint32_t p) const { return tag(p) + ":lease"; }
  std::string checkpoint(std::uint32_t p) const { return tag(p) + ":ckpt"; }
  std::string dead() const { return prefix + ":dead"; }
  std::string group() const { return prefix + "-workers"; }
  // One consumer name per partition, whoever owns it: a worker that takes a
  // partition over finds its predecessor's unacknowledged entries pending
  // under this name and replays them.
  std::string consumer(std::uint32_t p) const { return "p" + std::to_string(p); }
};

}  // namespace irithyll::serve
