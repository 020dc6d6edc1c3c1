// Hot loops allocate nothing: this binary replaces the global operator new
// with a counting one and checks that, after the first sample, every step of
// the reservoir and spiking learners (predict, learn, raw updates) performs
// zero heap allocations. Own binary, because the replacement is global.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "nn/reservoir/cycle_reservoir.hpp"
#include "irithyll/nn/reservoir/esn.hpp"
#include "irithyll/nn/reservoir/ngrc.hpp"
#include "nn/snn/spike_net.hpp"
#include "irithyll/nn/snn/spike_net_learner.hpp"

#include "support/alloc_counter.hpp"

namespace irithyll::nn {
namespace {

template <class F>
std::size_t allocations_during(F&& f) {
  const auto before = static_cast<std::size_t>(test::allocation_count());
  f();
  return static_cast<std::size_t>(test::allocation_count()) - before;
}

void drive_learner(Learner& m, std::size_t d, bool classification) {
  std::vector<double> x(d);
  auto sample = [&](int t) {
    for (std::size_t j = 0; j < d; ++j) x[j] = std::sin(0.1 * t + static_cast<double>(j));
    return classification ? static_cast<double>(t % 3) : std::cos(0.1 * t);
  };
  m.learn_one(x, sample(0));  // first sample may size buffers
  std::vector<double> proba(classification ? 3 : 0);
  const std::size_t n = allocations_during([&] {
    for (int t = 1; t < 500; ++t) {
      const double y = sample(t);
      (void)m.predict_one(x);
      if (classification) m.predict_proba_one(x, proba);
      if (t % 50 == 0) x[0] = NAN;  // bad input takes the same allocation-free path
      m.learn_one(x, y);
    }
  });
  EXPECT_EQ(n, 0u) << m.name() << (classification ? " (classification)" : " (regression)");
}

TEST(NoAllocation, ReservoirAndSpikingLearnerSteps) {
  for (bool cls : {false, true}) {
    const LearnerContext context{cls ? Task::kClassification : Task::kRegression, cls ? 3u : 0u};
    EchoStateNetwork esn(EsnConfig{}, context);
    drive_learner(esn, 4, cls);
    NextGenReservoir ngrc(NgrcLearnerConfig{}, context);
    drive_learner(ngrc, 3, cls);
    SpikeNetLearner snn(SpikeNetLearnerConfig{}, context);
    drive_learner(snn, 10, cls);
  }
}

TEST(NoAllocation, RawStepsAndSanityOfTheCounter) {
  CycleReservoirConfig c;
  c.n_neurons = 500;
  CycleReservoir r(c);
  SpikeNetConfig sc;
  sc.n_input = 10;
  SpikeNet net(sc);
  std::vector<std::int16_t> x(10, 0), y(1, 1000);
  const std::size_t n = allocations_during([&] {
    for (int t = 0; t < 1000; ++t) {
      const double u = std::sin(t * 0.01);
      r.update(std::span<const double>(&u, 1));
      x[t % 10] = static_cast<std::int16_t>(t * 37);
      net.forward(x);
      net.train_step(x, y);
    }
  });
  EXPECT_EQ(n, 0u);
  // The counter itself works (so a zero above means something).
  EXPECT_GT(allocations_during([] { std::vector<int> v(100); (void)v; }), 0u);
}

}  // namespace
}  // namespace irithyll::nn
