#include "irithyll/loss/loss.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace irithyll {
namespace {

TEST(Loss, SquaredValuesAtSamplePoints) {
  const Loss l(LossKind::kSquared);
  EXPECT_DOUBLE_EQ(l.gradient(1.0, 3.0), 2.0);
  EXPECT_DOUBLE_EQ(l.hessian(1.0, 3.0), 1.0);
  EXPECT_DOUBLE_EQ(l.value(1.0, 3.0), 2.0);
  EXPECT_DOUBLE_EQ(l.transform(-7.5), -7.5);
}

TEST(Loss, LogisticValuesAndHessianFloor) {
  const Loss l(LossKind::kLogistic);
  EXPECT_DOUBLE_EQ(l.gradient(1.0, 0.0), -0.5);
  EXPECT_DOUBLE_EQ(l.hessian(1.0, 0.0), 0.25);
  EXPECT_NEAR(l.value(1.0, 0.0), std::log(2.0), 1e-15);
  EXPECT_DOUBLE_EQ(l.hessian(0.0, 1000.0), 1e-16);  // p(1-p) underflows to 0 -> floor
  EXPECT_DOUBLE_EQ(l.transform(0.0), 0.5);
  EXPECT_TRUE(std::isfinite(l.value(0.0, 1000.0)));  // p clamped to 1 - 1e-15
}

TEST(Loss, SigmoidStableAtExtremes) {
  EXPECT_DOUBLE_EQ(sigmoid(1000.0), 1.0);
  EXPECT_DOUBLE_EQ(sigmoid(-1000.0), 0.0);
  EXPECT_NEAR(sigmoid(2.0) + sigmoid(-2.0), 1.0, 1e-15);
}

TEST(Loss, HuberInsideAndOutsideDelta) {
  const Loss l(LossKind::kHuber, 1.0);
  EXPECT_DOUBLE_EQ(l.gradient(0.0, 0.5), 0.5);
  EXPECT_DOUBLE_EQ(l.hessian(0.0, 0.5), 1.0);
  EXPECT_DOUBLE_EQ(l.gradient(0.0, 3.0), 1.0);
  EXPECT_DOUBLE_EQ(l.gradient(0.0, -3.0), -1.0);
  EXPECT_DOUBLE_EQ(l.hessian(0.0, 3.0), 1e-6);
  EXPECT_DOUBLE_EQ(l.value(0.0, 3.0), 2.5);
}

TEST(Loss, QuantilePinball) {
  const Loss l(LossKind::kQuantile, 0.9);
  EXPECT_NEAR(l.gradient(1.0, 2.0), 0.1, 1e-15);
  EXPECT_NEAR(l.gradient(1.0, 1.0), 0.1, 1e-15);  // f >= y
  EXPECT_NEAR(l.gradient(1.0, 0.0), -0.9, 1e-15);
  EXPECT_DOUBLE_EQ(l.hessian(1.0, 0.0), 1.0);
  EXPECT_NEAR(l.value(1.0, 0.0), 0.9, 1e-15);
  EXPECT_NEAR(l.value(1.0, 2.0), 0.1, 1e-15);
}

TEST(Loss, ExpectileAsymmetricSquares) {
  const Loss l(LossKind::kExpectile, 0.8);
  EXPECT_NEAR(l.gradient(0.0, 2.0), 3.2, 1e-15);
  EXPECT_NEAR(l.hessian(0.0, 2.0), 1.6, 1e-15);
  EXPECT_NEAR(l.gradient(0.0, -1.0), -0.4, 1e-15);
  EXPECT_NEAR(l.hessian(0.0, -1.0), 0.4, 1e-15);
  EXPECT_NEAR(l.value(0.0, 2.0), 3.2, 1e-15);
}

TEST(Loss, GradientsMatchFiniteDifferencesOfTheValue) {
  const double ys[] = {0.0, 1.0};
  const double fs[] = {-1.3, -0.2, 0.4, 1.7};
  for (const auto& row : loss_table()) {
    if (row.kind == LossKind::kQuantile) continue;  // kink; gradient is a subgradient
    const Loss l(row.kind, row.has_param ? (row.kind == LossKind::kHuber ? 5.0 : 0.3) : 0.0);
    for (double y : ys)
      for (double f : fs) {
        const double e = 1e-6;
        const double fd = (l.value(y, f + e) - l.value(y, f - e)) / (2 * e);
        EXPECT_NEAR(l.gradient(y, f), fd, 1e-6) << row.name << " y=" << y << " f=" << f;
      }
  }
}

TEST(Loss, InitialPredictions) {
  const std::vector<double> y = {3.0, 1.0, 2.0, 10.0};
  EXPECT_DOUBLE_EQ(Loss(LossKind::kSquared).initial_prediction(y), 4.0);
  EXPECT_DOUBLE_EQ(Loss(LossKind::kHuber).initial_prediction(y), 3.0);  // sorted index floor(0.5*4) = 2
  EXPECT_DOUBLE_EQ(Loss(LossKind::kQuantile, 0.25).initial_prediction(y), 2.0);  // index 1
  EXPECT_DOUBLE_EQ(Loss(LossKind::kQuantile, 0.9).initial_prediction(y), 10.0);  // index 3
  const std::vector<double> b = {1.0, 0.0, 0.0, 0.0};
  EXPECT_NEAR(Loss(LossKind::kLogistic).initial_prediction(b), std::log(0.25 / 0.75), 1e-12);
  EXPECT_NEAR(Loss(LossKind::kSoftmax).initial_prediction(b), std::log(0.25), 1e-12);
  const std::vector<double> ones = {1.0, 1.0};
  EXPECT_NEAR(Loss(LossKind::kLogistic).initial_prediction(ones), std::log((1 - 1e-7) / 1e-7), 1e-6);
  const std::vector<double> w = {1.0, 1.0, 1.0, 3.0};
  EXPECT_DOUBLE_EQ(Loss(LossKind::kSquared).initial_prediction(y, w), (3.0 + 1.0 + 2.0 + 30.0) / 6.0);
  EXPECT_DOUBLE_EQ(Loss(LossKind::kSquared).initial_prediction({}), 0.0);
}

TEST(Loss, TableParsesEveryNameAndValidatesParameters) {
  for (const auto& row : loss_table()) {
    auto k = parse_loss_kind(row.name);
    ASSERT_TRUE(k.is_ok());
    EXPECT_EQ(*k, row.kind);
    EXPECT_EQ(&loss_traits(row.kind), &row);
    EXPECT_TRUE(Loss(row.kind).validate().is_ok()) << row.name;
  }
  EXPECT_FALSE(parse_loss_kind("hinge").is_ok());
  EXPECT_FALSE(Loss(LossKind::kQuantile, 1.0).validate().is_ok());
  EXPECT_FALSE(Loss(LossKind::kHuber, -1.0).validate().is_ok());
  EXPECT_FALSE(Loss(LossKind::kExpectile, 0.0).validate().is_ok());
}

// The flag the drift monitor relies on: losses marked as scaling with the
// target give c*g on a target and score scaled by c; the others stay bounded
// (by 1, or by Huber's delta) however large the target.
TEST(Loss, GradientScaleFlagMatchesTheGradients) {
  const double ys[] = {-3.0, -0.2, 0.0, 0.7, 1.0, 4.5};
  const double fs[] = {-2.0, 0.0, 0.3, 1.0, 6.0};
  for (const auto& row : loss_table()) {
    const Loss l(row.kind);
    for (double y : ys)
      for (double f : fs) {
        double g1, h1, gc, hc;
        l.grad_hess(y, f, g1, h1);
        if (l.gradient_scales_with_target()) {
          l.grad_hess(1000.0 * y, 1000.0 * f, gc, hc);
          EXPECT_NEAR(gc, 1000.0 * g1, 1e-9 * std::fabs(gc) + 1e-12) << row.name;
        } else {
          // Class losses take 0/1 labels; only their score can be large.
          const bool labels = row.kind == LossKind::kLogistic || row.kind == LossKind::kSoftmax;
          l.grad_hess(labels ? (y > 0.0 ? 1.0 : 0.0) : 1000.0 * y, 1000.0 * f, gc, hc);
          EXPECT_LE(std::fabs(gc), std::max(1.0, l.param()) + 1e-12) << row.name;
        }
      }
  }
}

}  // namespace
}  // namespace irithyll
