// Each generic estimator check can fail: a toy regressor that keeps the
// contract passes all of them, and the same toy with one flaw switched on
// fails the check written for that flaw. Without this, a check that can never
// fail (a comparison of a model with itself, a tolerance too loose) would pass
// every catalogue row in silence.
//
// The toy predicts (sum w*y + sum w*x0 * x0) / (sum w + 1) from weighted sums,
// which is enough state for every flaw to show in its predictions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "estimator/estimator_checks.hpp"

namespace irithyll {
namespace {

using namespace estimator_checks;

enum class Flaw {
  kNone,
  kResetKeepsState,       // reset() clears the counter but not the sums
  kCheckpointDropsField,  // encode() leaves out the x0 sum
  kNondeterministic,      // each instance shifts its predictions by its own serial number
  kPredictLearns,         // predict_one() leaves a cache that learn_one() reads
  kLearnsZeroWeight,      // a zero weight is read as 1
  kAcceptsWrongWidth,     // never fixes its width, learns x0 from any row
  kEmitsNaN,              // sums x0 as given, NaN and inf included
  kMemoryGrows,           // keeps every target it saw
  kIgnoresWeight,         // any positive weight counts as 1
};

class ToyMean : public Learner {
 public:
  explicit ToyMean(Flaw flaw) : flaw_(flaw), serial_(++instances_) {}

  std::string_view name() const override { return "toy_mean"; }
  Task task() const override { return Task::kRegression; }
  std::size_t n_features() const override { return flaw_ == Flaw::kAcceptsWrongWidth ? 0 : kFeatures; }

  void learn_one(std::span<const double> x, double y, double weight) override {
    if (flaw_ == Flaw::kLearnsZeroWeight && weight == 0.0) weight = 1.0;
    if (flaw_ == Flaw::kIgnoresWeight && weight > 0.0) weight = 1.0;
    if (!sample_admissible(x, y, weight, n_features(), Task::kRegression, 0)) {
      ++skipped_;
      return;
    }
    const double x0 = flaw_ == Flaw::kEmitsNaN || std::isfinite(x[0]) ? x[0] : 0.0;  // a missing x0 counts as 0
    sum_w_ += weight;
    sum_wy_ += weight * y + (flaw_ == Flaw::kPredictLearns ? 1e-3 * last_prediction_ : 0.0);
    sum_wx_ += weight * x0;
    if (flaw_ == Flaw::kMemoryGrows) history_.push_back(y);
    ++n_seen_;
  }
  std::uint64_t n_skipped() const override { return skipped_; }

  double predict_one(std::span<const double> x) const override {
    const double x0 = !x.empty() && std::isfinite(x[0]) ? x[0] : 0.0;
    // One pseudo-sample at 0 (the + 1) makes the weight of what was seen
    // show, so a weight counted once is told from a sample seen twice.
    const double p = (sum_wy_ + sum_wx_ * x0) / (sum_w_ + 1.0);
    last_prediction_ = p;
    return flaw_ == Flaw::kNondeterministic ? p + 1e-9 * static_cast<double>(serial_) : p;
  }

  void reset() override {
    n_seen_ = skipped_ = 0;
    history_.clear();
    last_prediction_ = 0.0;
    if (flaw_ == Flaw::kResetKeepsState) return;
    sum_w_ = sum_wy_ = sum_wx_ = 0.0;
  }
  std::uint64_t n_samples_seen() const override { return n_seen_; }
  std::size_t memory_bytes() const override { return sizeof(*this) + history_.capacity() * sizeof(double); }

  void encode(ByteWriter& out) const override {
    out.u64(n_seen_);
    out.u64(skipped_);
    out.f64(sum_w_);
    out.f64(sum_wy_);
    if (flaw_ != Flaw::kCheckpointDropsField) out.f64(sum_wx_);
    out.u64(history_.size());
    for (double y : history_) out.f64(y);
  }
  Status decode(ByteReader& in) override {
    const std::uint64_t n_seen = in.u64();
    const std::uint64_t skipped = in.u64();
    const double sum_w = in.f64(), sum_wy = in.f64();
    const double sum_wx = flaw_ == Flaw::kCheckpointDropsField ? 0.0 : in.f64();
    const std::size_t n = in.read_count(8, "toy history");
    std::vector<double> history;
    for (std::size_t i = 0; i < n && in.ok(); ++i) history.push_back(in.f64());
    if (!in.ok()) return in.status();
    n_seen_ = n_seen, skipped_ = skipped, sum_w_ = sum_w, sum_wy_ = sum_wy, sum_wx_ = sum_wx;
    history_ = std::move(history);
    return Status::ok();
  }

 private:
  static inline std::uint64_t instances_ = 0;
  Flaw flaw_;
  std::uint64_t serial_;
  std::uint64_t n_seen_ = 0, skipped_ = 0;
  double sum_w_ = 0.0, sum_wy_ = 0.0, sum_wx_ = 0.0;
  std::vector<double> history_;
  mutable double last_prediction_ = 0.0;
};

Subject toy(Flaw flaw) {
  Subject s;
  s.task = Task::kRegression;
  s.make = [flaw](std::uint64_t) -> std::unique_ptr<Learner> { return std::make_unique<ToyMean>(flaw); };
  s.blank = [flaw]() -> std::unique_ptr<Learner> { return std::make_unique<ToyMean>(flaw); };
  return s;
}

TEST(EstimatorChecksCanFail, TheSoundToyPassesEveryCheck) {
  const Subject s = toy(Flaw::kNone);
  EXPECT_TRUE(check_reset(s));
  EXPECT_TRUE(check_checkpoint(s));
  EXPECT_TRUE(check_same_seed(s));
  EXPECT_TRUE(check_predict_pure(s));
  EXPECT_TRUE(check_zero_weight(s));
  EXPECT_TRUE(check_wrong_width(s));
  EXPECT_TRUE(check_bad_values(s));
  EXPECT_TRUE(check_memory(s));
  EXPECT_TRUE(check_double_weight(s));
}

// The check fails, and for the reason it was written for.
testing::AssertionResult fails_with(const testing::AssertionResult& result, const std::string& reason) {
  if (result) return testing::AssertionFailure() << "the check passed";
  const std::string message = result.message();
  if (message.find(reason) == std::string::npos)
    return testing::AssertionFailure() << "failed for another reason: " << message;
  return testing::AssertionSuccess() << message;
}

TEST(EstimatorChecksCanFail, ResetThatKeepsState) {
  EXPECT_TRUE(fails_with(check_reset(toy(Flaw::kResetKeepsState)), "a reset model predicts unlike a fresh one"));
}
TEST(EstimatorChecksCanFail, CheckpointThatDropsAField) {
  EXPECT_TRUE(fails_with(check_checkpoint(toy(Flaw::kCheckpointDropsField)), "the decoded model predicts differently"));
}
TEST(EstimatorChecksCanFail, NondeterministicModel) {
  EXPECT_TRUE(fails_with(check_same_seed(toy(Flaw::kNondeterministic)), "two models with seed 11"));
}
TEST(EstimatorChecksCanFail, PredictionThatLearns) {
  EXPECT_TRUE(fails_with(check_predict_pure(toy(Flaw::kPredictLearns)), "predicting before each learn"));
}
TEST(EstimatorChecksCanFail, LearnsFromZeroWeight) {
  EXPECT_TRUE(fails_with(check_zero_weight(toy(Flaw::kLearnsZeroWeight)), "zero-weight samples changed the model"));
}
TEST(EstimatorChecksCanFail, AcceptsAWrongWidth) {
  EXPECT_TRUE(fails_with(check_wrong_width(toy(Flaw::kAcceptsWrongWidth)), "check_sample accepts 5 features"));
}
TEST(EstimatorChecksCanFail, EmitsNaN) {
  EXPECT_TRUE(fails_with(check_bad_values(toy(Flaw::kEmitsNaN)), "non-finite prediction"));
}
TEST(EstimatorChecksCanFail, MemoryGrowsLinearly) {
  EXPECT_TRUE(fails_with(check_memory(toy(Flaw::kMemoryGrows)), "over 2700-3000"));
}
TEST(EstimatorChecksCanFail, IgnoresItsWeight) {
  EXPECT_TRUE(fails_with(check_double_weight(toy(Flaw::kIgnoresWeight)), "weight 2 gives"));
}

}  // namespace
}  // namespace irithyll
