// LeveragingBagging: Poisson(6) weights, ADWIN resets after a change,
// output codes, checkpoint continuation.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/leveraging_bagging.hpp"

namespace irithyll {
namespace {

std::unique_ptr<LeveragingBagging> make_lb(LeveragingBaggingConfig c, std::size_t n_classes, std::uint64_t seed = 3) {
  LearnerContext ctx;
  ctx.task = Task::kClassification;
  ctx.n_classes = n_classes;
  ctx.n_features = 4;
  ctx.seed = seed;
  auto m = LeveragingBagging::make(c, ctx);
  EXPECT_TRUE(static_cast<bool>(m)) << m.status().message();
  return std::move(m).value();
}

// Label = x0 + x1 > 1 (flipped when `flipped`); 4 features.
void feed(LeveragingBagging& m, Xorshift64& rng, int n, bool flipped, int* correct = nullptr) {
  std::vector<double> x(4);
  for (int i = 0; i < n; ++i) {
    for (double& v : x) v = rng.uniform();
    double y = x[0] + x[1] > 1.0 ? 1.0 : 0.0;
    if (flipped) y = 1.0 - y;
    if (correct != nullptr && m.predict_one(x) == y) ++*correct;
    m.learn_one(x, y);
  }
}

TEST(LeveragingBagging, PoissonWeightsHaveMeanLambda) {
  auto m = make_lb(LeveragingBaggingConfig{}, 2);
  Xorshift64 rng(1);
  feed(*m, rng, 20000, false);
  // 200000 draws of Poisson(6): the mean's standard error is sqrt(6 / 2e5)
  // = 0.0055, so +-0.05 is 9 standard errors (false-failure rate < 1e-18).
  const double mean = m->poisson_total() / (static_cast<double>(m->n_learned()) * 10.0);
  EXPECT_NEAR(mean, 6.0, 0.05);
}

TEST(LeveragingBagging, ChangeResetsMembersAndAccuracyRecovers) {
  auto m = make_lb(LeveragingBaggingConfig{}, 2);
  Xorshift64 rng(2);
  feed(*m, rng, 4000, false);
  const std::uint64_t before = m->n_resets();
  feed(*m, rng, 4000, true);
  EXPECT_GT(m->n_resets(), before);
  int correct = 0;
  feed(*m, rng, 1000, true, &correct);
  EXPECT_GT(correct, 800);  // members kept from the old concept would score ~0 %
}

TEST(LeveragingBagging, OutputCodesSplitTheClassesInHalf) {
  LeveragingBaggingConfig c;
  c.output_codes = true;
  auto m = make_lb(c, 5);
  ASSERT_TRUE(m->coded());
  for (std::size_t i = 0; i < m->n_members(); ++i) {
    int ones = 0;
    for (std::size_t k = 0; k < 5; ++k) ones += m->code(i, k);
    EXPECT_EQ(ones, 2);
  }
  EXPECT_FALSE(make_lb(c, 2)->coded());  // two classes need no code
  // Three well-separated classes on x0 are still learned through the codes.
  auto m3 = make_lb(c, 3);
  Xorshift64 rng(4);
  int correct = 0;
  std::vector<double> x(4);
  for (int i = 0; i < 6000; ++i) {
    for (double& v : x) v = rng.uniform();
    const double y = std::floor(x[0] * 3.0);
    if (i >= 5000 && m3->predict_one(x) == y) ++correct;
    m3->learn_one(x, y);
  }
  EXPECT_GT(correct, 850);
}

TEST(LeveragingBagging, CheckpointContinuesBitIdentically) {
  LeveragingBaggingConfig c;
  c.output_codes = true;
  auto a = make_lb(c, 3);
  Xorshift64 rng(6);
  std::vector<double> x(4);
  auto step = [&](LeveragingBagging& m, std::span<const double> xs, double y) { m.learn_one(xs, y); };
  for (int i = 0; i < 3000; ++i) {
    for (double& v : x) v = rng.uniform();
    step(*a, x, std::floor(x[1] * 3.0));
  }
  ByteWriter w;
  a->encode(w);
  LeveragingBagging b;
  ByteReader r(w.data());
  ASSERT_TRUE(b.decode(r).is_ok());
  for (int i = 0; i < 2000; ++i) {
    for (double& v : x) v = rng.uniform();
    const double y = std::floor(x[0] * 3.0);  // a new concept: resets happen after the restore
    ASSERT_EQ(a->predict_one(x), b.predict_one(x));
    a->learn_one(x, y);
    b.learn_one(x, y);
  }
  EXPECT_EQ(a->n_resets(), b.n_resets());
  for (const std::size_t cut : std::vector<std::size_t>{1, w.data().size() / 2, w.data().size() - 1}) {
    LeveragingBagging t;
    ByteReader rc(std::span(w.data()).first(cut));
    EXPECT_FALSE(t.decode(rc).is_ok());
  }
}

TEST(LeveragingBagging, RefusesRegression) {
  LearnerContext ctx;
  ctx.task = Task::kRegression;
  EXPECT_FALSE(static_cast<bool>(LeveragingBagging::make(LeveragingBaggingConfig{}, ctx)));
}

}  // namespace
}  // namespace irithyll
