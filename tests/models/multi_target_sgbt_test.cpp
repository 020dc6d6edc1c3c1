// multi_target_sgbt: one SGBT per target, bit for bit the independent SGBTs;
// a missing target leaves only its own member untaught; checkpoints resume
// bit-identically; the catalogue builds it from the data's target count and
// refuses several targets for one-output models.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "support/sgbt_direct.hpp"
#include <random>
#include "irithyll/ensemble/multi_target_sgbt.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll {
namespace {

constexpr std::size_t kTargets = 3;
constexpr std::size_t kFeatures = 5;

// Friedman #1 features with three targets of different shape and scale.
struct Sample {
  std::vector<double> x;
  std::vector<double> y;
};
std::vector<Sample> make_stream(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<Sample> out(n);
  for (auto& s : out) {
    s.x.resize(kFeatures);
    for (double& v : s.x) v = u(rng);
    s.y = {10.0 * std::sin(3.141592653589793 * s.x[0] * s.x[1]) + 20.0 * (s.x[2] - 0.5) * (s.x[2] - 0.5) +
               10.0 * s.x[3] + 5.0 * s.x[4] + noise(rng),
           100.0 * s.x[0] - 40.0 * s.x[4] + 0.1 * noise(rng), std::exp(s.x[2]) * 0.01};
  }
  return out;
}

SGBTConfig small_config() {
  SGBTConfig c;
  c.n_steps = 8;
  c.tree.grace_period = 50;
  c.seed = 7;
  return c;
}

TEST(MultiTargetSGBT, EqualsIndependentSGBTsBitForBit) {
  const SGBTConfig config = small_config();
  const std::size_t n_targets = kTargets;
  auto multi = MultiTargetSGBT::make(config, {.seed = config.seed, .n_targets = n_targets});
  ASSERT_TRUE(multi) << multi.status().message();
  std::vector<SGBTLearner> alone;
  for (std::size_t k = 0; k < kTargets; ++k) alone.push_back(testing::sgbt_learner(config, Task::kRegression));
  ASSERT_EQ((*multi)->n_outputs(), kTargets);
  std::vector<double> pred(kTargets);
  for (const Sample& s : make_stream(3000, 1)) {
    (*multi)->predict_multi(s.x, pred);
    for (std::size_t k = 0; k < kTargets; ++k) ASSERT_EQ(pred[k], alone[k].predict_one(s.x)) << k;
    (*multi)->learn_multi(s.x, s.y);
    for (std::size_t k = 0; k < kTargets; ++k) alone[k].learn_one(s.x, s.y[k]);
  }
  // The members did learn something different per target.
  (*multi)->predict_multi(make_stream(1, 9)[0].x, pred);
  EXPECT_NE(pred[0], pred[1]);
  EXPECT_EQ((*multi)->n_samples_seen(), 3000u);
  std::size_t members = 0;
  for (const auto& a : alone) members += a.memory_bytes();
  EXPECT_GE((*multi)->memory_bytes(), members);
}

TEST(MultiTargetSGBT, MissingTargetLeavesOnlyItsMemberUntaught) {
  const SGBTConfig config = small_config();
  const std::size_t n_targets = kTargets;
  MultiTargetSGBT multi(config, {.seed = config.seed, .n_targets = n_targets});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Sample& s : make_stream(500, 2)) multi.learn_multi(s.x, std::vector<double>{s.y[0], nan, s.y[2]});
  EXPECT_EQ(multi.member(0).n_samples_seen(), 500u);
  EXPECT_EQ(multi.member(1).n_samples_seen(), 0u);
  EXPECT_EQ(multi.member(2).n_samples_seen(), 500u);
  multi.learn_multi(make_stream(1, 3)[0].x, std::vector<double>{nan, nan, nan});
  EXPECT_EQ(multi.n_samples_seen(), 500u);
}

TEST(MultiTargetSGBT, CheckpointResumesBitIdentically) {
  const SGBTConfig config = small_config();
  const std::size_t n_targets = kTargets;
  MultiTargetSGBT straight(config, {.seed = config.seed, .n_targets = n_targets}),
      first(config, {.seed = config.seed, .n_targets = n_targets});
  const auto stream = make_stream(2000, 4);
  for (std::size_t i = 0; i < 1000; ++i) {
    straight.learn_multi(stream[i].x, stream[i].y);
    first.learn_multi(stream[i].x, stream[i].y);
  }
  ByteWriter w;
  first.encode(w);
  MultiTargetSGBT resumed;  // blank one-target instance
  ByteReader r(w.data());
  ASSERT_TRUE(resumed.decode(r).is_ok());
  ASSERT_EQ(resumed.n_outputs(), kTargets);
  std::vector<double> a(kTargets), b(kTargets);
  for (std::size_t i = 1000; i < 2000; ++i) {
    straight.predict_multi(stream[i].x, a);
    resumed.predict_multi(stream[i].x, b);
    for (std::size_t k = 0; k < kTargets; ++k) ASSERT_EQ(a[k], b[k]) << i << " " << k;
    straight.learn_multi(stream[i].x, stream[i].y);
    resumed.learn_multi(stream[i].x, stream[i].y);
  }
  ByteWriter wa, wb;
  straight.encode(wa);
  resumed.encode(wb);
  EXPECT_EQ(wa.data(), wb.data());
  // Truncated records are refused, never crash.
  for (std::size_t cut : {std::size_t{0}, std::size_t{3}, w.data().size() / 2, w.data().size() - 1}) {
    MultiTargetSGBT blank;
    ByteReader part(std::span<const std::uint8_t>(w.data().data(), cut));
    EXPECT_FALSE(blank.decode(part).is_ok()) << cut;
  }
}

TEST(MultiTargetSGBT, CatalogueTakesTheTargetCountFromTheContext) {
  LearnerContext context{Task::kRegression, 0, kFeatures, 7, kTargets};
  auto made = make_learner("multi_target_sgbt", {{"n-steps", "8"}, {"grace-period", "50"}}, context);
  ASSERT_TRUE(made) << made.status().message();
  EXPECT_EQ((*made)->n_outputs(), kTargets);
  // Same settings table as sgbt: the catalogue's model equals the direct one.
  const SGBTConfig config = small_config();
  const std::size_t n_targets = kTargets;
  MultiTargetSGBT direct(config, {.seed = config.seed, .n_targets = n_targets});
  std::vector<double> a(kTargets), b(kTargets);
  for (const Sample& s : make_stream(800, 5)) {
    (*made)->predict_multi(s.x, a);
    direct.predict_multi(s.x, b);
    ASSERT_EQ(a, b);
    (*made)->learn_multi(s.x, s.y);
    direct.learn_multi(s.x, s.y);
  }
  auto sgbt = make_learner("sgbt", {}, context);
  ASSERT_FALSE(sgbt);
  EXPECT_NE(sgbt.status().message().find("predicts 1 target"), std::string::npos) << sgbt.status().message();
  auto cls = make_learner("multi_target_sgbt", {}, LearnerContext{Task::kClassification, 2, kFeatures, 7, 1});
  EXPECT_FALSE(cls);
  auto bad = make_learner("multi_target_sgbt", {{"loss", "logistic"}}, context);
  EXPECT_FALSE(bad);
}

TEST(MultiTargetSGBT, OneOutputLearnersForwardTheMultiCalls) {
  SGBTLearner a = testing::sgbt_learner(small_config(), Task::kRegression, 0),
              b = testing::sgbt_learner(small_config(), Task::kRegression, 0);
  double out = 0.0;
  for (const Sample& s : make_stream(500, 6)) {
    a.predict_multi(s.x, std::span<double>(&out, 1));
    ASSERT_EQ(out, b.predict_one(s.x));
    a.learn_multi(s.x, std::span<const double>(s.y.data(), 1));
    b.learn_one(s.x, s.y[0]);
  }
  EXPECT_EQ(a.n_outputs(), 1u);
}

}  // namespace
}  // namespace irithyll
