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
// Extras (every one off by default; off, the model is exactly the above):
//   honest sigma: the spread of the location trees' votes at x, the
//             Bessel-corrected standard deviation of lr * tree_k(x) over the
//             boosting steps (0 with <= 1 step), always available through
//             honest_sigma(x); `honest-sigma` keeps its EWMA (weight 0.001)
//             over the learned samples, at the pre-learn model, for the report.
//   huber-k:  the location trees see Huber's gradient with delta = k times
//             the uncalibrated sigma(x) before learning, in its iteratively
//             reweighted least-squares form (Huber 1964;
//             Holland & Welsch 1977): a sample whose pre-learn residual r
//             exceeds delta is learned with weight delta / |r|, so its
//             gradient is delta sign(r) and its hessian shrinks with it
//             (never the 1e-6 floor of LossKind::kHuber, whose Newton leaves
//             blow up on a leaf of outliers).
//   uncertainty-modulated-lr: a PD controller on the location shrinkage
//             driven by the global sigma s (the EWMA of r^2): v = EWMA of
//             ds, m = slow EWMA (weight 0.001) of s, k_d = |v| / m, rate =
//             lr clamp((s + k_d v) / m, 0.1, 10), capped at 1. As with
//             adaptive_sgbt, a new rate rescales the whole location committee
//             (prediction is base + rate * sum of trees).
//   packed-refresh-interval N: every N learned samples the location trees
//             are exported to the packed f32 format (packed/exporter.hpp)
//             and mu is read from that copy until the next refresh (falling
//             back to the trees when it is not finite); the bytes travel in
//             the checkpoint, so a resumed model predicts as the one saved.
//
// Cost: two SGBTs per sample (one for "empirical"); honest-sigma and
// uncertainty-modulated-lr add one pass over the steps per sample, the
// packed cache one export per N samples. Allocation-free after warm-up
// (except the packed export). One thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <span>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/interval.hpp"
#include "irithyll/model_report.hpp"
#include "irithyll/packed/packed_model.hpp"

namespace irithyll {

enum class ScaleModel : std::uint8_t { kTree = 0, kEmpirical = 1 };

struct DistributionalSGBTConfig {
  SGBTConfig base;                       // location (and scale) ensembles' settings; squared loss
  ScaleModel scale = ScaleModel::kTree;  // tree | empirical
  double scale_half_life = 500.0;        // samples; EWMAs of r^2 and of the calibration, [10, 1e9]
  bool calibrate = true;
  bool honest_sigma = false;                   // keep the EWMA of honest_sigma over learned samples
  double huber_k = 0.0;                        // Huber delta = k sigma_raw(x); 0 = squared loss, [0, 100]
  bool uncertainty_modulated_lr = false;       // PD controller on the location shrinkage
  std::uint64_t packed_refresh_interval = 0;   // samples between packed f32 refreshes of mu; 0 = off

  // Any of the four settings above: the state carries their statistics.
  bool has_extras() const {
    return honest_sigma || huber_k > 0.0 || uncertainty_modulated_lr || packed_refresh_interval > 0;
  }
  Status validate() const;
  // Reads the binary layout of the first record version (nothing writes it
  // any more: checkpoints save the settings by name).
  Status decode(ByteReader& in);
};

// Own rows (scale, scale-half-life, calibrate and the extras); DistributionalSGBT::config_fields() adds the SGBT rows for `base`.
std::span<const ConfigField<DistributionalSGBTConfig>> distributional_sgbt_config_fields();

class DistributionalSGBT final : public Learner, public IntervalPredictor, public ModelReport {
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
  // mu: the location ensemble, or its packed copy while that is on.
  double predict_one(std::span<const double> x) const override;
  Interval predict_interval(std::span<const double> x, double level) const override;
  // The predictive standard deviation at x (calibrated when configured).
  double predict_sigma(std::span<const double> x) const;
  // The Bessel-corrected standard deviation of the location steps'
  // contributions lr * tree_k(x) (0 with <= 1 step).
  double honest_sigma(std::span<const double> x) const;
  // EWMA (weight 0.001) of honest_sigma at the learned samples (honest-sigma on; else 0).
  double rolling_honest_sigma_mean() const { return honest_mean_; }
  // The PD controller's state (uncertainty-modulated-lr; else 0) and the
  // location ensemble's current shrinkage.
  double sigma_velocity() const { return sigma_velocity_; }
  double rolling_sigma_mean() const { return rolling_sigma_; }
  double location_learning_rate() const { return location_.config().learning_rate; }
  // True while mu comes from the packed copy (packed-refresh-interval).
  bool packed_active() const { return packed_.has_value(); }

  // ModelReport: the extras' statistics (empty when all are off).
  std::string report_text() const override;
  std::string report_json() const override;

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
  // The scale ensemble (on |r|; untrained with scale "empirical").
  const SGBTLearner& scale() const { return scale_; }

 private:
  // decode_state without its copy, into this instance built for the record
  // and never trained (left part read on an error: a decoder's scratch only,
  // such as the mixture's experts).
  friend class MoEDistributionalSGBT;
  Status read_state(ByteReader& in, TreeSettings trees);
  // The counters and scale statistics of a record, checked.
  Status decode_statistics(ByteReader& in);
  // The extras' statistics (present when config_.has_extras()).
  void encode_extras(ByteWriter& out) const;
  Status decode_extras(ByteReader& in);
  void build();
  // The statistics as build() leaves them, the ensembles untouched.
  void start();
  double sigma_raw(std::span<const double> x) const;
  // One step of the PD controller (a: the model's EWMA factor for this sample).
  void update_controller(double a, double weight);
  void refresh_packed();

  DistributionalSGBTConfig config_;
  SGBTLearner location_;
  SGBTLearner scale_;              // on |r| (kTree only; unused otherwise)
  double alpha_ = 0.0;             // EWMA weight of the half-life
  double residual_sq_ = 0.0;       // EWMA of r^2
  double calibration_ = 1.0;       // EWMA of (r / sigma_raw)^2
  std::uint64_t samples_seen_ = 0;
  double honest_mean_ = 0.0;       // EWMA of honest_sigma (honest-sigma)
  double sigma_velocity_ = 0.0;    // EWMA of the change of the global sigma
  double rolling_sigma_ = 0.0;     // slow EWMA of the global sigma
  double last_sigma_ = 0.0;        // the global sigma at the previous sample
  std::optional<packed::PackedModel> packed_;  // mu's packed copy (packed-refresh-interval)
  mutable std::vector<float> packed_x_;        // scratch
  mutable double last_level_ = -1.0, last_z_ = 0.0;  // cache of Phi^-1 for repeated levels
};

}  // namespace irithyll
