// The producer side of `irithyll serve`: turns a Stream (CSV file or
// generator) into sample and label messages routed to partition streams,
// as `irithyll produce` does. Tests and benchmarks call it directly, and
// rebuild the same per-key sequences with sample_key() for their references.
//
// Sample i (0-based) gets id "s<i>" and key "k<n>", n = mix(seed, i) % keys,
// a splitmix64 hash, so keys interleave like independent sources. With
// label_delay 0 the label rides in the sample (y); with d > 0 the sample goes
// out unlabelled and its label follows in a label message after d more
// samples (the rest at the end), exercising the worker's join window.
//
// With a KeySource (`produce --key COL`), sample i's key is the source's i-th
// key instead: a CSV column read alongside the stream. Routing is the same,
// partition_of(key, P).
//
// Cost: one XADD per message, flushed (pipelined) every flush_every.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "serve/log.hpp"
#include "serve/message.hpp"
#include "irithyll/stream/stream.hpp"

namespace irithyll::serve {

struct ProduceOptions {
  StreamNames names;
  std::uint32_t partitions = 8;
  std::uint64_t keys = 1000;        // distinct keys, >= 1
  std::uint64_t seed = 42;          // of the key assignment
  std::uint64_t label_delay = 0;    // 0: labels inline; d: label messages d samples later
  std::uint64_t first_index = 0;    // index of the first sample (ids continue a previous run)
  std::size_t flush_every = 1000;
};

struct ProduceReport {
  std::uint64_t samples = 0;
  std::uint64_t labels = 0;  // separate label messages
};

std::string sample_key(std::uint64_t index, std::uint64_t keys, std::uint64_t seed);

// The key of each successive sample.
class KeySource {
 public:
  virtual ~KeySource() = default;
  virtual Result<std::string> next_key() = 0;
};

// The keys of a CSV file's column `column` (by header name), row by row in
// file order: read beside open_table_stream(path) with the column dropped from
// its features, it yields each row's key in step with the row's sample. An
// empty key, a short row or a missing column is an InvalidArgument naming
// the file and line. Regular files only (the file is read twice).
Result<std::unique_ptr<KeySource>> open_csv_keys(const std::string& path, const std::string& column);

// Produces up to max_samples samples (all when empty) from `stream`, keyed by
// `keys` when given.
Result<ProduceReport> produce(LogSink& sink, Stream& stream, const ProduceOptions& options,
                              std::optional<std::uint64_t> max_samples, KeySource* keys = nullptr);

}  // namespace irithyll::serve
