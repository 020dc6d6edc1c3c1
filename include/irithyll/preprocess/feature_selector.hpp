// FeatureSelector: keeps the ceil(keep·d) features most related to the
// target and zeroes the others (the width stays d, so the learner after it
// keeps its shape while the selection moves with the stream).
//
// A feature's importance is the magnitude of its correlation with the
// target, from exponentially weighted means, variances and covariance with
// rate `alpha` (a half-life of about 0.69/alpha samples), so importances
// follow drift. Regression: |corr(x, y)|. Classification with K classes:
// the sum over classes k >= 1 of |corr(x, [y == k])| (the binary case is
// |corr(x, y)|). Until `warmup` samples were learned every feature is kept.
// Ties at the threshold go to the lower index. Cost: O(d·q) per sample for
// q = K-1 (1 for regression) plus a partial sort of d importances.
//
// A non-finite feature does not update its own statistics and stays NaN
// when selected. Output: x with the unselected features set to 0.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace irithyll {

struct FeatureSelectorConfig {
  double keep = 0.5;
  double alpha = 0.01;
  std::uint64_t warmup = 100;
};

class FeatureSelector final : public Transformer {
 public:
  using Config = FeatureSelectorConfig;
  static constexpr std::string_view kName = "feature_selector";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<FeatureSelector>> make(const Config& config, const TransformerContext& context);

  FeatureSelector() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  std::size_t input_size() const override { return n_in_; }
  std::size_t output_size(std::size_t) const override { return n_in_; }
  void learn_one(std::span<const double>) override {}  // needs the target
  void learn_supervised(std::span<const double> x, double y) override;
  void transform_one(std::span<const double> x, std::span<double> out) const override;
  void reset() override;
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  bool active(std::size_t i) const { return active_[i] != 0; }
  double importance(std::size_t i) const;

 private:
  void reselect();

  Config config_;
  Task task_ = Task::kRegression;
  std::size_t n_classes_ = 0;
  std::size_t n_in_ = 0;
  std::size_t q_ = 1;
  std::uint64_t n_ = 0;
  // Exponentially weighted moments: per feature mean and variance; per target
  // mean and variance (q); per feature and target the covariance (d·q).
  std::vector<double> mx_, vx_, my_, vy_, cxy_;
  std::vector<std::uint8_t> active_;
  std::vector<std::uint32_t> order_;  // scratch for the selection
  std::vector<double> yv_;            // scratch: the q target values
};

}  // namespace irithyll
