#include "nn/reservoir/cycle_reservoir.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/reservoir/reservoir_kernels.hpp"

namespace irithyll::nn {
namespace {

TEST(ReservoirKernels, TanhFastMatchesReference) {
  Xorshift64 rng(7);
  std::vector<double> x(1003), a(1003), b(1003);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = i < 40 ? (static_cast<double>(i) - 20.0) * 1.7 : rng.normal() * 3.0;
  x[0] = 0.0, x[1] = -0.0, x[2] = 1e-300, x[3] = 800.0, x[4] = -800.0;
  tanh_ref(x.data(), a.data(), x.size());
  tanh_fast(x.data(), b.data(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(a[i], b[i], kTanhAbsTolerance) << "x=" << x[i];
}

TEST(ReservoirKernels, CycleStepMatchesReference) {
  for (std::size_t n : {1u, 3u, 7u, 100u, 129u}) {
    CycleReservoirConfig c;
    c.n_neurons = n;
    c.n_inputs = 3;
    c.bias_scaling = 0.2;
    c.leak = 0.7;
    CycleReservoir fast(c), ref(c);
    Xorshift64 rng(n);
    for (int t = 0; t < 200; ++t) {
      const double u[3] = {rng.normal(), rng.normal(), rng.normal()};
      fast.update(u);
      ref.update_ref(u);
    }
    for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(fast.state()[i], ref.state()[i], 1e-12) << "n=" << n;
  }
}

TEST(CycleReservoir, ZeroStartAndTanhBoundWithFullLeak) {
  CycleReservoirConfig c;
  c.n_neurons = 50;
  c.leak = 1.0;
  c.input_scaling = 5.0;
  c.spectral_radius = 3.0;
  CycleReservoir r(c);
  for (double v : r.state()) EXPECT_EQ(v, 0.0);
  Xorshift64 rng(3);
  for (int t = 0; t < 1000; ++t) {
    const double u = rng.normal() * 100.0;
    r.update(std::span<const double>(&u, 1));
    for (double v : r.state()) ASSERT_LE(std::fabs(v), 1.0);
  }
}

TEST(CycleReservoir, FullLeakWithoutRingHasNoMemoryOfOldInputs) {
  // leak 1 and a tiny ring weight: the state is (almost) a function of the last input only.
  CycleReservoirConfig c;
  c.n_neurons = 20;
  c.leak = 1.0;
  c.spectral_radius = 1e-12;
  CycleReservoir a(c), b(c);
  const double u1 = 0.7, u2 = -3.0, last = 0.25;
  a.update(std::span<const double>(&u1, 1));
  b.update(std::span<const double>(&u2, 1));
  a.update(std::span<const double>(&last, 1));
  b.update(std::span<const double>(&last, 1));
  for (std::size_t i = 0; i < 20; ++i) EXPECT_NEAR(a.state()[i], b.state()[i], 1e-10);
}

TEST(CycleReservoir, RingStructureAndDeterminism) {
  CycleReservoirConfig c;
  c.n_neurons = 64;
  c.spectral_radius = 0.8;
  c.seed = 11;
  CycleReservoir a(c), b(c);
  int positive = 0;
  for (std::size_t i = 0; i < 64; ++i) {
    EXPECT_EQ(std::fabs(a.cycle_weights()[i]), 0.8);
    EXPECT_EQ(a.cycle_weights()[i], b.cycle_weights()[i]);
    EXPECT_EQ(a.input_weight(i, 0), b.input_weight(i, 0));
    EXPECT_LE(std::fabs(a.input_weight(i, 0)), c.input_scaling);
    positive += a.cycle_weights()[i] > 0;
  }
  EXPECT_GT(positive, 10);  // signs are random, not constant
  EXPECT_LT(positive, 54);
  c.seed = 12;
  CycleReservoir other(c);
  EXPECT_NE(other.input_weight(0, 0), a.input_weight(0, 0));
}

TEST(CycleReservoir, NeuronZeroReadsTheLastNeuron) {
  CycleReservoirConfig c;
  c.n_neurons = 4;
  c.leak = 1.0;
  c.input_scaling = 0.0;
  CycleReservoir r(c);
  r.mutable_state()[3] = 0.5;
  const double u = 0.0;
  r.update(std::span<const double>(&u, 1));
  EXPECT_DOUBLE_EQ(r.state()[0], std::tanh(r.cycle_weights()[3] * 0.5));
  EXPECT_EQ(r.state()[1], 0.0);
}

TEST(CycleReservoir, InvalidConfigIsRejected) {
  CycleReservoirConfig c;
  c.n_neurons = 0;
  EXPECT_FALSE(CycleReservoir::make(c).is_ok());
  c.n_neurons = 10;
  c.leak = 0.0;
  EXPECT_FALSE(CycleReservoir::make(c).is_ok());
  c.leak = 1.5;
  EXPECT_FALSE(CycleReservoir::make(c).is_ok());
  c.leak = 0.5;
  c.spectral_radius = NAN;
  EXPECT_FALSE(CycleReservoir::make(c).is_ok());
}

}  // namespace
}  // namespace irithyll::nn
