// Tree dumps: the text outline and the dot graph name every node, with
// feature names where given, and agree with the tree's own structure.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "tree/tree_dump.hpp"

namespace irithyll {
namespace {

GradientTree grown() {
  GradientTreeConfig c;
  c.grace_period = 50;
  c.n_bins = 16;
  c.max_depth = 3;
  c.delta = 0.01;
  GradientTree t(c);
  Xorshift64 rng(4);
  double x[2];
  for (int i = 0; i < 3000; ++i) {
    x[0] = rng.uniform();
    x[1] = rng.uniform();
    t.learn_one(x, x[0] > 0.5 ? -2.0 : 1.0 + x[1], 1.0);
  }
  return t;
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(TreeDump, TextHasOneLinePerNodeAndNames) {
  const GradientTree t = grown();
  ASSERT_GT(t.n_leaves(), 2u);
  const std::vector<std::string> names = {"price", "demand"};
  const std::string text = dump_tree_text(t, names);
  EXPECT_EQ(count(text, "\n"), t.n_nodes());
  EXPECT_EQ(count(text, "leaf "), t.n_leaves());
  EXPECT_EQ(text.rfind("price <= ", 0), 0u) << text;  // the root splits on x0
  EXPECT_EQ(count(dump_tree_text(t), "price"), 0u);
  EXPECT_GT(count(dump_tree_text(t), "x0 <= "), 0u);
}

TEST(TreeDump, DotHasEveryNodeAndTwoEdgesPerSplit) {
  const GradientTree t = grown();
  const std::vector<std::string> names = {"a\"b", "c"};
  const std::string dot = dump_tree_dot(t, names);
  EXPECT_EQ(dot.rfind("digraph tree {", 0), 0u);
  EXPECT_EQ(count(dot, " -> "), t.n_nodes() - 1);
  EXPECT_EQ(count(dot, "shape=ellipse"), t.n_leaves());
  EXPECT_GT(count(dot, "a\\\"b <= "), 0u);  // quotes escaped
  EXPECT_EQ(dump_tree_text(GradientTree{}), "leaf 0 (n=0)\n");
}

}  // namespace
}  // namespace irithyll
