// MinMaxScaler: each feature mapped linearly from its running [min, max] to
// [lo, hi] (River's preprocessing.MinMaxScaler). O(d) per sample, 2 doubles
// per feature.
//
// A feature with no spread yet (fewer than one finite value, or max - min
// below machine epsilon) maps to the middle of [lo, hi]. A pipeline
// transforms a sample before learning it, so a new extreme would fall outside
// [lo, hi]: with `clip` (the default) it is clamped to the range. Non-finite
// inputs are not learned and map to NaN (missing for the learner after it).
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace irithyll {

struct MinMaxConfig {
  double lo = 0.0;
  double hi = 1.0;
  bool clip = true;
};

class MinMaxScaler final : public Transformer {
 public:
  using Config = MinMaxConfig;
  static constexpr std::string_view kName = "min_max";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<MinMaxScaler>> make(const Config& config, const TransformerContext& context);

  MinMaxScaler() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  std::size_t input_size() const override { return n_in_; }
  std::size_t output_size(std::size_t) const override { return n_in_; }
  void learn_one(std::span<const double> x) override;
  void transform_one(std::span<const double> x, std::span<double> out) const override;
  void reset() override;
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  double min(std::size_t i) const { return min_[i]; }
  double max(std::size_t i) const { return max_[i]; }

 private:
  Config config_;
  std::size_t n_in_ = 0;
  std::vector<double> min_, max_;  // +inf / -inf until a finite value arrives
};

}  // namespace irithyll
