// Heap-allocation audit of moe_sgbt and moe_distributional_sgbt: after a
// warm-up, prequential steps (predict + learn, and the interval) in which the
// model's footprint does not change (no split, no tree replacement or
// alternate, no shadow swap or restart, all of which change memory_bytes())
// must allocate nothing: the gate, the routing and the mixture use scratch
// sized on the first sample.
#include <gtest/gtest.h>

#include <cmath>

#include "irithyll/core/rng.hpp"
#include "support/sgbt_direct.hpp"
#include "irithyll/ensemble/moe_distributional_sgbt.hpp"
#include "irithyll/ensemble/moe_sgbt.hpp"
#include "support/alloc_counter.hpp"

namespace irithyll {
namespace {

double regimes(Xorshift64& rng, double* x) {
  for (int i = 0; i < 4; ++i) x[i] = rng.uniform(-1.0, 1.0);
  return (x[0] < 0 ? 3 * x[1] : -2 * x[2] * x[3]) + 0.1 * rng.normal();
}

template <class Model, class Extra>
void audit(Model& m, bool classify, Extra extra) {
  Xorshift64 rng(5);
  double x[4], proba[2];
  auto target = [&](double v) { return classify ? (v > 0 ? 1.0 : 0.0) : v; };
  for (int i = 0; i < 6000; ++i) m.learn_one(x, target(regimes(rng, x)));
  long steady_allocs = 0, steady_steps = 0;
  for (int i = 0; i < 4000; ++i) {
    const double y = target(regimes(rng, x));
    const std::size_t before = m.memory_bytes();
    const long a0 = test::allocation_count();
    if (classify) m.predict_proba_one(x, proba);
    (void)m.predict_one(x);
    extra(m, x);
    m.learn_one(x, y);
    const long used = test::allocation_count() - a0;
    if (m.memory_bytes() == before) steady_allocs += used, ++steady_steps;
  }
  EXPECT_EQ(steady_allocs, 0) << "over " << steady_steps << " steps without structural change";
  EXPECT_GT(steady_steps, 1000);
}

MoESGBTConfig small(MoERouting routing) {
  MoESGBTConfig c;
  c.n_experts = 3;
  c.gate_lr = 0.1;
  c.routing = routing;
  c.top_k = 2;
  c.base.n_steps = 10;
  return c;
}

TEST(MoEAlloc, SteadyStepsAllocateNothing) {
  for (MoERouting r : {MoERouting::kSoft, MoERouting::kTopK}) {
    MoESGBT reg = testing::moe_sgbt(small(r), Task::kRegression, 0);
    audit(reg, false, [](const MoESGBT&, const double*) {});
    MoESGBT cls = testing::moe_sgbt(small(r), Task::kClassification, 2);
    audit(cls, true, [](const MoESGBT&, const double*) {});
  }
  MoEDistributionalSGBTConfig c;
  c.n_experts = 3;
  c.base.n_steps = 10;
  MoEDistributionalSGBT dist(c);
  audit(dist, false, [](const MoEDistributionalSGBT& m, const double* x) {
    const Interval iv = m.predict_interval(std::span<const double>(x, 4), 0.9);
    EXPECT_LE(iv.lower, iv.upper);
  });
}

}  // namespace
}  // namespace irithyll
