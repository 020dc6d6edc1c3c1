// ConformalLearner ("conformal"): prediction intervals for any regressor and
// prediction sets for any classifier, by online split conformal prediction
// with adaptive conformal inference (ACI; Gibbs & Candes 2021).
//
// The wrapped model predicts each sample before learning it, so its error
// on that sample is an honest out-of-sample nonconformity score:
//   regression      s = |y - y_hat|; interval y_hat -/+ q
//   classification  s = 1 - p_y (Sadinle, Lei & Wasserman 2019);
//                   set = { k : 1 - p_k <= q }
// q is the ceil((n + 1)(1 - alpha_t))-th smallest of the last `window`
// scores. ACI adapts the miscoverage level to drift: after each sample,
//   alpha_t+1 = alpha_t + gamma (alpha - err_t),   err_t = 1 if y was outside,
// so the long-run miss rate is within (max(alpha_1, 1 - alpha_1) + gamma) /
// (gamma T) of alpha on any sequence (their Proposition 4.1). Where the
// rank passes the window (alpha_t <= 1/(n+1), the paper's infinite
// interval) the largest score stands in, so widths stay finite; alpha_t is
// kept in [-1, 2] so a long run of misses cannot wind it up without bound.
//
// The adaptive level serves predict_interval / predict_set at the
// configured `level`; another level gets plain split conformal (no
// adaptation) from the same scores. Point predictions and probabilities are
// the wrapped model's. Cost: the model's, plus O(window) per learned sample
// to keep the scores sorted (a memmove), O(1) per interval; no allocation
// after construction. Deterministic; encode() includes the wrapped model.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/interval.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/selection/member_factory.hpp"

namespace irithyll {

struct ConformalConfig {
  std::string model = "sgbt";  // the wrapped model: "name" or "name:key=value,key=value"
  double level = 0.9;
  double gamma = 0.005;
  std::uint32_t window = 1000;
};

// The last `capacity` scores, in arrival order and sorted.
class ScoreWindow {
 public:
  ScoreWindow() = default;
  explicit ScoreWindow(std::size_t capacity) : ring_(capacity, 0.0) { sorted_.reserve(capacity); }
  void push(double score);
  void clear() { head_ = 0, sorted_.clear(); }
  std::size_t count() const { return sorted_.size(); }
  std::size_t capacity() const { return ring_.size(); }
  // The conformal quantile at miscoverage alpha: the ceil((n+1)(1-alpha))-th
  // smallest score; the largest where that rank passes n; -1 (nothing is
  // within) where it is below 1; 0 with no scores yet.
  double quantile(double alpha) const;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in, std::size_t capacity);

 private:
  std::vector<double> ring_;    // oldest is at head_ once full
  std::vector<double> sorted_;
  std::size_t head_ = 0;
};

class ConformalLearner final : public Learner, public IntervalPredictor, public SetPredictor {
 public:
  using Config = ConformalConfig;
  static constexpr std::string_view kName = "conformal";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<ConformalLearner>> make(const Config& config, const LearnerContext& context,
                                                        const MemberFactory& factory);
  // Wraps a model that already exists (`irithyll eval --interval`), fresh or
  // trained; config.model is replaced by the model's name.
  static Result<std::unique_ptr<ConformalLearner>> wrap(std::unique_ptr<Learner> model, Config config,
                                                        const MemberFactory& factory);

  ConformalLearner() = default;  // blank without a factory: decode() refuses
  explicit ConformalLearner(const MemberFactory& factory) : factory_(factory) {}
  const Config& config() const { return config_; }
  const Learner& model() const { return *model_; }
  double alpha() const { return alpha_t_; }

  std::string_view name() const override { return kName; }
  Task task() const override { return context_.task; }
  std::size_t n_classes() const override { return context_.task == Task::kClassification ? context_.n_classes : 0; }
  std::size_t n_features() const override { return model_ ? model_->n_features() : 0; }
  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  std::uint64_t n_skipped() const override { return skipped_; }
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return seen_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  Interval predict_interval(std::span<const double> x, double level) const override;
  std::size_t predict_set(std::span<const double> x, double level, std::span<std::uint8_t> in_set) const override;

 private:
  Status init(const Config& config, const LearnerContext& context, std::unique_ptr<Learner> model);
  double alpha_for(double level) const;
  double score(std::span<const double> x, double y) const;

  MemberFactory factory_;
  Config config_;
  LearnerContext context_;
  std::unique_ptr<Learner> model_;
  ScoreWindow scores_;
  double alpha_t_ = 0.1;
  std::uint64_t seen_ = 0, skipped_ = 0;
  mutable std::vector<double> proba_;
};

}  // namespace irithyll
