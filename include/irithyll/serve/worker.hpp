// Worker: the loop behind `irithyll serve`. It owns partitions through
// leases, keeps one learner per key (made from the model catalogue), and for
// each entry predicts, publishes the prediction, and learns once labelled.
//
// Exactly-once learning. A partition's checkpoint is one hash: per key its
// learned count and checkpoint bytes (model_file.hpp), the label-join window,
// and "__last", the id of the last entry the state includes. The worker
// writes the keys changed since the previous checkpoint together with
// "__last" in one fenced, atomic commit (StateStore::commit: only while it
// holds the lease), and acknowledges entries only after the commit that
// covers them. A worker taking a partition over loads "__last", replays the
// partition consumer's pending entries after it (acknowledging older ones
// without learning them), then reads new ones: no entry is learned twice or
// lost. Predictions between the last checkpoint and a crash are published
// again by the next owner, with the same value (the model is restored
// bit-identically): consumers deduplicate by sample id. docs/serve.md has
// the argument and its limits.
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
#include "irithyll/serve/log.hpp"
#include "irithyll/serve/message.hpp"

namespace irithyll::serve {

struct WorkerConfig {
  StreamNames names;                    // stream prefix (default "irithyll")
  std::uint32_t partitions = 8;         // P, the same for producers and every worker
  std::uint32_t max_partitions = 0;     // most partitions this worker owns; 0 = all
  std::string model = "sgbt";           // catalogue name
  ModelSettings settings;               // catalogue settings (defaults when absent)
  LearnerContext context;               // task, classes, n_features (> 0), seed: the same for every key
  std::size_t max_keys = 10000;         // learners held per partition (LRU bound)
  std::size_t batch = 500;              // entries per read (XREADGROUP COUNT)
  std::uint64_t checkpoint_entries = 20000;  // checkpoint after this many entries ...
  int checkpoint_ms = 1000;             // ... or this long, whichever first
  int lease_ms = 10000;                 // lease time to live; renewed every lease_ms / 3 (and before each batch)
  std::size_t label_window = 10000;     // unlabelled samples awaiting a label, per partition
  std::string token;                    // this worker's lease token (unique per process)
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

// A key's record in the checkpoint hash (field "k:<key>"): u64 learned
// count, then the learner's checkpoint bytes (encode_learner).
std::string encode_key_record(std::uint64_t learned, std::span<const std::uint8_t> model);
struct KeyRecord {
  std::uint64_t learned = 0;
  std::vector<std::uint8_t> model;
};
Result<KeyRecord> decode_key_record(std::string_view bytes);

}  // namespace irithyll::serve
