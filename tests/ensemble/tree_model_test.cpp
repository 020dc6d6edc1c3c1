// TreeModel: every tree learner dumps each of its trees with one line (text)
// or one node statement (dot) per node, names features where given, and
// counts one split per internal node. A stream whose label is x0 > 0.5 makes
// every tree's root split on x0, so its name leads each outline.
#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/arf.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"
#include "ensemble/tree_slot.hpp"

namespace irithyll {
namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

std::size_t lines(const std::string& s) { return count(s, "\n"); }

void train_step_stream(Learner& l, bool regression) {
  Xorshift64 rng(11);
  double x[3];
  for (int i = 0; i < 4000; ++i) {
    for (double& v : x) v = rng.uniform();
    const double y = x[0] > 0.5 ? 1.0 : 0.0;
    l.learn_one(x, regression ? 3.0 * y + 0.01 * x[1] : y);
  }
}

const std::vector<std::string> kNames = {"price", "demand", "hour"};

// Checks the shared TreeModel contract on a trained learner whose trees each
// have `nodes(i)` nodes.
template <typename NodesOf>
void check_dumps(const TreeModel& m, NodesOf nodes) {
  ASSERT_GT(m.n_dump_trees(), 0u);
  std::uint64_t internal = 0;
  for (std::size_t i = 0; i < m.n_dump_trees(); ++i) {
    const std::size_t n = nodes(i);
    internal += (n - 1) / 2;
    const std::string text = m.dump_tree(i, TreeDumpFormat::kText, kNames);
    EXPECT_EQ(lines(text), n) << m.tree_label(i) << "\n" << text;
    const std::string dot = m.dump_tree(i, TreeDumpFormat::kDot, kNames);
    EXPECT_EQ(dot.rfind("digraph tree {", 0), 0u);
    EXPECT_EQ(count(dot, "label=\"yes\""), (n - 1) / 2) << dot;
    EXPECT_EQ(count(dot, " -> "), n - 1) << dot;
    EXPECT_FALSE(m.tree_label(i).empty());
  }
  const std::vector<std::uint64_t> splits = m.feature_split_counts();
  ASSERT_EQ(splits.size(), 3u);
  EXPECT_EQ(std::accumulate(splits.begin(), splits.end(), std::uint64_t{0}), internal);
  EXPECT_GT(splits[0], 0u);
}

TEST(TreeModel, HoeffdingTreeClassifierDumpsItsTreeWithNames) {
  HoeffdingTreeConfig c;
  c.grace_period = 50;
  auto ht = HoeffdingTreeLearner::make(c, {Task::kClassification, 2, 3, 1}).value();
  EXPECT_EQ(ht->n_dump_trees(), 1u);
  train_step_stream(*ht, false);
  ASSERT_GT(ht->tree()->n_nodes(), 1u);
  check_dumps(*ht, [&](std::size_t) { return ht->tree()->n_nodes(); });
  const std::string text = ht->dump_tree(0, TreeDumpFormat::kText, kNames);
  EXPECT_EQ(text.rfind("price <= ", 0), 0u) << text;
  EXPECT_NE(text.find("leaf class 1"), std::string::npos) << text;
  EXPECT_EQ(ht->dump_tree(0, TreeDumpFormat::kText).rfind("x0 <= ", 0), 0u);
  EXPECT_TRUE(ht->feature_importances().empty());
}

TEST(TreeModel, HoeffdingRegressionTreeShowsLeafMeans) {
  HoeffdingTreeConfig c;
  c.grace_period = 50;
  auto ht = HoeffdingTreeLearner::make(c, {Task::kRegression, 0, 3, 1}).value();
  train_step_stream(*ht, true);
  ASSERT_GT(ht->tree()->n_nodes(), 1u);
  check_dumps(*ht, [&](std::size_t) { return ht->tree()->n_nodes(); });
  const std::string text = ht->dump_tree(0, TreeDumpFormat::kText, kNames);
  EXPECT_EQ(text.rfind("price <= ", 0), 0u) << text;
  EXPECT_NE(text.find("(w="), std::string::npos) << text;
}

TEST(TreeModel, ForestDumpsEveryMember) {
  ARFConfig c;
  c.n_trees = 3;
  auto arf = AdaptiveRandomForest::make(c, {Task::kClassification, 2, 3, 2}).value();
  train_step_stream(*arf, false);
  EXPECT_EQ(arf->n_dump_trees(), 3u);
  EXPECT_EQ(arf->tree_label(2), "member 2");
  // Node counts are read back from the outline's own length, so the check
  // here is the split count against the sum of internal nodes.
  std::uint64_t internal = 0;
  for (std::size_t i = 0; i < 3; ++i) internal += (lines(arf->dump_tree(i, TreeDumpFormat::kText)) - 1) / 2;
  const auto splits = arf->feature_split_counts();
  EXPECT_EQ(std::accumulate(splits.begin(), splits.end(), std::uint64_t{0}), internal);
  EXPECT_GT(internal, 0u);
}

TEST(TreeModel, SgbtNumbersTreesCommitteeMajor) {
  SGBTConfig c;
  c.n_steps = 4;
  c.tree.grace_period = 50;
  auto binary = SGBTLearner::make(c, {.task = Task::kClassification, .n_classes = 2, .seed = c.seed}).value();
  train_step_stream(*binary, false);
  ASSERT_EQ(binary->n_dump_trees(), 4u);
  EXPECT_EQ(binary->tree_label(3), "step 3");
  check_dumps(*binary, [&](std::size_t i) { return binary->committee(0).slot(i).active().n_nodes(); });
  EXPECT_EQ(binary->dump_tree(0, TreeDumpFormat::kText, kNames).rfind("price <= ", 0), 0u);
  EXPECT_FALSE(binary->feature_importances().empty());

  auto multi = SGBTLearner::make(c, {.task = Task::kClassification, .n_classes = 3, .seed = c.seed}).value();
  EXPECT_EQ(multi->n_dump_trees(), 12u);
  EXPECT_EQ(multi->tree_label(5), "class 1, step 1");
}

}  // namespace
}  // namespace irithyll
