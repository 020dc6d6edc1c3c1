// StreamingRandomPatches: the documented properties (fixed subspace per
// member, drift replacement, training methods, checkpoint continuation).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/srp.hpp"

namespace irithyll {
namespace {

std::unique_ptr<StreamingRandomPatches> make_srp(SRPConfig c, std::size_t d, std::uint64_t seed = 7,
                                                 Task task = Task::kClassification) {
  LearnerContext ctx;
  ctx.task = task;
  ctx.n_classes = task == Task::kClassification ? 2 : 0;
  ctx.n_features = d;
  ctx.seed = seed;
  auto m = StreamingRandomPatches::make(c, ctx);
  EXPECT_TRUE(static_cast<bool>(m)) << m.status().message();
  return std::move(m).value();
}

// Label = x0 + x1 > 1 (flipped after `flip_at`).
void feed(StreamingRandomPatches& m, Xorshift64& rng, int n, bool flipped, int* correct = nullptr) {
  std::vector<double> x(10);
  for (int i = 0; i < n; ++i) {
    for (double& v : x) v = rng.uniform();
    double y = x[0] + x[1] > 1.0 ? 1.0 : 0.0;
    if (flipped) y = 1.0 - y;
    if (correct != nullptr && m.predict_one(x) == y) ++*correct;
    m.learn_one(x, y);
  }
}

TEST(SRP, EachMemberSeesOnlyItsFixedSubspace) {
  auto m = make_srp(SRPConfig{}, 10);
  ASSERT_EQ(m->n_members(), 10u);
  Xorshift64 rng(3);
  std::vector<std::vector<std::uint32_t>> before;
  for (std::size_t i = 0; i < m->n_members(); ++i) {
    const auto f = m->member_features(i);
    EXPECT_EQ(f.size(), 6u);  // round(10 * 60 %)
    before.emplace_back(f.begin(), f.end());
  }
  feed(*m, rng, 2000, false);
  // No drift on a stable concept, so the subspaces are the ones drawn at start.
  ASSERT_EQ(m->n_drifts(), 0u);
  bool differ = false;
  for (std::size_t i = 0; i < m->n_members(); ++i) {
    const auto f = m->member_features(i);
    EXPECT_TRUE(std::equal(f.begin(), f.end(), before[i].begin(), before[i].end()));
    differ = differ || before[i] != before[0];
    // Changing every feature outside member i's subspace leaves its prediction alone.
    for (int t = 0; t < 50; ++t) {
      std::vector<double> x(10), x2(10);
      for (double& v : x) v = rng.uniform();
      x2 = x;
      for (std::size_t j = 0; j < 10; ++j)
        if (!std::binary_search(f.begin(), f.end(), static_cast<std::uint32_t>(j))) x2[j] = rng.uniform() * 100.0;
      EXPECT_EQ(m->member_predict(i, x), m->member_predict(i, x2));
    }
  }
  EXPECT_TRUE(differ) << "members drew the same subspace";
}

TEST(SRP, FewFeaturesSpreadTheMembersOverEverySubspace) {
  // d = 3, m = round(1.8) = 2: the subsets {0,1}, {0,2}, {1,2}, listed and
  // repeated to 10 entries, give {0,1} to 4 members and the others to 3.
  for (std::uint64_t seed : {1u, 7u, 42u}) {
    auto m = make_srp(SRPConfig{}, 3, seed);
    int count[3] = {0, 0, 0};
    for (std::size_t i = 0; i < m->n_members(); ++i) {
      const auto f = m->member_features(i);
      ASSERT_EQ(f.size(), 2u);
      count[f[0] + f[1] - 1] += 1;  // {0,1} -> 0, {0,2} -> 1, {1,2} -> 2
    }
    EXPECT_EQ(count[0], 4) << "seed " << seed;
    EXPECT_EQ(count[1], 3) << "seed " << seed;
    EXPECT_EQ(count[2], 3) << "seed " << seed;
  }
  // d = 6, m = 4: C(6, 4) = 15 subsets for 10 members, all distinct.
  auto m = make_srp(SRPConfig{}, 6, 5);
  std::vector<std::vector<std::uint32_t>> seen;
  for (std::size_t i = 0; i < m->n_members(); ++i) {
    const auto f = m->member_features(i);
    ASSERT_EQ(f.size(), 4u);
    ASSERT_TRUE(std::is_sorted(f.begin(), f.end()));
    std::vector<std::uint32_t> v(f.begin(), f.end());
    EXPECT_EQ(std::find(seen.begin(), seen.end(), v), seen.end()) << "member " << i << " repeats a subspace";
    seen.push_back(v);
  }
}

TEST(SRP, ResamplingUsesAllFeaturesAndSubspaceSizeRounds) {
  SRPConfig c;
  c.training = SRPTraining::kResampling;
  EXPECT_EQ(make_srp(c, 10)->member_features(0).size(), 10u);
  c.training = SRPTraining::kSubspaces;
  c.subspace_size = 1.0;
  EXPECT_EQ(make_srp(c, 10)->member_features(0).size(), 1u);  // at least one feature
  c.subspace_size = 100.0;
  EXPECT_EQ(make_srp(c, 10)->member_features(0).size(), 10u);
}

TEST(SRP, AbruptDriftReplacesMembersAndAccuracyRecovers) {
  auto m = make_srp(SRPConfig{}, 10);
  Xorshift64 rng(11);
  feed(*m, rng, 3000, false);
  EXPECT_EQ(m->n_drifts(), 0u);
  feed(*m, rng, 3000, true);
  EXPECT_GE(m->n_drifts(), 1u);
  int correct = 0;
  feed(*m, rng, 1000, true, &correct);
  // A member that kept the old concept would be ~0 % right; the noise-free
  // new concept is learnable to well above 80 % by 3000 samples after the flip.
  EXPECT_GT(correct, 800);
}

TEST(SRP, DriftOffNeverReplaces) {
  SRPConfig c;
  c.drift_delta = 0.0;
  c.warning_delta = 0.0;
  auto m = make_srp(c, 10);
  Xorshift64 rng(11);
  feed(*m, rng, 2000, false);
  feed(*m, rng, 2000, true);
  EXPECT_EQ(m->n_drifts(), 0u);
  EXPECT_EQ(m->n_warnings(), 0u);
  EXPECT_EQ(m->n_background(), 0u);
}

TEST(SRP, CheckpointContinuesBitIdenticallyThroughDrift) {
  auto a = make_srp(SRPConfig{}, 10);
  Xorshift64 rng(5);
  feed(*a, rng, 3000, false);
  feed(*a, rng, 700, true);
  ByteWriter w;
  a->encode(w);
  StreamingRandomPatches b;
  ByteReader r(w.data());
  ASSERT_TRUE(b.decode(r).is_ok());
  Xorshift64 r1(9), r2(9);
  std::vector<double> x(10);
  for (int i = 0; i < 2000; ++i) {
    for (double& v : x) v = r1.uniform();
    r2.uniform();
    const double y = x[0] + x[1] > 1.0 ? 0.0 : 1.0;
    ASSERT_EQ(a->predict_one(x), b.predict_one(x));
    a->learn_one(x, y);
    b.learn_one(x, y);
  }
  EXPECT_EQ(a->n_drifts(), b.n_drifts());
  // Truncated bytes are refused.
  for (const std::size_t cut : std::vector<std::size_t>{1, w.data().size() / 2, w.data().size() - 1}) {
    StreamingRandomPatches c;
    ByteReader rc(std::span(w.data()).first(cut));
    EXPECT_FALSE(c.decode(rc).is_ok());
  }
}

TEST(SRP, RegressionAveragesMembers) {
  SRPConfig c;
  auto m = make_srp(c, 3, 1, Task::kRegression);
  Xorshift64 rng(2);
  double err = 0.0;
  for (int i = 0; i < 4000; ++i) {
    const std::vector<double> x = {rng.uniform(), rng.uniform(), rng.uniform()};
    const double y = 3.0 * x[0] + (x[1] > 0.5 ? 2.0 : 0.0);
    if (i >= 3000) err += std::abs(m->predict_one(x) - y);
    m->learn_one(x, y);
  }
  double mean = 0.0;
  const std::vector<double> q = {0.5, 0.7, 0.5};
  for (std::size_t i = 0; i < m->n_members(); ++i) mean += m->member_predict(i, q);
  EXPECT_DOUBLE_EQ(m->predict_one(q), mean / static_cast<double>(m->n_members()));
  EXPECT_LT(err / 1000.0, 0.8);  // y spans [0, 5]; predicting its mean is off by about 1.2
}

}  // namespace
}  // namespace irithyll
