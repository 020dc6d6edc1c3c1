// TreeExplainer against brute-force Shapley values (every feature subset) on
// random trees and on trees learned by SGBT, the Hoeffding tree and ARF,
// with missing values and category splits; local accuracy; errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "brute_force.hpp"
#include "irithyll/core/rng.hpp"
#include "support/sgbt_direct.hpp"
#include "irithyll/ensemble/arf.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/explain/tree_shap.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"

namespace irithyll {
namespace {

constexpr double kTol = 1e-9;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

double uniform(Xorshift64& rng) { return static_cast<double>(rng.next_u64() >> 11) * 0x1.0p-53; }

// A random binary tree in pre-order: numeric and category-set splits,
// repeated features on a path, covers including zeros.
void grow(TreeView& t, Xorshift64& rng, std::size_t n_features, std::size_t depth, std::size_t max_depth,
          double categorical = 0.25) {
  const auto at = t.nodes.size();
  t.nodes.emplace_back();
  if (depth == max_depth || (depth > 1 && uniform(rng) < 0.2)) {
    t.nodes[at].value = 4.0 * uniform(rng) - 2.0;
    t.nodes[at].cover = uniform(rng) < 0.1 ? 0.0 : std::floor(100.0 * uniform(rng));
    return;
  }
  TreeNodeView n;
  n.feature = static_cast<std::int32_t>(rng.next_u64() % n_features);
  if (uniform(rng) < categorical) {
    n.categorical = true;
    n.category_mask = rng.next_u64() & 0xFF;
  } else {
    n.threshold = uniform(rng);
  }
  n.left = static_cast<std::uint32_t>(t.nodes.size());
  grow(t, rng, n_features, depth + 1, max_depth, categorical);
  n.right = static_cast<std::uint32_t>(t.nodes.size());
  grow(t, rng, n_features, depth + 1, max_depth, categorical);
  n.cover = t.nodes[n.left].cover + t.nodes[n.right].cover;
  t.nodes[at] = n;
}

TreeEnsembleView random_ensemble(std::uint64_t seed, std::size_t n_features, std::size_t n_trees, std::size_t depth,
                                 double categorical = 0.25) {
  Xorshift64 rng(seed);
  TreeEnsembleView e;
  e.n_features = n_features;
  e.bias = {0.25};
  for (std::size_t i = 0; i < n_trees; ++i) {
    TreeView t;
    t.scale = 0.5 + uniform(rng);
    grow(t, rng, n_features, 0, depth, categorical);
    e.trees.push_back(std::move(t));
  }
  return e;
}

// A row of numbers in [0, 1), category codes 0..7 (as doubles), and NaNs.
std::vector<double> random_row(Xorshift64& rng, std::size_t n_features) {
  std::vector<double> x(n_features);
  for (double& v : x) {
    const double u = uniform(rng);
    v = u < 0.15 ? kNaN : u < 0.45 ? static_cast<double>(rng.next_u64() % 8) : uniform(rng);
  }
  return x;
}

void expect_matches_brute(const TreeEnsembleView& e, const TreeExplainer& ex, std::span<const double> x) {
  std::vector<double> phi(e.n_features);
  for (std::size_t k = 0; k < e.bias.size(); ++k) {
    auto raw = ex.explain_one(x, k, phi);
    ASSERT_TRUE(raw.is_ok()) << raw.status().message();
    const std::vector<double> ref = test::brute_path(e, k, x);
    double sum = ex.base_value(k);
    for (std::size_t f = 0; f < e.n_features; ++f) {
      EXPECT_NEAR(phi[f], ref[f], kTol) << "output " << k << " feature " << f;
      sum += phi[f];
    }
    EXPECT_NEAR(sum, *raw, kTol);
    EXPECT_NEAR(*raw, *ex.predict_raw(x, k), kTol);
    // Algorithm 2 (the reference form) agrees as well.
    std::vector<double> ref2(e.n_features);
    ASSERT_TRUE(ex.explain_one_ref(x, k, ref2).is_ok());
    for (std::size_t f = 0; f < e.n_features; ++f) EXPECT_NEAR(ref2[f], ref[f], kTol) << "Algorithm 2, feature " << f;
  }
}

TEST(TreeShap, RandomTreesMatchBruteForce) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const TreeEnsembleView e = random_ensemble(seed, 10, 3, 6);
    auto ex = TreeExplainer::make(e, "random");
    ASSERT_TRUE(ex.is_ok()) << ex.status().message();
    EXPECT_TRUE(ex->has_groups());
    Xorshift64 rng(seed * 7919);
    for (int r = 0; r < 5; ++r) expect_matches_brute(e, *ex, random_row(rng, 10));
  }
}

TEST(TreeShap, DeepTreesWithoutTablesMatchBruteForce) {
  // Depth 14 on 12 features: paths with more than kTableMaxUnique distinct
  // features, so explain_one runs Algorithm 2.
  const TreeEnsembleView e = random_ensemble(77, 12, 2, 14);
  auto ex = TreeExplainer::make(e, "deep");
  ASSERT_TRUE(ex.is_ok());
  EXPECT_FALSE(ex->has_tables());
  EXPECT_FALSE(ex->has_groups());
  Xorshift64 rng(5);
  for (int r = 0; r < 3; ++r) expect_matches_brute(e, *ex, random_row(rng, 12));
}

TEST(TreeShap, LeafTablesMatchBruteForce) {
  // Depth 10 on 6 features: groups' keys would exceed kGroupMaxBits bits,
  // leaves have at most 6 distinct features, so the leaf tables are used.
  for (std::uint64_t seed = 31; seed <= 33; ++seed) {
    const TreeEnsembleView e = random_ensemble(seed, 6, 2, 10);
    auto ex = TreeExplainer::make(e, "mid");
    ASSERT_TRUE(ex.is_ok());
    EXPECT_FALSE(ex->has_groups());
    EXPECT_TRUE(ex->has_tables());
    Xorshift64 rng(seed);
    for (int r = 0; r < 4; ++r) expect_matches_brute(e, *ex, random_row(rng, 6));
  }
}

TEST(TreeShap, BatchEqualsOneAtATime) {
  // Both table forms and Algorithm 2, over more rows than one block.
  for (const std::size_t depth : {std::size_t{6}, std::size_t{10}, std::size_t{14}}) {
    const std::size_t nf = depth == 14 ? 12 : 6;
    const TreeEnsembleView e = random_ensemble(40 + depth, nf, 3, depth);
    auto ex = TreeExplainer::make(e, "batch");
    ASSERT_TRUE(ex.is_ok());
    Xorshift64 rng(depth);
    const std::size_t n = depth == 6 ? TreeExplainer::kBatchBlock + 17 : 9;
    std::vector<double> rows;
    for (std::size_t r = 0; r < n; ++r) {
      const std::vector<double> x = random_row(rng, nf);
      rows.insert(rows.end(), x.begin(), x.end());
    }
    std::vector<double> phi(n * nf), raw(n), one(nf);
    ASSERT_TRUE(ex->explain_batch(rows, n, 0, phi, raw).is_ok());
    for (std::size_t r = 0; r < n; ++r) {
      auto v = ex->explain_one(std::span<const double>(rows.data() + r * nf, nf), 0, one);
      ASSERT_TRUE(v.is_ok());
      EXPECT_EQ(raw[r], *v) << "row " << r;
      for (std::size_t f = 0; f < nf; ++f) EXPECT_EQ(phi[r * nf + f], one[f]) << "row " << r << " feature " << f;
    }
    EXPECT_FALSE(ex->explain_batch(rows, n + 1, 0, phi, raw).is_ok());
    EXPECT_FALSE(ex->explain_batch(rows, n, 1, phi, raw).is_ok());
  }
}

// Numeric splits only: explain_batch routes four rows at a time (AVX2
// lanes, where the CPU has them) and must give explain_one's bits, for every
// dense row width, a block that is not a multiple of four, NaN and +-inf.
TEST(TreeShap, NumericBatchEqualsOneAtATimeBitForBit) {
  for (const std::size_t nf : {std::size_t{2}, std::size_t{6}, std::size_t{8}, std::size_t{13}, std::size_t{16}}) {
    const TreeEnsembleView e = random_ensemble(70 + nf, nf, 5, 6, 0.0);
    auto ex = TreeExplainer::make(e, "numeric");
    ASSERT_TRUE(ex.is_ok());
    ASSERT_TRUE(ex->has_groups());
    Xorshift64 rng(nf);
    const std::size_t n = 2 * TreeExplainer::kBatchBlock + 7;
    std::vector<double> rows;
    for (std::size_t r = 0; r < n; ++r) {
      std::vector<double> x = random_row(rng, nf);
      if (r % 37 == 0) x[r % nf] = r % 2 == 0 ? std::numeric_limits<double>::infinity() : -1e300;
      rows.insert(rows.end(), x.begin(), x.end());
    }
    std::vector<double> phi(n * nf), raw(n), one(nf);
    ASSERT_TRUE(ex->explain_batch(rows, n, 0, phi, raw).is_ok());
    for (std::size_t r = 0; r < n; ++r) {
      auto v = ex->explain_one(std::span<const double>(rows.data() + r * nf, nf), 0, one);
      ASSERT_TRUE(v.is_ok());
      ASSERT_EQ(raw[r], *v) << nf << " features, row " << r;
      for (std::size_t f = 0; f < nf; ++f) ASSERT_EQ(phi[r * nf + f], one[f]) << nf << " features, row " << r << " feature " << f;
    }
    for (std::size_t r = 0; r < 5; ++r) expect_matches_brute(e, *ex, std::span<const double>(rows.data() + r * nf, nf));
  }
}

// More than 16 features: group rows hold only the group's own features
// and the value (sparse rows), where up to 16 they hold every feature and
// the value lives apart. Too many features for brute force; Algorithm 2 is
// the reference (itself checked against brute force above).
TEST(TreeShap, WideRowsMatchAlgorithmTwoAndBatch) {
  for (const double categorical : {0.0, 0.25}) {
    constexpr std::size_t nf = 21;
    const TreeEnsembleView e = random_ensemble(90, nf, 4, 6, categorical);
    auto ex = TreeExplainer::make(e, "wide");
    ASSERT_TRUE(ex.is_ok());
    ASSERT_TRUE(ex->has_groups());
    Xorshift64 rng(91);
    const std::size_t n = 40;
    std::vector<double> rows;
    for (std::size_t r = 0; r < n; ++r) {
      const std::vector<double> x = random_row(rng, nf);
      rows.insert(rows.end(), x.begin(), x.end());
    }
    std::vector<double> phi(n * nf), raw(n), one(nf), ref(nf);
    ASSERT_TRUE(ex->explain_batch(rows, n, 0, phi, raw).is_ok());
    for (std::size_t r = 0; r < n; ++r) {
      const std::span<const double> x(rows.data() + r * nf, nf);
      auto v = ex->explain_one(x, 0, one);
      auto v_ref = ex->explain_one_ref(x, 0, ref);
      ASSERT_TRUE(v.is_ok() && v_ref.is_ok());
      EXPECT_EQ(raw[r], *v) << "row " << r;
      EXPECT_NEAR(*v, *v_ref, kTol) << "row " << r;
      for (std::size_t f = 0; f < nf; ++f) {
        EXPECT_EQ(phi[r * nf + f], one[f]) << "row " << r << " feature " << f;
        EXPECT_NEAR(one[f], ref[f], kTol) << "row " << r << " feature " << f;
      }
    }
  }
}

TEST(TreeShap, InterventionalMatchesBruteForce) {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const TreeEnsembleView e = random_ensemble(seed, 8, 3, 5);
    auto ex = TreeExplainer::make(e, "random");
    ASSERT_TRUE(ex.is_ok());
    Xorshift64 rng(seed * 104729);
    std::vector<std::vector<double>> background;
    std::vector<double> flat;
    for (int b = 0; b < 5; ++b) {
      background.push_back(random_row(rng, 8));
      flat.insert(flat.end(), background.back().begin(), background.back().end());
    }
    ASSERT_TRUE(ex->set_background(flat, 5).is_ok());
    for (int r = 0; r < 4; ++r) {
      const std::vector<double> x = random_row(rng, 8);
      std::vector<double> phi(8);
      auto raw = ex->explain_one_interventional(x, 0, phi);
      ASSERT_TRUE(raw.is_ok());
      const std::vector<double> ref = test::brute_interventional(e, 0, x, background);
      double sum = ex->background_base_value(0);
      for (std::size_t f = 0; f < 8; ++f) {
        EXPECT_NEAR(phi[f], ref[f], kTol) << "seed " << seed << " feature " << f;
        sum += phi[f];
      }
      EXPECT_NEAR(sum, *raw, kTol);
    }
  }
}

// Training rows: feature 5 a category code 0..5, ~10% missing values.
std::vector<double> training_row(Xorshift64& rng, std::size_t d, double& y) {
  std::vector<double> x(d);
  for (std::size_t f = 0; f < d; ++f) x[f] = f + 1 == d ? static_cast<double>(rng.next_u64() % 6) : uniform(rng);
  y = 3.0 * x[0] - 2.0 * x[1] * x[2] + (x[d - 1] == 2.0 || x[d - 1] == 4.0 ? 4.0 : 0.0) + (x[3] > 0.5 ? 1.0 : -1.0) + 0.1 * uniform(rng);
  for (double& v : x)
    if (uniform(rng) < 0.1) v = kNaN;
  return x;
}

TEST(TreeShap, LearnedSgbtRegressionMatchesBruteForceAndPrediction) {
  SGBTConfig config;
  config.n_steps = 8;
  config.tree.grace_period = 50;
  config.tree.categorical = {5};
  SGBTLearner model = testing::sgbt_learner(config, Task::kRegression);
  Xorshift64 rng(5);
  double y = 0.0;
  for (int i = 0; i < 3000; ++i) {
    const std::vector<double> x = training_row(rng, 6, y);
    model.learn_one(x, y);
  }
  auto view = model.tree_ensemble();
  ASSERT_TRUE(view.is_ok());
  bool any_category_split = false;
  for (const TreeView& t : view->trees)
    for (const TreeNodeView& n : t.nodes) any_category_split = any_category_split || n.categorical;
  EXPECT_TRUE(any_category_split);
  auto ex = TreeExplainer::make(model);
  ASSERT_TRUE(ex.is_ok()) << ex.status().message();
  for (int r = 0; r < 20; ++r) {
    std::vector<double> x = training_row(rng, 6, y);
    if (r == 0) x[0] = std::numeric_limits<double>::infinity();  // missing, as SGBT predicts
    expect_matches_brute(*view, *ex, x);
    std::vector<double> raw(1);
    model.predict_raw(x, raw);
    EXPECT_NEAR(*ex->predict_raw(x, 0), raw[0], kTol);
  }
}

TEST(TreeShap, LearnedSgbtMulticlassPerClass) {
  SGBTConfig config;
  config.n_steps = 5;
  config.tree.grace_period = 50;
  SGBTLearner model = testing::sgbt_learner(config, Task::kClassification, 3);
  Xorshift64 rng(9);
  double y = 0.0;
  for (int i = 0; i < 2000; ++i) {
    const std::vector<double> x = training_row(rng, 6, y);
    model.learn_one(x, y < 0.0 ? 0.0 : y < 1.5 ? 1.0 : 2.0);
  }
  auto view = model.tree_ensemble();
  ASSERT_TRUE(view.is_ok());
  ASSERT_EQ(view->bias.size(), 3u);
  auto ex = TreeExplainer::make(*view, "sgbt");
  ASSERT_TRUE(ex.is_ok());
  std::vector<double> raw(3);
  for (int r = 0; r < 10; ++r) {
    const std::vector<double> x = training_row(rng, 6, y);
    expect_matches_brute(*view, *ex, x);
    model.predict_raw(x, raw);
    for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(*ex->predict_raw(x, c), raw[c], kTol);
  }
}

TEST(TreeShap, HoeffdingTreeClassificationWithNominalMultiway) {
  HoeffdingTreeConfig config;
  config.leaf_model = LeafModel::kMajority;
  config.grace_period = 50;
  config.categorical = {5};
  HoeffdingTreeLearner model(config, {Task::kClassification, 2, 6, 1});
  Xorshift64 rng(3);
  double y = 0.0;
  for (int i = 0; i < 5000; ++i) {
    const std::vector<double> x = training_row(rng, 6, y);
    model.learn_one(x, y > 1.0 ? 1.0 : 0.0);
  }
  auto view = model.tree_ensemble();
  ASSERT_TRUE(view.is_ok());
  ASSERT_GT(view->trees[0].nodes.size(), 1u);
  std::size_t category_nodes = 0;
  for (const TreeNodeView& n : view->trees[0].nodes) category_nodes += n.categorical ? 1 : 0;
  EXPECT_GT(category_nodes, 0u);  // the nominal feature split (multiway: a chain of one-code splits)
  auto ex = TreeExplainer::make(model);
  ASSERT_TRUE(ex.is_ok());
  std::vector<double> proba(2);
  for (int r = 0; r < 15; ++r) {
    const std::vector<double> x = training_row(rng, 6, y);
    expect_matches_brute(*view, *ex, x);
    model.predict_proba_one(x, proba);
    for (std::size_t c = 0; c < 2; ++c) EXPECT_NEAR(*ex->predict_raw(x, c), proba[c], kTol);
  }
}

TEST(TreeShap, ArfRegressionIsTheMembersAverage) {
  ARFConfig config;
  config.n_trees = 4;
  config.tree.grace_period = 50;
  // The default adaptive leaves may answer by a linear model, which TreeSHAP
  // cannot take apart: the error says which leaves it needs.
  {
    AdaptiveRandomForest adaptive(config, {Task::kRegression, 0, 6, 11});
    auto refused = TreeExplainer::make(adaptive);
    ASSERT_FALSE(refused.is_ok());
    EXPECT_NE(refused.status().message().find("leaf-model mean"), std::string::npos) << refused.status().message();
  }
  config.tree.leaf_model = LeafModel::kMean;
  AdaptiveRandomForest model(config, {Task::kRegression, 0, 6, 11});
  Xorshift64 rng(13);
  double y = 0.0;
  for (int i = 0; i < 3000; ++i) {
    const std::vector<double> x = training_row(rng, 6, y);
    model.learn_one(x, y);
  }
  auto view = model.tree_ensemble();
  ASSERT_TRUE(view.is_ok()) << view.status().message();
  auto ex = TreeExplainer::make(*view, "arf");
  ASSERT_TRUE(ex.is_ok());
  for (int r = 0; r < 10; ++r) {
    const std::vector<double> x = training_row(rng, 6, y);
    expect_matches_brute(*view, *ex, x);
    EXPECT_NEAR(*ex->predict_raw(x, 0), model.predict_one(x), kTol);
  }
}

TEST(TreeShap, ArfClassificationMatchesWeightedVote) {
  ARFConfig config;
  config.n_trees = 3;
  config.tree.grace_period = 50;
  config.tree.leaf_model = LeafModel::kMajority;
  AdaptiveRandomForest model(config, {Task::kClassification, 2, 6, 17});
  Xorshift64 rng(19);
  double y = 0.0;
  for (int i = 0; i < 2000; ++i) {
    const std::vector<double> x = training_row(rng, 6, y);
    model.learn_one(x, y > 1.0 ? 1.0 : 0.0);
  }
  auto ex = TreeExplainer::make(model);
  ASSERT_TRUE(ex.is_ok());
  std::vector<double> proba(2);
  for (int r = 0; r < 10; ++r) {
    const std::vector<double> x = training_row(rng, 6, y);
    model.predict_proba_one(x, proba);
    for (std::size_t c = 0; c < 2; ++c) EXPECT_NEAR(*ex->predict_raw(x, c), proba[c], kTol);
  }
}

TEST(TreeShap, InterventionalOnLearnedSgbt) {
  SGBTConfig config;
  config.n_steps = 4;
  config.tree.grace_period = 50;
  SGBTLearner model = testing::sgbt_learner(config, Task::kRegression);
  Xorshift64 rng(23);
  double y = 0.0;
  std::vector<std::vector<double>> background;
  std::vector<double> flat;
  for (int i = 0; i < 2000; ++i) {
    const std::vector<double> x = training_row(rng, 6, y);
    model.learn_one(x, y);
    if (i % 400 == 0) {
      background.push_back(x);
      flat.insert(flat.end(), x.begin(), x.end());
    }
  }
  auto view = model.tree_ensemble();
  ASSERT_TRUE(view.is_ok());
  auto ex = TreeExplainer::make(*view, "sgbt");
  ASSERT_TRUE(ex.is_ok());
  ASSERT_TRUE(ex->set_background(flat, background.size()).is_ok());
  std::vector<double> phi(6);
  for (int r = 0; r < 5; ++r) {
    const std::vector<double> x = training_row(rng, 6, y);
    ASSERT_TRUE(ex->explain_one_interventional(x, 0, phi).is_ok());
    const std::vector<double> ref = test::brute_interventional(*view, 0, x, background);
    for (std::size_t f = 0; f < 6; ++f) EXPECT_NEAR(phi[f], ref[f], kTol);
  }
}

// A learner with no trees.
class Constant final : public Learner {
 public:
  std::string_view name() const override { return "constant"; }
  Task task() const override { return Task::kRegression; }
  std::size_t n_features() const override { return 1; }
  void learn_one(std::span<const double>, double, double) override {}
  double predict_one(std::span<const double>) const override { return 0.0; }
  void reset() override {}
  std::uint64_t n_samples_seen() const override { return 0; }
  std::size_t memory_bytes() const override { return 0; }
  void encode(ByteWriter&) const override {}
  Status decode(ByteReader&) override { return Status::ok(); }
};

TEST(TreeShap, ErrorsNameTheModel) {
  auto none = TreeExplainer::make(Constant{});
  ASSERT_FALSE(none.is_ok());
  EXPECT_NE(none.status().message().find("'constant' has no trees"), std::string::npos) << none.status().message();

  HoeffdingTreeLearner untrained(HoeffdingTreeConfig{}, {Task::kRegression, 0, 0, 1});
  auto empty = TreeExplainer::make(untrained);
  ASSERT_FALSE(empty.is_ok());
  EXPECT_NE(empty.status().message().find("hoeffding_tree"), std::string::npos);

  SGBTConfig linear;
  linear.tree.leaf_model = TreeLeafModel::kLinear;
  auto lin = TreeExplainer::make(testing::sgbt_learner(linear, Task::kRegression));
  ASSERT_FALSE(lin.is_ok());
  EXPECT_NE(lin.status().message().find("linear leaves"), std::string::npos);

  // Hostile views: a cycle (child before its parent), a shared child, a
  // feature out of range, a NaN leaf.
  TreeEnsembleView e = random_ensemble(3, 4, 1, 3);
  ASSERT_TRUE(TreeExplainer::make(e, "m").is_ok());
  TreeEnsembleView bad = e;
  bad.trees[0].nodes[0].left = 0;
  EXPECT_FALSE(TreeExplainer::make(bad, "m").is_ok());
  bad = e;
  bad.trees[0].nodes[0].right = bad.trees[0].nodes[0].left + 1;
  if (bad.trees[0].nodes[bad.trees[0].nodes[0].left].feature >= 0) {
    auto r = TreeExplainer::make(bad, "m");
    ASSERT_FALSE(r.is_ok());
    EXPECT_NE(r.status().message().find("model 'm', tree 0"), std::string::npos) << r.status().message();
  }
  bad = e;
  bad.trees[0].nodes[0].feature = 4;
  EXPECT_FALSE(TreeExplainer::make(bad, "m").is_ok());
  bad = e;
  bad.trees[0].nodes.back().value = kNaN;
  EXPECT_FALSE(TreeExplainer::make(bad, "m").is_ok());

  auto ex = TreeExplainer::make(e, "m");
  std::vector<double> phi(4), x(3, 0.0);
  EXPECT_FALSE(ex->explain_one(x, 0, phi).is_ok());                  // wrong width
  EXPECT_FALSE(ex->explain_one_interventional(std::vector<double>(4, 0.0), 0, phi).is_ok());  // no background
  EXPECT_FALSE(ex->set_background(x, 1).is_ok());
}

}  // namespace
}  // namespace irithyll
