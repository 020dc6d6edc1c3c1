#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/nn/ttt/ttt_learner.hpp"
#include "nn/ttt/ttt_core.hpp"

namespace irithyll::nn {
namespace {

constexpr std::size_t kF = 4;

double target(const std::vector<double>& x) { return std::sin(3.0 * x[0]) + x[1] * x[2] - 0.5 * x[3]; }

std::vector<double> draw(Xorshift64& rng) {
  std::vector<double> x(kF);
  for (double& v : x) v = rng.uniform(-1.0, 1.0);
  return x;
}

TttLearner make(TttLearnerConfig c = {}, std::uint64_t seed = 42, Task task = Task::kRegression,
                std::size_t n_classes = 0) {
  auto m = TttLearner::make(c, LearnerContext{task, n_classes, 0, seed});
  EXPECT_TRUE(m.is_ok()) << m.status().message();
  return std::move(**m);
}

void train(Learner& m, Xorshift64& rng, int n) {
  for (int t = 0; t < n; ++t) {
    const auto x = draw(rng);
    m.learn_one(x, target(x));
  }
}

std::vector<std::uint8_t> bytes_of(const Learner& m) {
  ByteWriter w;
  m.encode(w);
  return w.take();
}

TEST(Ttt, PredictsZeroBeforeTheReadoutTrains) {
  TttLearnerConfig c;
  c.warmup = 5;
  auto m = make(c);
  Xorshift64 rng(1);
  const auto probe = draw(rng);
  for (int t = 0; t < 5; ++t) {
    const auto x = draw(rng);
    m.learn_one(x, 3.0);
    EXPECT_EQ(m.predict_one(probe), 0.0);
  }
  m.learn_one(draw(rng), 3.0);
  EXPECT_NE(m.predict_one(probe), 0.0);
}

// Regression test: the prediction is the readout applied to x's own
// representation (not to the last training sample's), and computing it
// changes nothing.
TEST(Ttt, PredictDependsOnXAndChangesNothing) {
  auto m = make();
  Xorshift64 rng(2);
  train(m, rng, 500);
  const auto before = bytes_of(m);
  const std::vector<double> a = {0.9, 0.9, 0.9, -0.9}, b = {-0.9, -0.5, 0.9, 0.9};
  const double pa = m.predict_one(a), pb = m.predict_one(b);
  EXPECT_NE(pa, pb);
  EXPECT_GT(std::fabs(pa - pb), 0.5);  // targets 1.63 vs -1.33
  EXPECT_EQ(bytes_of(m), before);
  EXPECT_EQ(m.predict_one(a), pa);
}

TEST(Ttt, LearnsTheTargetBetterThanItsMean) {
  auto m = make();
  Xorshift64 rng(3);
  train(m, rng, 3000);
  double se = 0.0, ss = 0.0;
  for (int t = 0; t < 500; ++t) {
    const auto x = draw(rng);
    const double y = target(x), p = m.predict_one(x);
    se += (p - y) * (p - y);
    ss += y * y;  // the target has mean ~0
  }
  EXPECT_LT(se, 0.5 * ss);
}

TEST(Ttt, SameSeedSameRunOtherSeedOtherRun) {
  auto a = make({}, 9), b = make({}, 9), c = make({}, 10);
  Xorshift64 ra(4), rb(4), rc(4);
  train(a, ra, 300);
  train(b, rb, 300);
  train(c, rc, 300);
  EXPECT_EQ(bytes_of(a), bytes_of(b));
  const std::vector<double> x = {0.1, 0.2, 0.3, 0.4};
  EXPECT_EQ(a.predict_one(x), b.predict_one(x));
  EXPECT_NE(a.predict_one(x), c.predict_one(x));
}

TEST(Ttt, CheckpointContinuesBitIdentically) {
  for (double mu : {0.0, 0.5})
    for (std::size_t batch : {1u, 16u}) {
      TttLearnerConfig c;
      c.momentum = mu;
      c.batch_size = batch;
      auto m = make(c);
      Xorshift64 rng(5);
      train(m, rng, 213);  // mid-batch
      TttLearner copy;
      const auto bytes = bytes_of(m);
      ByteReader in(bytes);
      ASSERT_TRUE(copy.decode(in).is_ok());
      EXPECT_EQ(bytes_of(copy), bytes);
      Xorshift64 r2 = rng;
      for (int t = 0; t < 300; ++t) {
        const auto x = draw(rng);
        const auto x2 = draw(r2);
        ASSERT_EQ(m.predict_one(x), copy.predict_one(x2));
        m.learn_one(x, target(x));
        copy.learn_one(x2, target(x2));
      }
      EXPECT_EQ(bytes_of(m), bytes_of(copy));
    }
}

TEST(Ttt, HostileBytesAreRefused) {
  auto m = make();
  Xorshift64 rng(6);
  train(m, rng, 50);
  const auto bytes = bytes_of(m);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    TttLearner blank;
    ByteReader in(std::span<const std::uint8_t>(bytes.data(), n));
    EXPECT_FALSE(blank.decode(in).is_ok()) << "truncated at " << n;
  }
  Xorshift64 flip(7);
  const std::vector<double> x = {0.1, 0.2, 0.3, 0.4};
  for (int t = 0; t < 2000; ++t) {
    auto bad = bytes;
    bad[flip.below(bad.size())] ^= static_cast<std::uint8_t>(1u << flip.below(8));
    TttLearner blank;
    ByteReader in(bad);
    if (blank.decode(in).is_ok()) {
      // Whatever decoded must still run with finite output.
      for (int i = 0; i < 3; ++i) blank.learn_one(x, 1.0);
      EXPECT_TRUE(std::isfinite(blank.predict_one(x))) << "flip " << t;
    }
  }
}

// A record whose context says three classes but whose readout holds two heads
// (a two-class model's state under a three-class header) is refused: decoding
// it whole would let the next class-2 target index past the last head.
TEST(Ttt, ReadoutHeadCountMustMatchTheClasses) {
  auto three = make({}, 42, Task::kClassification, 3);
  auto two = make({}, 42, Task::kClassification, 2);
  Xorshift64 rng(8);
  for (int t = 0; t < 40; ++t) {
    const auto x = draw(rng);
    three.learn_one(x, t % 3);
    two.learn_one(x, t % 2);
  }
  const auto a = bytes_of(three), b = bytes_of(two);
  // The headers differ first at the context's class count (a u64); the rest of
  // the record is taken from the two-class model.
  std::size_t p = 0;
  while (p < b.size() && a[p] == b[p]) ++p;
  ASSERT_LT(p + 8, b.size());
  std::vector<std::uint8_t> spliced(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(p + 8));
  spliced.insert(spliced.end(), b.begin() + static_cast<std::ptrdiff_t>(p + 8), b.end());
  {
    TttLearner check;
    ByteReader in(b);
    ASSERT_TRUE(check.decode(in).is_ok());  // the donor itself decodes
  }
  TttLearner blank;
  ByteReader in(spliced);
  const Status s = blank.decode(in);
  EXPECT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("learner's context"), std::string::npos) << s.message();
}

TEST(Ttt, MomentumAndBatchChangeTheRun) {
  TttLearnerConfig plain;
  plain.batch_size = 1;
  TttLearnerConfig mom = plain;
  mom.momentum = 0.9;
  TttLearnerConfig batch;  // batch 16
  auto a = make(plain), b = make(mom), c = make(batch);
  Xorshift64 ra(8), rb(8), rc(8);
  train(a, ra, 200);
  train(b, rb, 200);
  train(c, rc, 200);
  const auto wa = a.core().layer().w(), wb = b.core().layer().w(), wc = c.core().layer().w();
  double dab = 0.0, dac = 0.0;
  for (std::size_t i = 0; i < wa.size(); ++i) dab += std::fabs(wa[i] - wb[i]), dac += std::fabs(wa[i] - wc[i]);
  EXPECT_GT(dab, 1e-6);
  EXPECT_GT(dac, 1e-6);
}

TEST(Ttt, ErrorSurgeClearsTheFastWeights) {
  TttLearnerConfig c;
  c.batch_size = 1;
  auto m = make(c);
  Xorshift64 rng(9);
  train(m, rng, 2000);
  // A short-run RMS over ~10 samples crosses 1.5x the long-run one now and
  // then on a stationary stream too; the shift below must add a reset, and
  // only one while its error stays high.
  const std::uint64_t before = m.core().n_surge_resets();
  for (int t = 0; t < 50; ++t) {
    const auto x = draw(rng);
    m.learn_one(x, 50.0 + target(x));  // level shift far beyond the residual scale
  }
  EXPECT_EQ(m.core().n_surge_resets(), before + 1);
}

TEST(Ttt, ProjectionRateDecays) {
  auto m = make();
  Xorshift64 rng(10);
  train(m, rng, 20);
  const double early = m.core().projection_lr();
  train(m, rng, 2000);
  EXPECT_LT(m.core().projection_lr(), early);
  EXPECT_GT(m.core().projection_lr(), 0.0);
  EXPECT_LE(early, 0.001);
}

TEST(Ttt, BadInputNeverPoisons) {
  auto m = make();
  Xorshift64 rng(11);
  train(m, rng, 100);
  const double nan = std::nan("");
  m.learn_one(std::vector<double>{nan, 1.0, INFINITY, 0.0}, 1.0);
  m.learn_one(std::vector<double>{0.1, 0.1, 0.1, 0.1}, nan);
  m.learn_one(std::vector<double>{0.1, 0.1, 0.1}, 1.0);  // wrong width: ignored
  const double p = m.predict_one(std::vector<double>{nan, 0.2, 0.3, 0.4});
  EXPECT_TRUE(std::isfinite(p));
  for (double w : m.core().layer().w()) EXPECT_TRUE(std::isfinite(w));
}

TEST(Ttt, ClassifiesAboveChance) {
  auto m = make({}, 42, Task::kClassification, 3);
  Xorshift64 rng(12);
  int correct = 0;
  for (int t = 0; t < 3000; ++t) {
    const auto x = draw(rng);
    const int cls = x[0] < -0.33 ? 0 : (x[0] < 0.33 ? 1 : 2);
    if (t >= 2000 && static_cast<int>(m.predict_one(x)) == cls) ++correct;
    m.learn_one(x, cls);
  }
  EXPECT_GT(correct, 600);  // chance is ~333 of 1000
}

TEST(Ttt, SettingsAreChecked) {
  TttLearnerConfig c;
  c.d_model = 0;
  EXPECT_FALSE(TttLearner::make(c, LearnerContext{}).is_ok());
  c = {};
  c.momentum = 1.0;
  EXPECT_FALSE(TttLearner::make(c, LearnerContext{}).is_ok());
  c = {};
  c.batch_size = 0;
  EXPECT_FALSE(TttLearner::make(c, LearnerContext{}).is_ok());
  c = {};
  c.rls.forgetting_factor = 0.0;
  EXPECT_FALSE(TttLearner::make(c, LearnerContext{}).is_ok());
}

TEST(Ttt, ResetEqualsFresh) {
  auto m = make(), fresh = make();
  Xorshift64 rng(13);
  train(m, rng, 300);
  m.reset();
  Xorshift64 ra(14), rb(14);
  train(m, ra, 100);
  train(fresh, rb, 100);
  EXPECT_EQ(bytes_of(m), bytes_of(fresh));
}

}  // namespace
}  // namespace irithyll::nn
