// SGBT's leaf-control options reach every tree through the config table:
// a monotone committee, the options' rows, and checkpoints that carry them.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll {
namespace {

// y = sin(6 x0) - 2 x1 + noise: not monotone in x0, decreasing in x1.
std::unique_ptr<SGBTLearner> train(const char* monotone, int n) {
  SGBTConfig c;
  EXPECT_TRUE(set_sgbt_config_field(c, "monotone", monotone).is_ok());
  EXPECT_TRUE(set_sgbt_config_field(c, "n-steps", "20").is_ok());
  auto m = SGBTLearner::make(c, Task::kRegression, 0);
  EXPECT_TRUE(m.is_ok());
  Xorshift64 rng(5);
  double x[3];
  for (int i = 0; i < n; ++i) {
    for (double& v : x) v = rng.uniform();
    (*m)->learn_one(x, std::sin(6.0 * x[0]) - 2.0 * x[1] + 0.1 * rng.normal());
  }
  return std::move(*m);
}

// Largest rise (sign -1) or drop (sign +1) of the prediction while feature f
// sweeps a grid, the other features held at several values.
double worst_violation(const SGBTLearner& m, int f, int sign) {
  double worst = 0.0;
  for (double a : {0.15, 0.5, 0.85})
    for (double b : {0.2, 0.7}) {
      double prev = -INFINITY;
      for (int i = 0; i <= 100; ++i) {
        double x[3] = {a, a, b};
        x[f] = i / 100.0;
        const double p = sign * m.predict_one(x);
        worst = std::max(worst, prev - p);
        prev = p;
      }
    }
  return worst;
}

TEST(SGBTOptions, MonotoneConstraintsHoldForTheCommittee) {
  const auto free_model = train("", 20000);
  EXPECT_GT(worst_violation(*free_model, 0, +1), 0.05);  // the data are not monotone in x0
  const auto m = train("1,-1", 20000);
  EXPECT_EQ(worst_violation(*m, 0, +1), 0.0);
  EXPECT_EQ(worst_violation(*m, 1, -1), 0.0);
}

TEST(SGBTOptions, RowsParseAndRefuse) {
  SGBTConfig c;
  EXPECT_TRUE(set_sgbt_config_field(c, "monotone", "0, +1,-1").is_ok());
  EXPECT_EQ(c.monotone, (std::vector<std::int8_t>{0, 1, -1}));
  EXPECT_EQ(c.tree_config(3).monotone, c.monotone);
  EXPECT_FALSE(set_sgbt_config_field(c, "monotone", "0,2").is_ok());
  EXPECT_TRUE(set_sgbt_config_field(c, "max-leaf-output", "1.5").is_ok());
  EXPECT_TRUE(set_sgbt_config_field(c, "min-hessian-sum", "3").is_ok());
  EXPECT_TRUE(set_sgbt_config_field(c, "gradient-clip-sigma", "2").is_ok());
  EXPECT_FALSE(set_sgbt_config_field(c, "gradient-clip-sigma", "-1").is_ok());
  const TreeConfig t = c.tree_config(0);
  EXPECT_EQ(t.max_leaf_output, 1.5);
  EXPECT_EQ(t.min_hessian_sum, 3.0);
  EXPECT_EQ(t.gradient_clip_sigma, 2.0);
  ByteWriter w;
  c.encode(w);
  SGBTConfig d;
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok());
  EXPECT_EQ(d.monotone, c.monotone);
  EXPECT_EQ(d.max_leaf_output, 1.5);
  EXPECT_EQ(d.min_hessian_sum, 3.0);
  EXPECT_EQ(d.gradient_clip_sigma, 2.0);
}

TEST(SGBTOptions, CheckpointWithOptionsContinuesBitIdentically) {
  SGBTConfig c;
  c.n_steps = 10;
  c.monotone = {1, 0, -1};
  c.gradient_clip_sigma = 3.0;
  c.max_leaf_output = 2.0;
  c.min_hessian_sum = 1.0;
  SGBTLearner m(c, Task::kClassification, 2);
  Xorshift64 rng(2);
  double x[3];
  auto label = [&] { return x[0] - x[2] + 0.3 * rng.normal() > 0.0 ? 1.0 : 0.0; };
  for (int i = 0; i < 3000; ++i) {
    for (double& v : x) v = rng.uniform();
    m.learn_one(x, label());
  }
  ByteWriter w;
  m.encode(w);
  SGBTLearner d;
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok());
  for (int i = 0; i < 3000; ++i) {
    for (double& v : x) v = rng.uniform();
    ASSERT_EQ(std::bit_cast<std::uint64_t>(m.predict_one(x)), std::bit_cast<std::uint64_t>(d.predict_one(x)));
    const double y = label();
    m.learn_one(x, y);
    d.learn_one(x, y);
  }
}

}  // namespace
}  // namespace irithyll
