// Explaining the tree ensembles that are not TreeModels
// (TreeExplainer::trees_of): adaptive_sgbt, multi_target_sgbt, bagged_sgbt
// regression, distributional_sgbt's location, quantile_sgbt's quantiles, srp (members over feature
// subspaces) and leveraging_bagging match brute-force Shapley values and add
// up to the model's own prediction to 1e-9; every other tree learner of the
// catalogue is refused with its name and the reason.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "brute_force.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/adaptive_sgbt.hpp"
#include "irithyll/ensemble/arf_config.hpp"
#include "irithyll/ensemble/bagged_sgbt.hpp"
#include "irithyll/ensemble/distributional_sgbt.hpp"
#include "irithyll/ensemble/leveraging_bagging.hpp"
#include "irithyll/ensemble/moe_distributional_sgbt.hpp"
#include "irithyll/ensemble/moe_sgbt.hpp"
#include "irithyll/ensemble/multi_target_sgbt.hpp"
#include "irithyll/ensemble/quantile_sgbt.hpp"
#include "irithyll/ensemble/srp.hpp"
#include "irithyll/explain/tree_shap.hpp"

namespace irithyll {
namespace {

constexpr double kSourceTol = 1e-9;

double uniform01(Xorshift64& rng) { return static_cast<double>(rng.next_u64() >> 11) * 0x1.0p-53; }

// Six features, ~5% missing; two targets.
std::vector<double> row(Xorshift64& rng, double& y0, double& y1) {
  std::vector<double> x(6);
  for (double& v : x) v = uniform01(rng);
  y0 = 3.0 * x[0] - 2.0 * x[1] * x[2] + (x[3] > 0.5 ? 1.0 : -1.0) + 0.1 * uniform01(rng);
  y1 = x[4] * x[5] - x[0] + 0.1 * uniform01(rng);
  for (double& v : x)
    if (uniform01(rng) < 0.05) v = std::numeric_limits<double>::quiet_NaN();
  return x;
}

SGBTConfig small_sgbt() {
  SGBTConfig c;
  c.n_steps = 6;
  c.tree.grace_period = 50;
  return c;
}

// trees_of(model) matches brute force on 8 fresh rows; predict(x, k) is the
// model's own output k for x.
template <class Predict>
void expect_explained(const Learner& model, std::size_t outputs, Predict predict) {
  auto view = TreeExplainer::trees_of(model);
  ASSERT_TRUE(view.is_ok()) << view.status().message();
  ASSERT_EQ(view->bias.size(), outputs);
  auto ex = TreeExplainer::make(model);
  ASSERT_TRUE(ex.is_ok()) << ex.status().message();
  Xorshift64 rng(99);
  double y0 = 0.0, y1 = 0.0;
  std::vector<double> phi(6);
  std::size_t splits = 0;
  for (const TreeView& t : view->trees)
    for (const TreeNodeView& n : t.nodes) splits += n.feature >= 0;
  EXPECT_GT(splits, 0u) << model.name() << " learned no split: the test would be vacuous";
  for (int r = 0; r < 8; ++r) {
    const std::vector<double> x = row(rng, y0, y1);
    for (std::size_t k = 0; k < outputs; ++k) {
      auto raw = ex->explain_one(x, k, phi);
      ASSERT_TRUE(raw.is_ok());
      const std::vector<double> ref = test::brute_path(*view, k, x);
      double sum = ex->base_value(k);
      for (std::size_t f = 0; f < 6; ++f) {
        EXPECT_NEAR(phi[f], ref[f], kSourceTol) << model.name() << " output " << k << " feature " << f;
        sum += phi[f];
      }
      EXPECT_NEAR(sum, *raw, kSourceTol);
      EXPECT_NEAR(*raw, predict(x, k), kSourceTol) << model.name() << " output " << k;
    }
  }
}

TEST(TreeSources, AdaptiveSgbtIsItsSgbt) {
  AdaptiveSGBTConfig config;
  config.base = small_sgbt();
  AdaptiveSGBT model(config, {.seed = config.base.seed});
  Xorshift64 rng(1);
  double y0 = 0.0, y1 = 0.0;
  for (int i = 0; i < 3000; ++i) {
    const std::vector<double> x = row(rng, y0, y1);
    model.learn_one(x, y0);
  }
  expect_explained(model, 1, [&](std::span<const double> x, std::size_t) { return model.predict_one(x); });
}

TEST(TreeSources, MultiTargetSgbtOneOutputPerTarget) {
  const SGBTConfig config = small_sgbt();
  const std::size_t n_targets = 2;
  MultiTargetSGBT model(config, {.seed = config.seed, .n_targets = n_targets});
  Xorshift64 rng(2);
  double y[2] = {};
  for (int i = 0; i < 3000; ++i) {
    const std::vector<double> x = row(rng, y[0], y[1]);
    model.learn_multi(x, y);
  }
  std::vector<double> out(2);
  expect_explained(model, 2, [&](std::span<const double> x, std::size_t k) {
    model.predict_multi(x, out);
    return out[k];
  });
  auto view = TreeExplainer::trees_of(model);
  ASSERT_TRUE(view.is_ok());
  EXPECT_EQ(view->output_names[1], "target 1");
}

TEST(TreeSources, BaggedSgbtRegressionIsTheBagsMean) {
  BaggedSGBTConfig config;
  config.n_bags = 3;
  config.sgbt = small_sgbt();
  BaggedSGBT model(config, {.seed = 7});
  Xorshift64 rng(3);
  double y0 = 0.0, y1 = 0.0;
  for (int i = 0; i < 3000; ++i) {
    const std::vector<double> x = row(rng, y0, y1);
    model.learn_one(x, y0);
  }
  expect_explained(model, 1, [&](std::span<const double> x, std::size_t) { return model.predict_one(x); });
}

TEST(TreeSources, DistributionalSgbtExplainsItsLocation) {
  DistributionalSGBTConfig config;
  config.base = small_sgbt();
  DistributionalSGBT model(config);
  Xorshift64 rng(4);
  double y0 = 0.0, y1 = 0.0;
  for (int i = 0; i < 3000; ++i) {
    const std::vector<double> x = row(rng, y0, y1);
    model.learn_one(x, y0);
  }
  expect_explained(model, 1, [&](std::span<const double> x, std::size_t) { return model.predict_one(x); });
  auto view = TreeExplainer::trees_of(model);
  ASSERT_TRUE(view.is_ok());
  EXPECT_EQ(view->output_names[0], "location");
}

// Majority-class leaves, so each member's class probabilities are its leaf's
// class weight shares (what the trees hold) and the vote is a sum of trees.
HoeffdingTreeConfig majority_tree() {
  HoeffdingTreeConfig t = ARFConfig::default_tree();
  t.leaf_model = LeafModel::kMajority;
  return t;
}

double three_classes(double y0) { return y0 < 0.0 ? 0.0 : y0 < 1.5 ? 1.0 : 2.0; }

TEST(TreeSources, SrpRegressionIsTheMembersAverageOverTheirSubspaces) {
  SRPConfig config;
  config.n_models = 4;
  config.tree.grace_period = 50;
  config.tree.leaf_model = LeafModel::kMean;  // constant leaves (the default adaptive ones may be linear)
  auto model = StreamingRandomPatches::make(config, {Task::kRegression, 0, 6, 5});
  ASSERT_TRUE(model.is_ok()) << model.status().message();
  Xorshift64 rng(5);
  double y0 = 0.0, y1 = 0.0;
  for (int i = 0; i < 3000; ++i) {
    const std::vector<double> x = row(rng, y0, y1);
    (*model)->learn_one(x, y0);
  }
  ASSERT_LT((*model)->member_features(0).size(), 6u);  // a proper subspace: the feature map is exercised
  expect_explained(**model, 1, [&](std::span<const double> x, std::size_t) { return (*model)->predict_one(x); });
}

TEST(TreeSources, SrpClassificationMatchesTheWeightedVote) {
  for (const ARFVote vote : {ARFVote::kWeighted, ARFVote::kMajority}) {
    SRPConfig config;
    config.n_models = 4;
    config.vote = vote;
    config.tree = majority_tree();
    auto model = StreamingRandomPatches::make(config, {Task::kClassification, 3, 6, 6});
    ASSERT_TRUE(model.is_ok()) << model.status().message();
    Xorshift64 rng(6);
    double y0 = 0.0, y1 = 0.0;
    for (int i = 0; i < 3000; ++i) {
      const std::vector<double> x = row(rng, y0, y1);
      (*model)->learn_one(x, three_classes(y0));
    }
    std::vector<double> proba(3);
    if (vote == ARFVote::kWeighted) {
      expect_explained(**model, 3, [&](std::span<const double> x, std::size_t k) {
        (*model)->predict_proba_one(x, proba);
        return proba[k];
      });
    } else {
      // A majority vote counts arg-maxes (not additive): the explanation is
      // of the members' plain average, still exact Shapley values of it.
      expect_explained(**model, 3, [&](std::span<const double> x, std::size_t k) {
        double mean = 0.0;
        auto view = (*model)->tree_ensemble();
        for (const TreeView& t : view->trees)
          if (t.output == k) mean += t.scale * test::eval_tree(t, test::sanitized(*view, x));
        return mean;
      });
    }
  }
}

TEST(TreeSources, LeveragingBaggingIsTheMembersAverage) {
  LeveragingBaggingConfig config;
  config.n_models = 4;
  config.tree = majority_tree();
  auto model = LeveragingBagging::make(config, {Task::kClassification, 3, 6, 7});
  ASSERT_TRUE(model.is_ok()) << model.status().message();
  Xorshift64 rng(7);
  double y0 = 0.0, y1 = 0.0;
  for (int i = 0; i < 3000; ++i) {
    const std::vector<double> x = row(rng, y0, y1);
    (*model)->learn_one(x, three_classes(y0));
  }
  std::vector<double> proba(3);
  expect_explained(**model, 3, [&](std::span<const double> x, std::size_t k) {
    (*model)->predict_proba_one(x, proba);
    return proba[k];
  });
}

// Each quantile before rearrangement: where the raw quantiles do not cross
// (checked on the explained rows) they are the model's own quantiles.
TEST(TreeSources, QuantileSgbtOneOutputPerQuantile) {
  for (const bool centre : {true, false}) {
    QuantileSGBTConfig config;
    config.base = small_sgbt();
    config.center = centre;
    auto made = QuantileSGBT::make(config, {Task::kRegression, 0, 6, 5});
    ASSERT_TRUE(made.is_ok()) << made.status().message();
    QuantileSGBT& model = **made;
    Xorshift64 rng(5);
    double y0 = 0.0, y1 = 0.0;
    for (int i = 0; i < 3000; ++i) {
      const std::vector<double> x = row(rng, y0, y1);
      model.learn_one(x, y0);
    }
    std::vector<double> q(config.quantiles.size());
    expect_explained(model, config.quantiles.size(), [&](std::span<const double> x, std::size_t k) {
      model.predict_quantiles(x, q);
      return q[k];
    });
    auto view = TreeExplainer::trees_of(model);
    ASSERT_TRUE(view.is_ok());
    EXPECT_EQ(view->output_names[0], "quantile 0.05");
    EXPECT_EQ(view->output_names[2], "quantile 0.95");
  }
}

void expect_refused(const Learner& model, const std::string& why) {
  auto ex = TreeExplainer::make(model);
  ASSERT_FALSE(ex.is_ok()) << model.name();
  const std::string m = ex.status().message();
  EXPECT_NE(m.find("model '" + std::string(model.name()) + "'"), std::string::npos) << m;
  EXPECT_NE(m.find(why), std::string::npos) << m;
}

TEST(TreeSources, OtherTreeLearnersAreRefusedWithTheReason) {
  BaggedSGBTConfig bagged;
  bagged.n_bags = 2;
  expect_refused(BaggedSGBT(bagged, {.task = Task::kClassification, .n_classes = 2, .seed = 1}), "class probabilities");
  expect_refused(MoESGBT(), "not be Shapley values");
  expect_refused(MoEDistributionalSGBT(), "gate");
  expect_refused(StreamingRandomPatches(), "no trees yet");
  LeveragingBaggingConfig coded;
  coded.output_codes = true;
  auto lb = LeveragingBagging::make(coded, {Task::kClassification, 3, 6, 1});
  ASSERT_TRUE(lb.is_ok());
  expect_refused(**lb, "output codes");
}

}  // namespace
}  // namespace irithyll
