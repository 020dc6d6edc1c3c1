// Prequential (test-then-train) scores: each sample is predicted, scored
// and then learned. Header-only.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/stream/generators.hpp"

namespace irithyll::testing {

// Accuracy of a classifier over n samples; the stream's next() returns the
// label and leaves the features in its member x.
template <class Stream>
double prequential_accuracy(Learner& m, Stream& s, int n) {
  int right = 0;
  for (int i = 0; i < n; ++i) {
    const double y = s.next();
    right += m.predict_one(s.x) == y;
    m.learn_one(s.x, y);
  }
  return static_cast<double>(right) / n;
}

// RMSE of a catalogue regressor with its default settings over n samples
// of a built-in generator; model and stream share the seed. 0 (and a test
// failure) when either cannot be made.
inline double prequential_rmse(std::string_view model, std::string_view generator, std::uint64_t seed,
                               std::uint64_t n) {
  auto stream = make_generator(generator, seed, n);
  EXPECT_TRUE(stream.is_ok()) << stream.status().to_string();
  if (!stream.is_ok()) return 0.0;
  const std::size_t nf = (*stream)->schema().n_features();
  auto m = make_learner(model, {}, LearnerContext{Task::kRegression, 0, nf, seed});
  EXPECT_TRUE(m.is_ok()) << m.status().to_string();
  if (!m.is_ok()) return 0.0;
  std::vector<double> x(nf);
  double y = 0.0, se = 0.0;
  std::uint64_t t = 0;
  while ((*stream)->next(x, y)) {
    const double e = (*m)->predict_one(x) - y;
    se += e * e;
    (*m)->learn_one(x, y);
    ++t;
  }
  return t == 0 ? 0.0 : std::sqrt(se / static_cast<double>(t));
}

}  // namespace irithyll::testing
