// The drifting stream and helpers shared by the multi-thread SGBT tests
// (sgbt_parallel_test.cpp, sgbt_stages_test.cpp): both compare a threads = N
// model with its threads = 1 twin on the same seeded stream.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll::test {

constexpr std::size_t kParallelD = 5;

struct Stream {
  std::size_t classes;  // 0 = regression
  std::uint64_t seed;
  Xorshift64 rng;
  double x[kParallelD];
  int t = 0;
  Stream(std::size_t c, std::uint64_t s) : classes(c), seed(s), rng(s) {}
  // Friedman-like target; the concept flips sign at sample 2500, so drift
  // detectors fire and trees are replaced.
  double next() {
    for (double& v : x) v = rng.uniform();
    const double sign = t++ < 2500 ? 1.0 : -1.0;
    const double f = 10.0 * std::sin(3.14159 * x[0] * x[1]) + 20.0 * (x[2] - 0.5) * (x[2] - 0.5) + 10.0 * x[3] + 5.0 * x[4];
    const double s = sign * (f - 14.0) + rng.normal();
    if (classes == 0) return s;
    if (classes == 2) return s > 0.0 ? 1.0 : 0.0;
    return std::floor(std::clamp(s / 8.0 + 1.5, 0.0, 2.999));
  }
};

inline std::unique_ptr<SGBTLearner> model(const SGBTConfig& c, std::size_t classes) {
  auto m = SGBTLearner::make(
      c, {.task = classes == 0 ? Task::kRegression : Task::kClassification, .n_classes = classes, .seed = c.seed});
  EXPECT_TRUE(m.is_ok());
  return std::move(*m);
}

inline std::vector<std::uint8_t> bytes(const SGBTLearner& m) {
  ByteWriter w;
  m.encode(w);
  return w.take();
}

// Learns n samples; every `every` samples, the probabilities (or the
// prediction) of the current sample are recorded. Learning between reads
// runs the pipeline ahead (a read drains it and the next 1024 samples
// train on one thread), so both paths are exercised.
inline std::vector<std::uint64_t> bursts(SGBTLearner& m, Stream& s, int n, int every) {
  std::vector<std::uint64_t> out;
  std::vector<double> proba(std::max<std::size_t>(s.classes, 1));
  for (int i = 0; i < n; ++i) {
    const double y = s.next();
    if (i % every == every - 1) {
      if (s.classes == 0) {
        out.push_back(std::bit_cast<std::uint64_t>(m.predict_one(s.x)));
      } else {
        m.predict_proba_one(s.x, proba);
        for (double p : proba) out.push_back(std::bit_cast<std::uint64_t>(p));
      }
    }
    m.learn_one(s.x, y);
  }
  return out;
}

}  // namespace irithyll::test
