// rls: recursive least squares as a regressor (exponentially weighted least
// squares, Haykin, Adaptive Filter Theory, ch. 10), on standardised features
// plus a constant input 1 for the intercept. The filter is the readout RLS of
// the neural learners (gain, covariance windup guard, record).
//
// A sample weight w enters as sqrt(w) on the input and the target, which is
// exactly weighted least squares: the row counts w times in sum w_i (y_i -
// b.x_i)^2. With forgetting factor 1 and delta -> infinity the coefficients
// are the ordinary least-squares solution of everything seen (ridge with
// penalty 1/delta for finite delta).
//
// Cost O((d+1)^2) per sample, (d+1)^2 + O(d) doubles; nothing allocated per
// sample. Thread safety: one owner.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/linear/standardizer.hpp"

namespace irithyll {

class RecursiveLeastSquares;

struct RlsLearnerConfig {
  double forgetting_factor = 0.999;
  double delta = 100.0;
  bool intercept = true;
  bool standardize = true;
};

class RlsLearner final : public Learner {
 public:
  using Config = RlsLearnerConfig;
  static constexpr std::string_view kName = "rls";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<RlsLearner>> make(const Config& config, const LearnerContext& context);

  RlsLearner();
  ~RlsLearner() override;
  const Config& config() const { return config_; }

  std::string_view name() const override { return kName; }
  Task task() const override { return Task::kRegression; }
  std::size_t n_features() const override { return width_; }
  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  // The filter's coefficients (per standardised feature, then the intercept).
  std::span<const double> coefficients() const;

 private:
  Status init(const Config& config, const LearnerContext& context);
  void allocate(std::size_t width);
  // u = (z, 1) (or z without the intercept) into u_.
  void augment(std::span<const double> x) const;

  Config config_;
  LearnerContext context_;
  std::size_t width_ = 0;
  Standardizer scaler_;
  std::unique_ptr<RecursiveLeastSquares> rls_;
  mutable std::vector<double> u_;
  std::uint64_t seen_ = 0;
  std::uint64_t skipped_ = 0;
};

}  // namespace irithyll
