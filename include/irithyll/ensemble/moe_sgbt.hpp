// MoESGBT ("moe_sgbt"): a mixture of K streaming gradient-boosted experts
// behind a learned softmax gate (MoEGate: Jacobs et al. 1991).
//
//   predict:  regression     y_hat = sum_k r_k(x) f_k(x)
//             classification p(c|x) = sum_k r_k(x) p_k(c|x)
//   where r = the routing weights: the gate probabilities (soft), or the k
//   largest renormalised (topk; the other experts are not evaluated).
//
//   learn (x, y, w):
//     1. the gate probabilities g(x) and routing r(x), before anything learns;
//     2. every expert's prequential loss on (x, y) (squared error, or the
//        log-loss -log p_k(y)); the gate's target is the lowest (the Rust library's
//        rule; responsibilities would need a noise model the experts lack);
//     3. expert k learns (x, y) with weight w * n_routed * r_k (skipped when
//        r_k = 0): the sample weight reaches the trees (SGBT scales g and h by
//        it), so soft routing is real (the Rust library drops the weight and every
//        expert learned every sample alike). The factor n_routed (K for soft,
//        k for topk) makes a uniform gate hand each expert the sample at its
//        own weight w, so a 1-expert mixture is exactly an SGBT;
//     4. one gate SGD step (lr gate_lr, scaled by w).
//   A weight-2 sample is not the same as the sample seen twice: the trees take
//   one Newton step with doubled g and h (the second of two repeats would see
//   the gradient after the first), and the gate takes one doubled SGD step.
//
// Experts are SGBTLearners (regression with the squared loss; binary logistic
// or K-class softmax), each seeded from the model seed and its index.
// Input guards as SGBTLearner: a bad sample is skipped and counted. Cost per
// sample: learn = K expert predictions + the routed experts' training; predict
// = the routed experts. No allocation after the first sample (structural tree
// events aside). Memory: K SGBTs + the gate's K x (d + 1) weights.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/ensemble/moe_gate.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

struct MoESGBTConfig {
  std::uint32_t n_experts = 4;             // [1, 64]
  double gate_lr = 0.01;                   // (0, 10]; SGD rate of the gate
  MoERouting routing = MoERouting::kSoft;  // soft | topk
  std::uint32_t top_k = 1;                 // [1, 64]; topk routing: experts per sample (clamped to n_experts)
  SGBTConfig base{};                       // every expert's settings (seed set per expert)

  Status validate() const;
  // Reads the binary layout of the first record version (nothing writes it
  // any more: checkpoints save the settings by name).
  Status decode(ByteReader& in);
};

// Own rows (n-experts, gate-lr, routing, top-k); MoESGBT::config_fields() adds the SGBT rows for `base`.
std::span<const ConfigField<MoESGBTConfig>> moe_sgbt_config_fields();

class MoESGBT final : public Learner {
 public:
  using Config = MoESGBTConfig;
  static constexpr std::string_view kName = "moe_sgbt";
  // The gate rows, then the shared SGBT rows for `base`.
  static std::span<const ConfigField<Config>> config_fields();

  MoESGBT();  // blank regression instance, e.g. to decode() into
  // REQUIRES: config valid; classification n_classes >= 2 (make() checks).
  MoESGBT(const MoESGBTConfig& config, const LearnerContext& context);
  // Task, classes and seed from the context (config.base.seed is overwritten;
  // the width comes from the first sample).
  static Result<std::unique_ptr<MoESGBT>> make(const Config& config, const LearnerContext& context);

  std::string_view name() const override { return kName; }
  Task task() const override { return task_; }
  std::size_t n_classes() const override { return task_ == Task::kClassification ? n_classes_ : 0; }
  std::size_t n_features() const override { return gate_.n_features(); }

  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;

  // The gate probabilities g(x) (before routing). REQUIRES: out.size() == n_experts().
  void gate_probabilities(std::span<const double> x, std::span<double> out) const { gate_.probabilities(x, out); }
  // The routing weights r(x) used for prediction and for the experts' sample weights.
  void routing_weights(std::span<const double> x, std::span<double> out) const;

  void reset() override;
  std::uint64_t n_samples_seen() const override { return samples_seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const MoESGBTConfig& config() const { return config_; }
  std::size_t n_experts() const { return experts_.size(); }
  const SGBTLearner& expert(std::size_t k) const { return experts_[k]; }

 private:
  double expert_loss(std::size_t k, std::span<const double> x, double y) const;

  MoESGBTConfig config_{};
  Task task_ = Task::kRegression;
  std::size_t n_classes_ = 0;
  MoEGate gate_;
  std::vector<SGBTLearner> experts_;
  std::uint64_t samples_seen_ = 0, skipped_ = 0;
  mutable std::vector<double> probs_, route_, proba_, mix_;  // scratch
};

}  // namespace irithyll
