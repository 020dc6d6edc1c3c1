// Continual learning on the SGD linear models (continual = ewc | mask): the
// guard sits between the gradient and the optimiser's step. Off, a model
// learns and encodes exactly as without the setting; EWC holds the
// coefficients near their values at the last drift; a full mask freezes
// them; checkpoints carry the guard.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/linear/sgd_linear.hpp"
#include "linear_test_support.hpp"

namespace irithyll {
namespace {

using Sample = std::pair<std::vector<double>, double>;

// y = 3 x0 - 2 x1 + noise, and y = -3 x0 + 2 x1 from `flip` on.
std::vector<Sample> flipping_line(std::size_t n, std::size_t flip, std::uint64_t seed) {
  Xorshift64 rng(seed);
  std::vector<Sample> out;
  for (std::size_t t = 0; t < n; ++t) {
    std::vector<double> x = {rng.normal(), rng.normal(), rng.normal()};
    const double sign = t < flip ? 1.0 : -1.0;
    out.emplace_back(x, sign * (3.0 * x[0] - 2.0 * x[1]) + 0.1 * rng.normal());
  }
  return out;
}

LearnerContext regression() {
  LearnerContext c;
  c.task = Task::kRegression;
  c.n_features = 3;
  c.seed = 5;
  return c;
}

double distance(std::span<const double> a, std::span<const double> b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(d);
}

TEST(SgdContinual, OffLearnsAndEncodesAsWithoutTheSetting) {
  auto plain = test::build<LinearRegressionLearner>({}, regression());
  auto off = test::build<LinearRegressionLearner>({{"continual", "none"}}, regression());
  ASSERT_TRUE(plain && off);
  for (const auto& [x, y] : flipping_line(3000, 1500, 1)) {
    ASSERT_TRUE(test::same_bits(plain->predict_one(x), off->predict_one(x)));
    plain->learn_one(x, y);
    off->learn_one(x, y);
  }
  ByteWriter a, b;
  plain->encode(a);
  off->encode(b);
  EXPECT_EQ(a.data(), b.data());
}

// EWC anchors at the drift its detector sees when the line flips; with a
// strong penalty the coefficients then stay near that anchor, while the
// plain model walks all the way to the new line (distance about 2 |(3, -2)|
// = 7.2 in standardised units). Deterministic given the seeds.
TEST(SgdContinual, EwcHoldsTheCoefficientsNearTheirValuesAtTheDrift) {
  const auto data = flipping_line(6000, 3000, 2);
  auto plain = test::build<LinearRegressionLearner>({}, regression());
  auto ewc = test::build<LinearRegressionLearner>(
      {{"continual", "ewc"}, {"continual-detector", "adwin"}, {"ewc-lambda", "1000"}}, regression());
  ASSERT_TRUE(plain && ewc);
  std::vector<double> before_plain, before_ewc;
  for (std::size_t t = 0; t < data.size(); ++t) {
    if (t == 3000) {
      const auto p = plain->coefficients(0), e = ewc->coefficients(0);
      before_plain.assign(p.begin(), p.end());
      before_ewc.assign(e.begin(), e.end());
    }
    plain->learn_one(data[t].first, data[t].second);
    ewc->learn_one(data[t].first, data[t].second);
  }
  const double moved_plain = distance(plain->coefficients(0), before_plain);
  const double moved_ewc = distance(ewc->coefficients(0), before_ewc);
  EXPECT_GT(moved_plain, 6.0);
  EXPECT_LT(moved_ewc, 0.5 * moved_plain);
}

// A mask of fraction 1 freezes every coefficient at the first drift: with
// plain SGD and no penalties, nothing moves after it. DDM watches rises of
// the loss only (ADWIN would also cut at the fall of the first few hundred
// samples and freeze the model before it had learned anything).
TEST(SgdContinual, AFullMaskFreezesEveryCoefficientAtTheDrift) {
  LearnerContext binary;
  binary.task = Task::kClassification, binary.n_classes = 2, binary.seed = 3;
  auto masked = test::build<LogisticRegressionLearner>(
      {{"continual", "mask"}, {"continual-detector", "ddm"}, {"continual-fraction", "1"}}, binary);
  ASSERT_TRUE(masked);
  Xorshift64 rng(3);
  std::vector<double> last;
  std::size_t last_change = 0;
  for (std::size_t t = 0; t < 6000; ++t) {
    const std::vector<double> x = {rng.normal(), rng.normal()};
    const bool above = x[0] > x[1];
    masked->learn_one(x, (t < 3000 ? above : !above) ? 1.0 : 0.0);
    const auto w = masked->coefficients(0);
    if (std::vector<double>(w.begin(), w.end()) != last) last_change = t;
    last.assign(w.begin(), w.end());
  }
  EXPECT_GT(last_change, 3000u);  // it learned until the flip was detected,
  EXPECT_LT(last_change, 3500u);  // and froze soon after it
}

TEST(SgdContinual, CheckpointsCarryTheGuard) {
  for (const char* kind : {"ewc", "mask"}) {
    SCOPED_TRACE(kind);
    auto model = test::build<LinearRegressionLearner>(
        {{"continual", kind}, {"continual-detector", "adwin"}, {"continual-fraction", "0.3"}}, regression());
    ASSERT_TRUE(model);
    const auto data = flipping_line(5000, 2000, 4);
    const std::vector<Sample> first(data.begin(), data.begin() + 2600), second(data.begin() + 2600, data.end());
    test::expect_resume_identical(*model, first, second);
  }
  LearnerContext binary;
  binary.task = Task::kClassification, binary.n_classes = 3, binary.seed = 9;
  auto softmax = test::build<SoftmaxRegressionLearner>({{"continual", "ewc"}}, binary);
  ASSERT_TRUE(softmax);
  Xorshift64 rng(9);
  std::vector<Sample> a, b;
  for (int t = 0; t < 3000; ++t) {
    std::vector<double> x = {rng.normal(), rng.normal()};
    const double y = x[0] + (t < 1500 ? x[1] : -x[1]) > 0.5 ? 2.0 : x[0] > -0.5 ? 1.0 : 0.0;
    (t < 1800 ? a : b).emplace_back(x, y);
  }
  test::expect_resume_identical(*softmax, a, b);
}

TEST(SgdContinual, RegenerationIsRefusedForALinearModel) {
  LogisticRegressionLearner::Config config;
  config.continual.kind = nn::ContinualKind::kRegen;
  LearnerContext c;
  c.task = Task::kClassification, c.n_classes = 2;
  auto made = LogisticRegressionLearner::make(config, c);
  ASSERT_FALSE(made.is_ok());
  EXPECT_NE(made.status().message().find("none|ewc|mask"), std::string::npos) << made.status().to_string();
}

}  // namespace
}  // namespace irithyll
