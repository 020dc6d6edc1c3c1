// Unit and resume tests for every bandit policy, through one harness.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "irithyll/bandit/bandit_policy.hpp"
#include "irithyll/bandit/discounted_thompson.hpp"
#include "irithyll/bandit/epsilon_greedy.hpp"
#include "irithyll/bandit/linucb.hpp"
#include "irithyll/bandit/thompson.hpp"
#include "irithyll/bandit/ucb.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll {
namespace {

struct Case {
  std::string name;
  std::size_t dim;
  ModelSettings settings;
};

std::vector<Case> all_cases() {
  return {{"epsilon-greedy", 0, {{"epsilon", "0.2"}, {"decay", "0.001"}}},
          {"ucb", 0, {}},
          {"ucb", 0, {{"variant", "tuned"}}},
          {"thompson", 0, {}},
          {"thompson", 0, {{"model", "gaussian"}}},
          {"discounted-thompson", 0, {{"discount", "0.95"}}},
          {"linucb", 3, {{"alpha", "0.5"}}}};
}

std::unique_ptr<BanditPolicy> make(const Case& c, std::size_t arms = 4) {
  auto p = make_bandit_policy(c.name, arms, c.dim, c.settings);
  EXPECT_TRUE(p.is_ok()) << p.status().to_string();
  return std::move(p).value();
}

// One deterministic step: the context and Bernoulli reward come from `env`.
std::size_t step(BanditPolicy& p, Xorshift64& env) {
  std::vector<double> ctx(p.context_dim());
  for (double& v : ctx) v = env.uniform(-1.0, 1.0);
  auto arm = p.select(ctx);
  EXPECT_TRUE(arm.is_ok());
  const double mean = 0.2 + 0.15 * static_cast<double>(*arm);
  const double r = env.uniform() < mean ? 1.0 : 0.0;
  EXPECT_TRUE(p.update(*arm, r, ctx).is_ok());
  return *arm;
}

std::vector<std::size_t> run(BanditPolicy& p, std::uint64_t env_seed, int n) {
  Xorshift64 env(env_seed);
  std::vector<std::size_t> arms;
  for (int i = 0; i < n; ++i) arms.push_back(step(p, env));
  return arms;
}

TEST(BanditPolicy, SameSeedSameChoices) {
  for (const Case& c : all_cases()) {
    auto a = make(c), b = make(c);
    EXPECT_EQ(run(*a, 7, 500), run(*b, 7, 500)) << c.name;
  }
}

TEST(BanditPolicy, ResetEqualsFresh) {
  for (const Case& c : all_cases()) {
    auto a = make(c), fresh = make(c);
    run(*a, 3, 300);
    a->reset();
    EXPECT_EQ(a->n_pulls(), 0u);
    EXPECT_EQ(run(*a, 9, 300), run(*fresh, 9, 300)) << c.name;
  }
}

TEST(BanditPolicy, EncodeDecodeContinuesBitIdentically) {
  for (const Case& c : all_cases()) {
    auto a = make(c);
    Xorshift64 env(11);
    for (int i = 0; i < 250; ++i) step(*a, env);
    ByteWriter w;
    a->encode(w);
    // Into a blank default instance (settings come from the bytes).
    auto blank = make_bandit_policy(c.name, 4, c.dim);
    ASSERT_TRUE(blank.is_ok());
    ByteReader r(w.data());
    ASSERT_TRUE((*blank)->decode(r).is_ok()) << c.name;
    EXPECT_TRUE(r.at_end());
    auto whole = decode_bandit_policy(w.data());
    ASSERT_TRUE(whole.is_ok()) << whole.status().to_string();
    Xorshift64 env_b = env, env_c = env;
    for (int i = 0; i < 250; ++i) {
      const std::size_t x = step(*a, env);
      EXPECT_EQ(x, step(**blank, env_b)) << c.name << " step " << i;
      EXPECT_EQ(x, step(**whole, env_c)) << c.name << " step " << i;
    }
    for (std::size_t k = 0; k < 4; ++k) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(a->arm_values()[k]),
                std::bit_cast<std::uint64_t>((*blank)->arm_values()[k]));
    }
  }
}

TEST(BanditPolicy, HostileBytesAreRefusedAndStateKept) {
  for (const Case& c : all_cases()) {
    auto a = make(c);
    run(*a, 5, 100);
    ByteWriter w;
    a->encode(w);
    const std::vector<std::uint8_t> good = w.data();
    ByteWriter before;
    a->encode(before);
    // Every truncation is refused.
    for (std::size_t n = 0; n < good.size(); n += 1 + good.size() / 97) {
      std::span<const std::uint8_t> cut(good.data(), n);
      EXPECT_FALSE(decode_bandit_policy(cut).is_ok()) << c.name << " cut " << n;
      ByteReader r(cut);
      EXPECT_FALSE(a->decode(r).is_ok());
    }
    // Flipped bytes never crash; a refused decode leaves the state unchanged.
    Xorshift64 rng(1);
    for (int t = 0; t < 300; ++t) {
      std::vector<std::uint8_t> bad = good;
      bad[rng.below(bad.size())] ^= static_cast<std::uint8_t>(1 + rng.below(255));
      ByteReader r(bad);
      if (!a->decode(r).is_ok()) {
        ByteWriter after;
        a->encode(after);
        EXPECT_EQ(after.data(), before.data()) << c.name;
      } else {
        ByteReader back(good);
        ASSERT_TRUE(a->decode(back).is_ok());
      }
      (void)decode_bandit_policy(bad);
    }
  }
}

TEST(BanditPolicy, BadInputIsRefused) {
  for (const Case& c : all_cases()) {
    auto p = make(c);
    std::vector<double> ctx(c.dim, 0.5);
    EXPECT_FALSE(p->update(4, 1.0, ctx).is_ok()) << c.name;
    EXPECT_FALSE(p->update(0, std::nan(""), ctx).is_ok()) << c.name;
    EXPECT_FALSE(p->update(0, std::numeric_limits<double>::infinity(), ctx).is_ok()) << c.name;
    EXPECT_EQ(p->n_pulls(), 0u);
  }
  EXPECT_FALSE(make_bandit_policy("ucb", 0).is_ok());
  EXPECT_FALSE(make_bandit_policy("nope", 3).is_ok());
  EXPECT_FALSE(make_bandit_policy("linucb", 3, 0).is_ok());
  EXPECT_FALSE(make_bandit_policy("ucb", 3, 2).is_ok());
  EXPECT_FALSE(make_bandit_policy("epsilon-greedy", 3, 0, {{"epsilon", "1.5"}}).is_ok());
  EXPECT_FALSE(make_bandit_policy("discounted-thompson", 3, 0, {{"discount", "0"}}).is_ok());
  EXPECT_FALSE(make_bandit_policy("thompson", 3, 0, {{"alpha", "0"}}).is_ok());
  EXPECT_FALSE(make_bandit_policy("thompson", 3, 0, {{"nope", "1"}}).is_ok());
  // Beta-Bernoulli policies refuse rewards outside [0, 1] instead of clamping.
  auto ts = make_bandit_policy("thompson", 2);
  EXPECT_FALSE((*ts)->update(0, 1.5).is_ok());
  EXPECT_FALSE((*ts)->update(0, -0.1).is_ok());
  auto lin = make_bandit_policy("linucb", 2, 2);
  const double wide[3] = {1, 2, 3};
  EXPECT_FALSE((*lin)->select(wide).is_ok());
  const double nan_ctx[2] = {1, std::nan("")};
  EXPECT_FALSE((*lin)->select(nan_ctx).is_ok());
  EXPECT_FALSE((*lin)->update(0, 1.0, wide).is_ok());
}

TEST(BanditPolicy, RegistryListsEveryPolicyWithFields) {
  std::vector<std::string> names;
  for (const auto& info : bandit_policies()) {
    names.emplace_back(info.name);
    EXPECT_FALSE(info.fields.empty());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"epsilon-greedy", "ucb", "thompson", "discounted-thompson", "linucb"}));
}

TEST(EpsilonGreedy, ZeroEpsilonAlwaysExploitsAndMeanIsExact) {
  EpsilonGreedy p(3, {.epsilon = 0.0});
  ASSERT_TRUE(p.update(1, 0.5).is_ok());
  ASSERT_TRUE(p.update(1, 1.0).is_ok());
  ASSERT_TRUE(p.update(2, 0.25).is_ok());
  EXPECT_DOUBLE_EQ(p.arm_values()[1], 0.75);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(*p.select(), 1u);
}

TEST(EpsilonGreedy, DecayFollowsExponentialSchedule) {
  EpsilonGreedy p(2, {.epsilon = 0.5, .decay = 0.01});
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(p.update(0, 1.0).is_ok());
  EXPECT_NEAR(p.current_epsilon(), 0.5 * std::exp(-1.0), 1e-15);
}

TEST(Ucb, PullsEveryArmOnceThenMaximisesIndex) {
  Ucb p(3, {});
  for (std::size_t a = 0; a < 3; ++a) {
    EXPECT_EQ(*p.select(), a);
    ASSERT_TRUE(p.update(a, a == 1 ? 1.0 : 0.0).is_ok());
  }
  // t = 3: index_a = Q_a + sqrt(2 ln 3 / 1); arm 1 has Q = 1.
  EXPECT_NEAR(p.arm_index(1), 1.0 + std::sqrt(2.0 * std::log(3.0)), 1e-12);
  EXPECT_EQ(*p.select(), 1u);
  Ucb single(1, {});
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(*single.select(), 0u);
    ASSERT_TRUE(single.update(0, 0.3).is_ok());
  }
}

TEST(Ucb, TunedIndexHandComputed) {
  Ucb p(2, {.tuned = true});
  ASSERT_TRUE(p.update(0, 0.0).is_ok());
  ASSERT_TRUE(p.update(0, 1.0).is_ok());
  ASSERT_TRUE(p.update(1, 0.5).is_ok());
  // Arm 0: Q = 0.5, mean r^2 = 0.5, N = 2, t = 3.
  const double lt = std::log(3.0);
  const double v = 0.5 - 0.25 + std::sqrt(2.0 * lt / 2.0);
  EXPECT_NEAR(p.arm_index(0), 0.5 + std::sqrt(lt / 2.0 * std::min(0.25, v)), 1e-12);
}

TEST(Thompson, PosteriorCountsMove) {
  ThompsonSampling p(2, {});
  EXPECT_EQ(p.arm_alpha(0), 1.0);
  ASSERT_TRUE(p.update(0, 1.0).is_ok());
  ASSERT_TRUE(p.update(0, 0.25).is_ok());
  EXPECT_DOUBLE_EQ(p.arm_alpha(0), 2.25);
  EXPECT_DOUBLE_EQ(p.arm_beta(0), 1.75);
}

TEST(DiscountedThompson, DiscountDecaysAllArmsAndOneEqualsPlain) {
  DiscountedThompson p(2, {.discount = 0.5});
  ASSERT_TRUE(p.update(0, 1.0).is_ok());
  ASSERT_TRUE(p.update(1, 0.0).is_ok());
  EXPECT_DOUBLE_EQ(p.arm_alpha(0), 1.5);  // 1 + 0.5 * 1
  EXPECT_DOUBLE_EQ(p.arm_beta(1), 2.0);
  // gamma = 1 draws the same Beta variates in the same order as Thompson.
  DiscountedThompson d(3, {.discount = 1.0, .seed = 5});
  ThompsonSampling t(3, {.seed = 5});
  Xorshift64 env(2);
  for (int i = 0; i < 300; ++i) {
    const std::size_t a = *d.select();
    ASSERT_EQ(a, *t.select());
    const double r = env.uniform();
    ASSERT_TRUE(d.update(a, r).is_ok());
    ASSERT_TRUE(t.update(a, r).is_ok());
  }
}

TEST(DiscountedThompson, FollowsASwapOfTheBestArm) {
  // Arm 0 pays 0.9 for 2000 pulls, then 0.1 while arm 1 pays 0.9. Plain TS
  // remembers 2000 good pulls; DTS (memory ~100) moves within a few hundred.
  auto run_swap = [](BanditPolicy& p) {
    Xorshift64 env(4);
    int late_best = 0;
    for (int t = 0; t < 3000; ++t) {
      const std::size_t a = *p.select();
      const double mean = (t < 2000) == (a == 0) ? 0.9 : 0.1;
      EXPECT_TRUE(p.update(a, env.uniform() < mean ? 1.0 : 0.0).is_ok());
      if (t >= 2500 && a == 1) ++late_best;
    }
    return late_best;
  };
  DiscountedThompson dts(2, {.discount = 0.99});
  ThompsonSampling ts(2, {});
  EXPECT_GT(run_swap(dts), 450);
  EXPECT_LT(run_swap(ts), run_swap(dts));
}

TEST(LinUcb, InverseMatchesDirectSolveAndStaysSymmetric) {
  LinUcb p(1, 2, {.intercept = false});
  const double xs[3][2] = {{1.0, 2.0}, {0.5, -1.0}, {3.0, 0.0}};
  for (const auto& x : xs) ASSERT_TRUE(p.update(0, 1.0, x).is_ok());
  // A = I + sum x x^T = [[1+1+.25+9, 2-.5], [2-.5, 1+4+1]] = [[11.25, 1.5], [1.5, 6]].
  const double det = 11.25 * 6.0 - 1.5 * 1.5;
  auto inv = p.arm_inverse(0);
  EXPECT_NEAR(inv[0], 6.0 / det, 1e-14);
  EXPECT_NEAR(inv[1], -1.5 / det, 1e-14);
  EXPECT_EQ(inv[1], inv[2]);
  EXPECT_NEAR(inv[3], 11.25 / det, 1e-14);
}

}  // namespace
}  // namespace irithyll
