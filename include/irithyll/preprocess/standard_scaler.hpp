// StandardScaler: online per-feature standardisation z = (x - mean) / sd with
// Welford's running mean and sample variance (Welford 1962), O(d) per update,
// 3 doubles per feature. transform_one standardises x with statistics that
// include x itself, computed on the fly and not stored (learn_one stores
// them): with x among n values |z| <= (n - 1) / sqrt(n), so a feature that has
// barely varied cannot map to an unbounded value, and a pipeline sees the same
// z for a sample at predict and at learn time. Features with no spread, x
// included, map to 0. Non-finite inputs are not learned and map to NaN, so a
// downstream learner's missing-value routing still sees them as missing.
#pragma once

#include <cstdint>
#include <vector>

#include "irithyll/preprocess/transformer.hpp"

namespace irithyll {

class StandardScaler final : public Transformer {
 public:
  std::string_view name() const override { return "standard_scaler"; }
  std::size_t output_size(std::size_t n_in) const override { return n_in; }
  void learn_one(std::span<const double> x) override;
  void transform_one(std::span<const double> x, std::span<double> out) const override;
  void reset() override;
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  double mean(std::size_t i) const { return i < mean_.size() ? mean_[i] : 0.0; }
  // Sample (Bessel-corrected) variance; 0 below two observations.
  double variance(std::size_t i) const;

 private:
  // Feature i's z for the finite value x, x counted in the statistics.
  double standardize(std::size_t i, double x) const;

  std::vector<double> mean_, m2_;
  std::vector<std::uint64_t> count_;
};

}  // namespace irithyll
