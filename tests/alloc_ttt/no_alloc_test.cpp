// Hot loops allocate nothing: this binary replaces the global operator new
// with a counting one and checks that, after the first sample, predict and
// learn of "ttt" (plain, momentum and batch modes; regression and
// classification) perform zero heap allocations. Own binary, because the
// replacement is global.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/nn/ttt/ttt_learner.hpp"
#include "support/alloc_counter.hpp"

namespace irithyll::nn {
namespace {

TEST(NoAllocation, TttSteps) {
  for (bool cls : {false, true})
    for (std::size_t batch : {1u, 16u})
      for (double mu : {0.0, 0.5}) {
        TttLearnerConfig c;
        c.batch_size = batch;
        c.momentum = mu;
        TttLearner m(c, LearnerContext{cls ? Task::kClassification : Task::kRegression, cls ? 3u : 0u, 0, 1});
        constexpr std::size_t d = 5;
        std::vector<double> x(d), proba(cls ? 3 : 0);
        auto sample = [&](int t) {
          for (std::size_t j = 0; j < d; ++j) x[j] = std::sin(0.1 * t + static_cast<double>(j));
          return cls ? static_cast<double>(t % 3) : std::cos(0.1 * t);
        };
        m.learn_one(x, sample(0));  // the first sample builds the layer
        const auto before = test::allocation_count();
        for (int t = 1; t < 500; ++t) {
          const double y = sample(t);
          (void)m.predict_one(x);
          if (cls) m.predict_proba_one(x, proba);
          if (t % 50 == 0) x[0] = NAN;  // bad input takes the same path
          m.learn_one(x, y);
        }
        EXPECT_EQ(test::allocation_count() - before, 0L) << "cls " << cls << " batch " << batch << " mu " << mu;
      }
}

}  // namespace
}  // namespace irithyll::nn
