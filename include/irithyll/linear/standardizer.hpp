// Online standardisation of features for the linear learners: a running
// weighted mean and variance per feature (West 1979, the weighted form of
// Welford's update), and z = (x - mean) / sd with the statistics as they
// stand. A missing feature (NaN or +-inf) is left out of its feature's
// statistics and maps to z = 0, so it contributes nothing to a linear score.
// A feature with no spread yet (one value seen) also maps to 0.
//
// When off (`enabled` false) transform passes finite values through and maps
// missing ones to 0 as well. Cost O(d) per call; nothing allocated after
// resize(). Thread safety: one owner.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

class Standardizer {
 public:
  Standardizer() = default;
  // d features, statistics cleared.
  void resize(std::size_t d, bool enabled);
  void clear();
  std::size_t size() const { return mean_.size(); }
  bool enabled() const { return enabled_; }

  void learn(std::span<const double> x, double weight);
  // REQUIRES: x.size() == z.size() == size().
  void transform(std::span<const double> x, std::span<double> z) const;

  std::size_t memory_bytes() const;
  void encode(ByteWriter& out) const;
  // Refuses arrays whose sizes disagree or that are not `d` long, and
  // non-finite statistics.
  Status decode(ByteReader& in, std::size_t d, bool enabled);

 private:
  bool enabled_ = true;
  std::vector<double> weight_, mean_, m2_, inv_sd_;  // inv_sd_: cached 1 / sd (0 while sd is 0)
};

}  // namespace irithyll
