// SGBT and its trees specialise once at construction: with no option set
// they take the plain path (no per-sample option checks), otherwise the
// general one. Options set to values that cannot change anything must give
// exactly the plain path's predictions, so the two paths are the same
// algorithm. The options are checked on, so the general path really runs.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "support/sgbt_direct.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll {
namespace {

constexpr std::size_t kPlainD = 4;

SGBTConfig base_config() {
  SGBTConfig c;
  c.n_steps = 25;
  c.tree.grace_period = 40;
  c.max_tree_samples = 1000000000;  // the base adaptive max-tree-samples needs; never reached
  return c;
}

// Every tree option at a value that clamps nothing (bounds far beyond any
// leaf value or gradient, an all-zero monotone list) and every committee
// option that leaves the weights and trees alone (pruning threshold 0 with
// a proactive interval never reached, an adaptive limit that rounds back to
// max_tree_samples).
SGBTConfig neutral_tree_options(SGBTConfig c) {
  c.tree.max_leaf_output = 1e300;
  c.tree.min_hessian_sum = 1e-300;
  c.tree.gradient_clip_sigma = 1e300;
  c.tree.monotone = {0, 0, 0, 0};
  return c;
}

SGBTConfig neutral_committee_options(SGBTConfig c) {
  c.adaptive_mts_k = 1e-300;
  c.quality_prune_alpha = 0.5;
  c.quality_prune_threshold = 1e-300;
  c.proactive_prune_interval = 1000000000000ull;
  return c;
}

// Predictions after every sample, as bit patterns.
std::vector<std::uint64_t> run(const SGBTConfig& c, std::size_t classes, std::uint64_t seed) {
  EXPECT_TRUE(c.validate().is_ok()) << c.validate().to_string();
  SGBTLearner m = testing::sgbt_learner(c, classes == 0 ? Task::kRegression : Task::kClassification, classes);
  Xorshift64 rng(seed);
  std::vector<std::uint64_t> out;
  double x[kPlainD];
  double proba[3];
  for (int i = 0; i < 6000; ++i) {
    for (double& v : x) v = rng.uniform();
    // The concept flips at 3000 so the drift detectors and replacements run.
    const double sign = i < 3000 ? 1.0 : -1.0;
    const double s = sign * (x[0] + 0.5 * x[1] - x[2]) + 0.1 * rng.normal();
    const double y = classes == 0 ? 3.0 * s : classes == 2 ? (s > 0.0 ? 1.0 : 0.0) : std::floor(std::clamp(s + 1.0, 0.0, 1.999) * 1.5);
    if (classes == 0) {
      out.push_back(std::bit_cast<std::uint64_t>(m.predict_one(x)));
    } else {
      m.predict_proba_one(x, std::span<double>(proba, classes));
      for (std::size_t k = 0; k < classes; ++k) out.push_back(std::bit_cast<std::uint64_t>(proba[k]));
    }
    m.learn_one(x, y);
  }
  return out;
}

TEST(SGBTPlainPath, NeutralOptionsEqualThePlainPath) {
  const SGBTConfig plain = base_config();
  ASSERT_FALSE(plain.has_options());
  for (std::size_t classes : {0u, 2u, 3u}) {
    const auto expected = run(plain, classes, 11 + classes);
    for (const SGBTConfig& c : {neutral_tree_options(plain), neutral_committee_options(plain),
                                neutral_committee_options(neutral_tree_options(plain))}) {
      ASSERT_TRUE(c.has_options());
      const auto got = run(c, classes, 11 + classes);
      ASSERT_EQ(got.size(), expected.size());
      for (std::size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], expected[i]) << "classes " << classes << " value " << i;
    }
  }
}

TEST(SGBTPlainPath, AnActiveOptionChangesPredictions) {
  // The comparison above can fail: a clamp that bites moves the predictions.
  SGBTConfig c = base_config();
  const auto expected = run(c, 0, 3);
  c.tree.max_leaf_output = 0.05;
  EXPECT_NE(run(c, 0, 3), expected);
  c = base_config();
  c.tree.gradient_clip_sigma = 0.5;
  EXPECT_NE(run(c, 0, 3), expected);
  c = base_config();
  c.quality_prune_alpha = 0.5;
  c.quality_prune_threshold = 0.5;
  c.quality_prune_patience = 10;
  EXPECT_NE(run(c, 0, 3), expected);
}

}  // namespace
}  // namespace irithyll
