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
  for (std::size_t width : {0u, 4u}) for (bool classify : {false, true}) {
    LearnerContext ctx;
    ctx.n_features = width;
    if (classify) ctx.task = Task::kClassification, ctx.n_classes = 3;
    KolmogorovArnoldNetwork m(c, ctx);
    std::vector<double> x(4);
    auto sample = [&](int t) {
      for (std::size_t j = 0; j < x.size(); ++j) x[j] = std::sin(0.1 * t + static_cast<double>(j));
      return classify ? static_cast<double>(t % 3) : std::cos(0.1 * t) * 1e3;
    };
    m.learn_one(x, sample(0));  // the first sample may size the network
    std::vector<double> proba(classify ? 3 : 0);
    const auto before = test::allocation_count();
    for (int t = 1; t < 2600; ++t) {
      const double y = sample(t);
      (void)m.predict_one(x);
      if (classify) m.predict_proba_one(x, proba);
      if (t % 50 == 0) x[1] = NAN;  // a missing value takes the same path
      m.learn_one(x, y);
    }
    EXPECT_EQ(test::allocation_count(), before) << "width " << width << (classify ? " classification" : "");
  }
  // The counter counts: a copy of the model allocates.
  const auto before = test::allocation_count();
  KolmogorovArnoldNetwork a(c, LearnerContext{Task::kRegression, 0, 3});
  KolmogorovArnoldNetwork b = a;
  EXPECT_GT(test::allocation_count(), before);
}

}  // namespace
}  // namespace irithyll::nn
