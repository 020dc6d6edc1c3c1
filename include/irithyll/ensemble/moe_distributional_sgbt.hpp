// MoEDistributionalSGBT ("moe_distributional_sgbt"): a mixture of K Gaussian
// experts (each a DistributionalSGBT: mu_k(x), sigma_k(x)) behind a learned
// softmax gate (MoEGate), with a shadow expert per slot.
//
// Prediction (r = routing weights, soft or top-k as in moe_sgbt):
//   mu     = sum_k r_k mu_k
//   var    = sum_k r_k (sigma_k^2 + (mu_k - mu)^2)   (law of total variance)
//   interval: mu +- z sqrt(var), z = Phi^-1((1 + level) / 2); the mixture is
//   summarised by its first two moments (as the Rust library does).
//
// Learning (x, y, w): the gate's target is the active expert with the lowest
// Gaussian NLL  log sigma_k + (y - mu_k)^2 / (2 sigma_k^2)  (sigma floored at
// 1e-9); expert k and its shadow learn with weight w * n_routed * r_k (see
// moe_sgbt.hpp: the weight reaches the trees and the EWMAs).
//
// Shadows: each slot's shadow trains alongside its expert on the same
// weighted samples. After `shadow-warmup` routed samples it is tested for
// up to `shadow-window` more: d_t = NLL_active - NLL_shadow, weighted by r_k;
// the shadow replaces the expert (and a fresh shadow starts) when
//   mean(d) > R sqrt(2 ln(1/delta) / n_eff)
// (Hoeffding for values in [-R, R], R = the largest |d| of the window, n_eff
// = (sum r)^2 / sum r^2 the effective sample count, at least 30). A shadow
// that has not won by the window's end restarts fresh, so the challenger is
// always a model of the recent stream: after a change it beats an expert that
// carries the old regime. The Rust library's bound is sqrt(R^2 ln(1/delta) / 2n)
// over all samples after the minimum count, i.e. Hoeffding with width R for
// values in [-R, R] (width 2R, corrected here); it never restarts a losing
// shadow, without which a shadow as old as its expert
// rarely differs from it.
//
// Regression only. Cost: 2K DistributionalSGBTs learn per sample (4K SGBTs
// with the tree scale). Allocation-free per sample after the first, except
// when a shadow is swapped in or restarted (a structural event every
// warmup + window samples at most). One thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/ensemble/distributional_sgbt.hpp"
#include "irithyll/ensemble/moe_gate.hpp"
#include "irithyll/interval.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

struct MoEDistributionalSGBTConfig {
  std::uint32_t n_experts = 4;             // [1, 64]
  double gate_lr = 0.01;                   // (0, 10]
  MoERouting routing = MoERouting::kSoft;  // soft | topk
  std::uint32_t top_k = 1;                 // [1, 64], clamped to n_experts
  double shadow_delta = 1e-3;              // (0, 0.5]; Hoeffding confidence of a swap
  std::uint32_t shadow_warmup = 500;       // [10, 1e8]; routed samples before a shadow is tested
  std::uint32_t shadow_window = 2000;      // [10, 1e8]; routed samples a shadow is tested for
  DistributionalSGBTConfig expert{};       // scale model, half-life, calibration (its `base` is ignored)
  SGBTConfig base{};                       // every expert's SGBT settings (seed set per expert)

  Status validate() const;
  // Reads the binary layout of the first record version (nothing writes it
  // any more: checkpoints save the settings by name).
  Status decode(ByteReader& in);
  // The expert settings: `expert` with `base` and the given seed.
  DistributionalSGBTConfig expert_config(std::uint64_t seed) const;
};

// Own rows (gate, shadows, then distributional_sgbt's rows); MoEDistributionalSGBT::config_fields() adds the SGBT rows.
std::span<const ConfigField<MoEDistributionalSGBTConfig>> moe_distributional_sgbt_config_fields();

class MoEDistributionalSGBT final : public Learner, public IntervalPredictor {
 public:
  using Config = MoEDistributionalSGBTConfig;
  static constexpr std::string_view kName = "moe_distributional_sgbt";
  // The gate, shadow and scale rows, then the shared SGBT rows for `base`.
  static std::span<const ConfigField<Config>> config_fields();

  MoEDistributionalSGBT();
  // REQUIRES: config.validate() ok (make() checks).
  explicit MoEDistributionalSGBT(const MoEDistributionalSGBTConfig& config);
  // Regression only; the seed from the context (config.base.seed is
  // overwritten), the width from the first sample.
  static Result<std::unique_ptr<MoEDistributionalSGBT>> make(const Config& config, const LearnerContext& context);

  std::string_view name() const override { return kName; }
  Task task() const override { return Task::kRegression; }
  std::size_t n_features() const override { return gate_.n_features(); }

  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  Interval predict_interval(std::span<const double> x, double level) const override;
  // Mixture mean and standard deviation at x.
  std::pair<double, double> predict_mu_sigma(std::span<const double> x) const;
  void gate_probabilities(std::span<const double> x, std::span<double> out) const { gate_.probabilities(x, out); }

  void reset() override;
  std::uint64_t n_samples_seen() const override { return samples_seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const MoEDistributionalSGBTConfig& config() const { return config_; }
  std::size_t n_experts() const { return experts_.size(); }
  const DistributionalSGBT& expert(std::size_t k) const { return experts_[k].active; }
  std::uint64_t n_swaps() const { return swaps_; }

 private:
  // One mixture slot: the expert, its challenger and the running test.
  struct Slot {
    DistributionalSGBT active, shadow;
    std::uint64_t shadow_age = 0;              // routed samples the shadow has learned
    double sum_w = 0, sum_w2 = 0, sum_wd = 0;  // weighted NLL-difference sums of the window
    double range = 0;                          // largest |d| in the window
  };
  void restart_shadow(Slot& s);
  // The next shadow expert, seeded by generation_ (which it advances).
  DistributionalSGBT next_shadow();
  void test_shadow(Slot& s, double w, double nll_active, double nll_shadow);

  MoEDistributionalSGBTConfig config_{};
  MoEGate gate_;
  std::vector<Slot> experts_;
  std::uint64_t generation_ = 0;  // shadows made so far (seeds each one distinctly)
  std::uint64_t swaps_ = 0;
  std::uint64_t samples_seen_ = 0, skipped_ = 0;
  mutable std::vector<double> probs_, route_, mu_;  // scratch (mu_: the experts' means)
  mutable double last_level_ = -1.0, last_z_ = 0.0;
};

}  // namespace irithyll
