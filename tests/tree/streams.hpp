// Small synthetic streams for the Hoeffding tree and forest tests (no
// dependency on the stream area, so irithyll_tree tests link alone).
#pragma once

#include <array>
#include <cmath>

#include "irithyll/core/rng.hpp"

namespace irithyll::test {

// Two-class stream on 4 features in [0, 1): class 1 when x0 + x1 > 1 (or,
// after `flip`, when x0 + x1 <= 1: an abrupt drift), labels flipped with
// probability `noise`. Features 2 and 3 are irrelevant. Majority class ~50%.
struct LineStream {
  Xorshift64 rng{2024};
  double noise = 0.05;
  bool flip = false;
  std::array<double, 4> x{};
  double next() {
    for (double& v : x) v = rng.uniform();
    bool c = x[0] + x[1] > 1.0;
    if (flip) c = !c;
    if (rng.uniform() < noise) c = !c;
    return c ? 1.0 : 0.0;
  }
};

// Friedman #1 regression (Friedman 1991): 5 informative features of 10,
// y = 10 sin(pi x0 x1) + 20 (x2 - 0.5)^2 + 10 x3 + 5 x4 + N(0, 1). Target sd ~ 4.9.
struct FriedmanStream {
  Xorshift64 rng{77};
  std::array<double, 10> x{};
  double next() {
    for (double& v : x) v = rng.uniform();
    return 10.0 * std::sin(3.141592653589793 * x[0] * x[1]) + 20.0 * (x[2] - 0.5) * (x[2] - 0.5) + 10.0 * x[3] +
           5.0 * x[4] + rng.normal();
  }
};

}  // namespace irithyll::test
