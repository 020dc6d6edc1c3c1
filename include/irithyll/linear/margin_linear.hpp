// Mistake- and margin-driven linear learners. Two classes use one output
// with y = +1 for class 1 and -1 for class 0; more classes are one-vs-rest
// (output k sees +1 for class k). Probabilities are the sigmoids of the
// scores, normalised over the outputs (these scores are not calibrated).
//
//   passive_aggressive  Crammer, Dekel, Keshet, Shalev-Shwartz & Singer 2006.
//     Loss l = max(0, 1 - y s) (classification) or max(0, |y - s| - epsilon)
//     (regression), s = w.z + b. The step tau is l/|z|^2 (PA),
//     min(C, l/|z|^2) (PA-I, eq. 6) or l/(|z|^2 + 1/(2C)) (PA-II), and
//     w += tau y z, b += tau y (regression: the sign of y - s for y). |z|^2
//     leaves the intercept's constant input out, so the model takes the same
//     steps as scikit-learn's PassiveAggressive*. A sample weight w scales C
//     (PA-I, PA-II); PA has no C, so it ignores the weight.
//   perceptron  Rosenblatt: when y s <= 0, w += eta weight y z, b += eta weight y.
//   alma        ALMA_2 (Gentile 2001, "A new approximate maximal margin
//     classification algorithm"): z is scaled to unit p-norm (the intercept's
//     constant input 1 included); with k the update count so far (from 1),
//     when y w.z <= (1 - alpha) B sqrt(p - 1)/sqrt(k):
//     w += C/(sqrt(p - 1) sqrt(k)) weight y z, then w /= max(1, |w|_q) with
//     1/p + 1/q = 1, and k += 1. For p != 2 this is the norm-projection form
//     River uses, not the link-function form of ALMA_p.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/linear/linear_core.hpp"

namespace irithyll {

// OvR outputs and the sigmoid link, shared by the three.
class MarginLinear : public LinearCore {
 protected:
  std::size_t outputs_for(const LearnerContext& context) const {
    return context.task == Task::kRegression || context.n_classes == 2 ? 1 : context.n_classes;
  }
  // Output k's label in {-1, +1}.
  double sign_label(std::size_t k, double y) const {
    if (n_out_ == 1) return y > 0.5 ? 1.0 : -1.0;
    return static_cast<double>(k) == y ? 1.0 : -1.0;
  }
  void link(std::span<const double> scores, std::span<double> proba) const override;
  // The record every margin learner writes: version, config, context, core.
  template <class Config>
  void encode_record(std::span<const ConfigField<Config>> fields, const Config& config, ByteWriter& out) const;
  // Reads version, config and context; the caller then inits and decode_core()s.
  template <class Config>
  Status decode_head(std::span<const ConfigField<Config>> fields, ByteReader& in, Config& config,
                     LearnerContext& context) const;
};

enum class PaMode : std::uint8_t { kPa = 0, kPa1 = 1, kPa2 = 2 };

struct PassiveAggressiveConfig {
  PaMode mode = PaMode::kPa1;
  double c = 1.0;
  double epsilon = 0.1;
  bool intercept = true;
  bool standardize = true;
};

class PassiveAggressiveLearner final : public MarginLinear {
 public:
  using Config = PassiveAggressiveConfig;
  static constexpr std::string_view kName = "passive_aggressive";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<PassiveAggressiveLearner>> make(const Config& config, const LearnerContext& context);
  PassiveAggressiveLearner() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;
  Status init(const Config& config, const LearnerContext& context);

 private:
  void update(std::span<const double> z, double y, double weight) override;
  void step(std::size_t k, std::span<const double> z, double direction, double loss, double sq, double weight);
  Config config_;
};

struct PerceptronConfig {
  double learning_rate = 1.0;
  bool intercept = true;
  bool standardize = true;
};

class PerceptronLearner final : public MarginLinear {
 public:
  using Config = PerceptronConfig;
  static constexpr std::string_view kName = "perceptron";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<PerceptronLearner>> make(const Config& config, const LearnerContext& context);
  PerceptronLearner() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;
  Status init(const Config& config, const LearnerContext& context);

 private:
  void update(std::span<const double> z, double y, double weight) override;
  Config config_;
};

struct AlmaConfig {
  double p = 2.0;
  double alpha = 0.9;
  double b = 1.0 / 0.9;
  double c = 1.4142135623730951;  // sqrt(2)
  bool intercept = true;
  bool standardize = true;
};

class AlmaLearner final : public MarginLinear {
 public:
  using Config = AlmaConfig;
  static constexpr std::string_view kName = "alma";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<AlmaLearner>> make(const Config& config, const LearnerContext& context);
  AlmaLearner() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;
  Status init(const Config& config, const LearnerContext& context);

 private:
  void update(std::span<const double> z, double y, double weight) override;
  double aux_initial() const override { return 1.0; }
  Config config_;
};

}  // namespace irithyll
