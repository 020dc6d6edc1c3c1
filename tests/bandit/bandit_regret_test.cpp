// Statistical tests of regret growth: UCB and Thompson sampling have
// logarithmic regret (Lai & Robbins 1985; Auer et al. 2002; Agrawal & Goyal
// 2013), epsilon-greedy with a fixed epsilon linear regret, and LinUCB
// learns a linear reward.
//
// Regret here is pseudo-regret, sum_t (mu* - mu_{a_t}). Each check averages
// kSeeds independent runs (policy and environment seeds both vary).
// Calibration (IRITHYLL_BANDIT_CALIBRATE=1 runs 100 seeds per configuration
// and prints each): the largest single-run ratio R(100k)/R(10k) was 2.38 for
// UCB1/UCB-Tuned on Bernoulli arms, 2.31 for UCB1 on Gaussian arms, 2.73 and
// 2.80 for Thompson (Bernoulli, Gaussian), means 1.36-1.47, against about 10
// for linear growth (epsilon-greedy: mean 9.35, min above 8); the largest
// single-run R(100k)/ln(100k) was 14.4, 10.2, 3.5 and 9.0. The asserted
// figures are 5-seed averages under thresholds above every single run of 100
// (ratio < 3; R/ln T under 15-40 per case), so an average can only cross one
// if several seeds go beyond anything observed: the false-failure rate is
// estimated below 1e-4 per assertion.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "irithyll/bandit/bandit_policy.hpp"
#include "irithyll/bandit/linucb.hpp"
#include "irithyll/bandit/simulate.hpp"

namespace irithyll {
namespace {

constexpr int kSeeds = 5;

struct Growth {
  double r_small = 0.0, r_large = 0.0;  // mean regret at 10k and 100k
  double max_ratio = 0.0;               // largest per-seed R(100k)/R(10k)
};

Growth measure(std::string_view policy, const ModelSettings& settings, std::string_view arms_spec, int seeds) {
  auto arms = parse_simulated_arms(arms_spec);
  EXPECT_TRUE(arms.is_ok());
  Growth g;
  const bool verbose = std::getenv("IRITHYLL_BANDIT_CALIBRATE") != nullptr;
  for (int s = 0; s < seeds; ++s) {
    ModelSettings with_seed = settings;
    if (policy != "ucb") with_seed.set("seed", std::to_string(1000 + s));
    auto p = make_bandit_policy(policy, arms->means.size(), 0, with_seed);
    EXPECT_TRUE(p.is_ok()) << p.status().to_string();
    auto run = simulate_bandit(**p, *arms, 100000, 77 + static_cast<std::uint64_t>(s), 10000);
    EXPECT_TRUE(run.is_ok());
    const double small = run->curve_regret[0], large = run->curve_regret.back();
    g.r_small += small / seeds;
    g.r_large += large / seeds;
    g.max_ratio = std::max(g.max_ratio, large / std::max(small, 1.0));
    if (verbose)
      std::printf("%s %s seed %d: R(10k) %.1f R(100k) %.1f ratio %.2f R/lnT %.2f\n", std::string(policy).c_str(),
                  std::string(arms_spec).c_str(), s, small, large, large / std::max(small, 1.0),
                  large / std::log(100000.0));
  }
  return g;
}

int seeds() { return std::getenv("IRITHYLL_BANDIT_CALIBRATE") != nullptr ? 100 : kSeeds; }

struct LogCase {
  const char* policy;
  ModelSettings settings;
  const char* arms;
  double bound;  // on R(100k) / ln(100k), averaged over seeds
};

TEST(BanditRegret, UcbAndThompsonGrowLogarithmically) {
  // Bounds: about twice the largest calibrated R(T)/ln T. For UCB1 the
  // theory gives sum 8/gap = 47 on the Bernoulli arms (gaps 0.4, 0.3).
  const std::vector<LogCase> cases = {
      {"ucb", {}, "bernoulli:0.1,0.2,0.5", 40.0},
      {"ucb", {{"variant", "tuned"}}, "bernoulli:0.1,0.2,0.5", 20.0},
      {"ucb", {}, "gaussian:0,0.5,1", 40.0},
      {"thompson", {}, "bernoulli:0.1,0.2,0.5", 15.0},
      {"thompson", {{"model", "gaussian"}}, "gaussian:0,0.5,1", 20.0},
  };
  for (const LogCase& c : cases) {
    const Growth g = measure(c.policy, c.settings, c.arms, seeds());
    SCOPED_TRACE(std::string(c.policy) + " " + c.arms);
    EXPECT_LT(g.r_large / g.r_small, 3.0);  // linear growth would give 10
    EXPECT_LT(g.r_large / std::log(100000.0), c.bound);
  }
}

TEST(BanditRegret, EpsilonGreedyGrowsLinearly) {
  // Fixed epsilon = 0.1 explores uniformly 10% of the time: expected regret
  // per step 0.1 * (0.4 + 0.3 + 0) / 3 = 0.0233 once the best arm is found,
  // so R(100k)/R(10k) is close to 10 (a burn-in only adds to R(10k)).
  const Growth g = measure("epsilon-greedy", {{"epsilon", "0.1"}}, "bernoulli:0.1,0.2,0.5", seeds());
  EXPECT_GT(g.r_large / g.r_small, 7.0);
  EXPECT_NEAR(g.r_large / 100000.0, 0.0233, 0.004);
}

TEST(BanditRegret, LinUcbLearnsALinearReward) {
  // Four arms, reward theta_a . x + N(0, 0.1^2) with x uniform in [-1,1]^3:
  // the best arm depends on x. After learning, LinUCB picks the best arm for
  // at least 90% of the last 1000 contexts and its theta is within 0.1.
  const double theta[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-0.5, -0.5, 0.5}};
  for (int s = 0; s < kSeeds; ++s) {
    auto p = make_bandit_policy("linucb", 4, 3, {{"alpha", "0.5"}, {"intercept", "off"}});
    ASSERT_TRUE(p.is_ok());
    Xorshift64 env(500 + static_cast<std::uint64_t>(s));
    int best_late = 0;
    for (int t = 0; t < 5000; ++t) {
      double x[3];
      for (double& v : x) v = env.uniform(-1.0, 1.0);
      double mu[4];
      for (int a = 0; a < 4; ++a) mu[a] = theta[a][0] * x[0] + theta[a][1] * x[1] + theta[a][2] * x[2];
      const std::size_t arm = *(*p)->select(x);
      int best = 0;
      for (int a = 1; a < 4; ++a)
        if (mu[a] > mu[best]) best = a;
      if (t >= 4000 && static_cast<int>(arm) == best) ++best_late;
      ASSERT_TRUE((*p)->update(arm, mu[arm] + 0.1 * env.normal(), x).is_ok());
    }
    EXPECT_GE(best_late, 900) << "seed " << s;
    const auto& lin = static_cast<const LinUcb&>(**p);
    for (std::size_t a = 0; a < 4; ++a) {
      if ((*p)->arm_counts()[a] < 300) continue;  // an arm rarely best is estimated loosely
      const auto th = lin.arm_theta(a);
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(th[static_cast<std::size_t>(j)], theta[a][j], 0.1) << "arm " << a;
    }
  }
}

}  // namespace
}  // namespace irithyll
