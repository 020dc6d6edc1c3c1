// DistributionalSGBT ("distributional_sgbt"): a Gaussian predictive
// distribution N(mu(x), sigma(x)^2) from streaming boosted trees, in the
// spirit of NGBoost (Duan et al. 2020) but trained one sample at a time.
//
//   mu(x)     an SGBT on the squared loss (the location ensemble);
//   sigma(x)  scale "tree": an SGBT fitted to |r| of the prequential
//             residual r = y - mu(x); for Gaussian r, E|r| = sigma sqrt(2/pi),
//             so sigma = sqrt(pi/2) |r|_hat (floored at 5% of the global
//             sigma). |r| is a far less noisy target than log r^2 (its
//             coefficient of variation is 0.75 against about 2.2), so the
//             scale trees find the features that drive the noise sooner;
//             scale "empirical": one global sigma, an EWMA of r^2;
//   calibration (default on): sigma is multiplied by c, with c^2 an EWMA of
//             (r / sigma_raw(x))^2, so the normalised residuals keep unit
//             variance and nominal Gaussian intervals keep their coverage
//             across drifts and when the scale trees lag.
//
// Sample weights reach both ensembles (SGBT scales g and h) and the EWMAs (a
// weight-w sample moves them like w unit samples), so a mixture expert's sigma
// follows the samples routed to it.
//
// Every statistic uses the prediction made before the sample is learned, so
// nothing is scored on a target it has seen. Intervals: mu +- z sigma with
// z = Phi^-1((1 + level) / 2). predict_one returns mu.
//
// Cost: two SGBTs per sample (one for "empirical"). Allocation-free after
// warm-up. One thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/interval.hpp"

namespace irithyll {

enum class ScaleModel : std::uint8_t { kTree = 0, kEmpirical = 1 };

struct DistributionalSGBTConfig {
  SGBTConfig base;                       // location (and scale) ensembles' settings; squared loss
  ScaleModel scale = ScaleModel::kTree;  // tree | empirical
  double scale_half_life = 500.0;        // samples; EWMAs of r^2 and of the calibration, [10, 1e9]
  bool calibrate = true;

  Status validate() const;
  // Reads the binary layout of the first record version (nothing writes it
  // any more: checkpoints save the settings by name).
  Status decode(ByteReader& in);
};

// Own rows (scale, scale-half-life, calibrate); DistributionalSGBT::config_fields() adds the SGBT rows for `base`.
std::span<const ConfigField<DistributionalSGBTConfig>> distributional_sgbt_config_fields();

class DistributionalSGBT final : public Learner, public IntervalPredictor {
 public:
  using Config = DistributionalSGBTConfig;
  static constexpr std::string_view kName = "distributional_sgbt";
  // The scale rows, then the shared SGBT rows for `base`.
  static std::span<const ConfigField<Config>> config_fields();

  DistributionalSGBT();
  // REQUIRES: config.validate() ok (make() checks).
  explicit DistributionalSGBT(const DistributionalSGBTConfig& config);
  // Regression only; the seed from the context (config.base.seed is
  // overwritten), the width from the first sample.
  static Result<std::unique_ptr<DistributionalSGBT>> make(const Config& config, const LearnerContext& context);

  std::string_view name() const override { return kName; }
  Task task() const override { return Task::kRegression; }
  std::size_t n_features() const override { return location_.n_features(); }

  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override { return location_.predict_one(x); }
  Interval predict_interval(std::span<const double> x, double level) const override;
  // The predictive standard deviation at x (calibrated when configured).
  double predict_sigma(std::span<const double> x) const;

  void reset() override;
  std::uint64_t n_samples_seen() const override { return samples_seen_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;
  // The state without the settings (the mixture of experts derives each
  // expert's settings from its own): decode_state reads it into an instance
  // built with the config that wrote it; `trees` as SGBT::decode_state.
  void encode_state(ByteWriter& out) const;
  Status decode_state(ByteReader& in, TreeSettings trees = TreeSettings::kDerived);

  const DistributionalSGBTConfig& config() const { return config_; }
  double calibration() const { return std::sqrt(calibration_); }
  // The location ensemble: predict_one is its prediction (TreeSHAP explains
  // the location through it).
  const SGBTLearner& location() const { return location_; }

 private:
  // The counters and scale statistics of a record, checked.
  Status decode_statistics(ByteReader& in);
  void build();
  double sigma_raw(std::span<const double> x) const;

  DistributionalSGBTConfig config_;
  SGBTLearner location_;
  SGBTLearner scale_;              // on |r| (kTree only; unused otherwise)
  double alpha_ = 0.0;             // EWMA weight of the half-life
  double residual_sq_ = 0.0;       // EWMA of r^2
  double calibration_ = 1.0;       // EWMA of (r / sigma_raw)^2
  std::uint64_t samples_seen_ = 0;
  mutable double last_level_ = -1.0, last_z_ = 0.0;  // cache of Phi^-1 for repeated levels
};

}  // namespace irithyll
