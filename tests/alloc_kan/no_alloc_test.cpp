// Hot loops allocate nothing: this binary replaces the global operator new
// with a counting one and checks that, once the width is known, every
// predict and learn step of the KAN performs zero heap allocations (decay,
// momentum and two hidden layers on, so every branch of the step runs).
// Own binary, because the replacement is global.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/nn/kan/kan.hpp"
#include "support/alloc_counter.hpp"

namespace irithyll::nn {
namespace {

TEST(NoAllocation, KanSteps) {
  KanConfig c;
  c.hidden_layers = 2;
  c.momentum = 0.5;
  c.coefficient_decay = 1e-3;
  for (std::size_t width : {0u, 4u}) {
    LearnerContext ctx;
    ctx.n_features = width;
    KanRegressor m(c, ctx);
    std::vector<double> x(4);
    auto sample = [&](int t) {
      for (std::size_t j = 0; j < x.size(); ++j) x[j] = std::sin(0.1 * t + static_cast<double>(j));
      return std::cos(0.1 * t) * 1e3;
    };
    m.learn_one(x, sample(0));  // the first sample may size the network
    const auto before = test::allocation_count();
    for (int t = 1; t < 2600; ++t) {
      const double y = sample(t);
      (void)m.predict_one(x);
      if (t % 50 == 0) x[1] = NAN;  // a missing value takes the same path
      m.learn_one(x, y);
    }
    EXPECT_EQ(test::allocation_count(), before) << "width " << width;
  }
  // The counter counts: a copy of the model allocates.
  const auto before = test::allocation_count();
  KanRegressor a(c, LearnerContext{Task::kRegression, 0, 3});
  KanRegressor b = a;
  EXPECT_GT(test::allocation_count(), before);
}

}  // namespace
}  // namespace irithyll::nn
