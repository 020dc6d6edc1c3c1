// dump_sgbt_tree: the public view of one boosting step's active tree agrees
// with the internal tree dump of that step, in both formats, and an
// out-of-range step gives an empty string.
#include "irithyll/ensemble/sgbt_dump.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "ensemble/tree_slot.hpp"
#include "tree/tree_dump.hpp"

namespace irithyll {
namespace {

SGBT grown() {
  SGBTConfig c;
  c.n_steps = 3;
  c.tree.grace_period = 50;
  c.tree.max_depth = 3;
  SGBT m(c, Loss(LossKind::kSquared));
  Xorshift64 rng(7);
  double x[2];
  for (int i = 0; i < 3000; ++i) {
    x[0] = rng.uniform();
    x[1] = rng.uniform();
    m.train_one(x, x[0] > 0.5 ? -2.0 : 1.0 + x[1]);
  }
  return m;
}

TEST(SgbtDump, EachStepMatchesItsActiveTree) {
  const SGBT m = grown();
  const std::vector<std::string> names = {"price", "demand"};
  for (std::size_t s = 0; s < m.n_steps(); ++s) {
    const GradientTree& t = m.slot(s).active();
    EXPECT_EQ(dump_sgbt_tree(m, s, TreeDumpFormat::kText, names), dump_tree_text(t, names));
    EXPECT_EQ(dump_sgbt_tree(m, s, TreeDumpFormat::kDot), dump_tree_dot(t));
  }
  // The first step learned the split on x0 (names used).
  EXPECT_EQ(dump_sgbt_tree(m, 0, TreeDumpFormat::kText, names).rfind("price <= ", 0), 0u);
  EXPECT_NE(dump_sgbt_tree(m, 0, TreeDumpFormat::kText), dump_sgbt_tree(m, 0, TreeDumpFormat::kDot));
}

TEST(SgbtDump, OutOfRangeStepIsEmpty) {
  const SGBT m = grown();
  EXPECT_EQ(dump_sgbt_tree(m, m.n_steps(), TreeDumpFormat::kText), "");
  EXPECT_EQ(dump_sgbt_tree(m, 1000, TreeDumpFormat::kDot), "");
}

}  // namespace
}  // namespace irithyll
