// Worker: the loop behind `irithyll serve`. It owns partitions through
// leases, keeps one learner per key (made from the model catalogue), and for
// each entry predicts, publishes the prediction, and learns once labelled.
//
// Exactly-once learning with per-key checkpoints. A partition's checkpoint is
// one hash: per key a record (learned count, the id of the last entry the
// record holds, the learner's checkpoint bytes), the label-join window, and
// "__last", the id up to which the window is current. Every checkpoint_ms the
// worker commits, in one fenced atomic write (StateStore::commit: only while
// it holds the lease), the window, "__last" and the keys that are due: a key
// is rewritten about every key_checkpoint_ms (each key at its own phase, so
// the multi-megabyte encodes spread over time), or at once when it learned a
// sample taken from the window (the window no longer holds that sample's
// features). An entry is acknowledged only once every key it changed is
// stored past it. A worker taking a partition over replays the pending
// entries and applies each to a key only when the key's record does not hold
// it yet (and to the window only after "__last"): no entry is learned twice or
// lost. Predictions after a key's record are published again by the next
// owner, with the same value (the model is restored bit-identically):
// consumers deduplicate by sample id. docs/serve.md has the argument and its limits.
//
// Memory: at most max_keys learners live per partition; the least recently
// used is evicted (its bytes kept until the next checkpoint writes them, then
// dropped) and reloaded from the checkpoint hash on its next sample.
//
// Thread safety: one thread per Worker; its Log is its own.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/core/status.hpp"
#include "serve/log.hpp"
#include "serve/message.hpp"

namespace irithyll::serve {

struct WorkerConfig {
  StreamNames names;                    // stream prefix (default "irithyll")
  std::uint32_t partitions = 8;         // P, the same for producers and every worker
  std::uint32_t max_partitions = 0;     // most partitions this worker owns; 0 = all
  std::string model = "sgbt";           // catalogue name or a pipeline spec (anomaly: the detector's name)
  // Anomaly scoring: `model` names an anomaly detector (irithyll/anomaly/
  // registry.hpp), every sample is scored, the score published as its
  // prediction, then learned at once; there are no labels (label messages are
  // dead letters, a sample's y is ignored) and nothing enters the join window.
  bool anomaly = false;
  ModelSettings settings;               // catalogue settings (defaults when absent)
  LearnerContext context;               // task, classes, n_features (> 0), seed: the same for every key
  std::size_t max_keys = 10000;         // learners held per partition (LRU bound)
  std::size_t batch = 500;              // entries per read (XREADGROUP COUNT)
  int checkpoint_ms = 1000;             // commit (window, acks, due keys) this often
  int key_checkpoint_ms = 10000;        // rewrite a changed key's model about this often (0: every commit)
  std::uint64_t checkpoint_entries = 1000000;  // unacknowledged entries that force every key out (replay bound)
  int lease_ms = 10000;                 // lease time to live; renewed every lease_ms / 3 (and before each batch)
  std::size_t label_window = 10000;     // unlabelled samples awaiting a label, per partition
  std::string token;                    // lease token prefix; make() appends "#<random nonce>", so no two Workers share one
};

struct PartitionMetrics {
  std::uint32_t partition = 0;
  std::uint64_t lag = 0;        // entries not yet delivered
  std::size_t keys_held = 0;    // learners in memory
  std::size_t model_bytes = 0;  // their memory_bytes(), summed
};

struct WorkerMetrics {
  std::uint64_t entries = 0;          // processed since start
  std::uint64_t learned = 0;          // samples learned
  std::uint64_t predictions = 0;
  std::uint64_t dead_letters = 0;
  std::uint64_t window_expired = 0;   // unlabelled samples that left the join window
  std::uint64_t checkpoints = 0;
  std::uint64_t key_writes = 0;       // key records written (each a full encode of the key's model)
  double last_checkpoint_ms = 0.0;    // latency of the latest commit (encode + write + ack)
  double max_checkpoint_ms = 0.0;
  std::uint64_t takeovers = 0;        // partitions acquired
  std::uint64_t lost = 0;             // partitions whose lease went to another worker
  std::vector<PartitionMetrics> owned;
};

class Worker {
 public:
  // Checks the configuration (model and settings through the catalogue).
  static Result<std::unique_ptr<Worker>> make(Log& log, WorkerConfig config);
  ~Worker();

  // One bounded round: take free partitions, renew leases, read one batch per
  // owned partition and process it, checkpoint where due. Returns the number
  // of entries processed, at least 1 when a partition changed hands (0: idle). An error is a log failure; bad messages
  // are dead letters, never errors.
  Result<std::size_t> poll();
  // After an idle poll(): waits on the log, at most max_ms (and at most a
  // third of the lease, so renewals keep their cadence), until an owned
  // partition may have new entries; true when one may. Owning nothing, it
  // sleeps max_ms (the next poll() tries the free leases again).
  Result<bool> wait_for_input(int max_ms);
  // Final checkpoint of every owned partition, then the leases are released.
  Status shutdown();

  WorkerMetrics metrics();
  // One JSON object on one line (the metrics log of `irithyll serve`).
  std::string metrics_json(double samples_per_second);

 private:
  struct Rep;
  explicit Worker(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

// A key's record in the checkpoint hash (field "k:<key>"): the tag "IRK2",
// u64 learned count, the id of the last entry the record holds (u64 ms, u64
// seq), then the learner's checkpoint bytes (encode_learner). Records of the
// first layout (u64 count, then the bytes, which start with "IRCK") still
// decode, with no position: they are current up to the hash's "__last".
std::string encode_key_record(std::uint64_t learned, EntryId position, std::span<const std::uint8_t> model);
struct KeyRecord {
  std::uint64_t learned = 0;
  std::optional<EntryId> position;
  std::vector<std::uint8_t> model;
};
Result<KeyRecord> decode_key_record(std::string_view bytes);

}  // namespace irithyll::serve
