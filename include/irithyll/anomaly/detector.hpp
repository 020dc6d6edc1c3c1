// AnomalyDetector: the interface of unsupervised streaming anomaly scorers
// (`irithyll eval --task anomaly`, Python irithyll.anomaly). A detector sees
// features only, never a label.
//
// Contract (score-then-learn): for each sample call score_one, then
// learn_one, then drop the sample. Scoring never changes what the detector
// will learn. Higher scores mean more anomalous; each detector documents its
// range. Given the same seed and stream, every detector is bit-for-bit
// deterministic, and decode() of an encode() continues bit-identically.
//
// Thread safety: one thread at a time (const methods may use scratch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

// What the stream decides: the width (0 = from the first sample) and the seed.
struct AnomalyContext {
  std::size_t n_features = 0;
  std::uint64_t seed = 42;
};

class AnomalyDetector {
 public:
  virtual ~AnomalyDetector() = default;

  // Stable identifier ("half_space_trees"): --model NAME and checkpoints.
  virtual std::string_view name() const = 0;
  // Expected width, 0 until fixed by the first sample.
  virtual std::size_t n_features() const = 0;

  // Why learn_one would skip x (empty, or not the fixed width), or ok.
  Status check_sample(std::span<const double> x) const;
  // Learns one sample. A NaN/inf feature is a missing value the detector
  // tolerates; a sample check_sample refuses is skipped and counted.
  virtual void learn_one(std::span<const double> x) = 0;
  // Anomaly score of x (higher = more anomalous); 0 for a sample
  // check_sample refuses, so front ends call check_sample first.
  virtual double score_one(std::span<const double> x) const = 0;

  // Back to the freshly made state (same settings, same seed).
  virtual void reset() = 0;
  virtual std::uint64_t n_samples_seen() const = 0;
  virtual std::uint64_t n_skipped() const = 0;
  virtual std::size_t memory_bytes() const = 0;

  virtual void encode(ByteWriter& out) const = 0;
  virtual Status decode(ByteReader& in) = 0;
};

}  // namespace irithyll
