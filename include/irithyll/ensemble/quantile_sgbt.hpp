// QuantileSGBT ("quantile_sgbt"): one SGBT per requested quantile level tau,
// each trained on the pinball loss at its tau, with outputs made non-crossing
// by pool-adjacent-violators (pava.hpp) and, by default, an online coverage
// correction per tau (adaptive conformal inference, Gibbs & Candes 2021):
//
//   q_tau(x) = f_tau(x) + d_tau,   d_tau <- d_tau + eta (tau - 1[y <= q_tau(x)])
//
// with eta = calibration_rate x the target's running spread, so that in the
// long run the share of targets at or below q_tau tracks tau even when the
// boosted quantile is biased or the stream drifts. The correction uses the
// prediction made before the sample is learned (prequential), so it never
// peeks at the target it scores.
//
// The pinball gradient is unit-free (1 - tau or -tau), so a tree's step is
// about one unit of the target whatever its scale; the members therefore
// learn the standardised target (y - m0) / s0, with m0, s0 the mean and
// spread of the first `base.initial_target_count` targets (buffered, then
// replayed in order), and predictions are mapped back.
//
// Centring (`center`, on by default): one more SGBT, on the squared loss,
// learns the mean c(x) of the standardised target, and each tau's SGBT learns
// the residual z - c(x) (c taken before the centre learns the sample):
//
//   q_tau(x) = m0 + s0 (c(x) + f_tau(x)) + d_tau
//
// The squared-loss gradient moves c quickly (it scales with the error, where
// the pinball gradient is a bounded sign), so the tau models no longer have to
// chase the whole conditional mean with unit-sized pinball steps: they only
// learn the spread around it, and the bands come out much narrower at the same
// coverage (BENCHMARKS.md). Off: every tau's SGBT learns z itself.
//
// Regression only. predict_one is the quantile nearest 0.5; an interval at
// level l reads the quantiles at (1 - l)/2 and (1 + l)/2, interpolating
// linearly between the fitted taus and clamping at the outermost ones.
//
// Cost: (number of taus) x SGBT per sample, plus one extra prediction pass
// for the correction. Allocation-free after warm-up. One thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/interval.hpp"

namespace irithyll {

struct QuantileSGBTConfig {
  SGBTConfig base;                                // settings shared by every tau's SGBT (loss: pinball at tau)
  std::vector<double> quantiles{0.05, 0.5, 0.95};  // each in (0, 1), strictly increasing, 1..32 of them
  bool calibrate = true;                          // the online coverage correction
  // eta in units of the target's spread, (0, 1]. 0.01 (was 0.005): with the
  // centre the bands are narrow, and the coverage right after a drift needs
  // the faster correction to stay within 0.03 of the level (BENCHMARKS.md).
  double calibration_rate = 0.01;
  bool center = true;                             // tau models learn the residual around a mean SGBT

  Status validate() const;
  // Reads the binary layout of the first record version (nothing writes it
  // any more: checkpoints save the settings by name).
  Status decode(ByteReader& in);
};

// Own rows only (quantiles, calibrate, calibration-rate);
// QuantileSGBT::config_fields() adds the SGBT table's rows for `base`.
std::span<const ConfigField<QuantileSGBTConfig>> quantile_sgbt_config_fields();

class QuantileSGBT final : public Learner, public IntervalPredictor, public QuantilePredictor {
 public:
  using Config = QuantileSGBTConfig;
  static constexpr std::string_view kName = "quantile_sgbt";
  // The quantile rows, then the shared SGBT rows for `base`.
  static std::span<const ConfigField<Config>> config_fields();

  QuantileSGBT();  // blank instance (default config), to decode() into
  // REQUIRES: config.validate() ok (make() checks).
  explicit QuantileSGBT(const QuantileSGBTConfig& config);
  // Regression only; the seed from the context (config.base.seed is
  // overwritten), the width from the first sample.
  static Result<std::unique_ptr<QuantileSGBT>> make(const Config& config, const LearnerContext& context);

  std::string_view name() const override { return kName; }
  Task task() const override { return Task::kRegression; }
  std::size_t n_features() const override;

  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  Interval predict_interval(std::span<const double> x, double level) const override;
  std::span<const double> quantile_levels() const override { return config_.quantiles; }
  // One value per tau, non-decreasing. REQUIRES: out.size() == config().quantiles.size().
  void predict_quantiles(std::span<const double> x, std::span<double> out) const override;

  void reset() override;
  std::uint64_t n_samples_seen() const override { return samples_seen_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const QuantileSGBTConfig& config() const { return config_; }
  std::span<const double> offsets() const { return offsets_; }
  // The parts of quantile i before the outputs are made non-crossing (what
  // TreeSHAP explains): origin() + unit() * (c(x) + f_i(x)) + offsets()[i],
  // with f_i member(i)'s prediction and c the centre's (0 without one).
  const SGBTLearner& member(std::size_t i) const { return members_[i]; }
  const SGBTLearner* centre() const { return center_.empty() ? nullptr : &center_[0]; }
  double origin() const { return origin_; }
  double unit() const { return unit_; }

 private:
  void build();

  QuantileSGBTConfig config_;
  std::vector<SGBTLearner> members_;  // one per tau
  std::vector<SGBTLearner> center_;   // the mean model when config_.center (one), else empty
  std::vector<double> offsets_;       // d_tau
  double spread_mean_ = 0.0, spread_var_ = 0.0;  // EWMA of the target, for eta
  std::uint64_t samples_seen_ = 0;
  std::size_t median_ = 0;            // index of the tau nearest 0.5
  double origin_ = 0.0, unit_ = 1.0;  // m0, s0 once standardised
  bool standardised_ = false;
  std::vector<double> warm_x_, warm_y_, warm_w_;  // the first targets, until m0 and s0 are known
  void standardise_and_replay();
  // The standardised sample taught to the centre and the tau members.
  void learn_standardised(std::span<const double> x, double z, double weight);
  // origin + unit (c(x) + f_tau(x)) + d_tau for every tau, before PAVA.
  void raw_quantiles(std::span<const double> x, std::span<double> out) const;
  mutable std::vector<double> scratch_;
  // The last raw quantiles and the x they are for. Evaluation asks for one
  // sample's interval, its point prediction and (calibrating) the learner's
  // own prediction before it learns it: three passes over every member,
  // where one gives all three. Valid until the model changes (learn_one
  // once past its read, reset, decode).
  mutable std::vector<double> memo_x_, memo_raw_;
  mutable bool memo_valid_ = false;
};

}  // namespace irithyll
