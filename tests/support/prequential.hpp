// Prequential (test-then-train) accuracy of a classifier: each of n samples
// is predicted, scored and then learned. The stream's next() returns the
// label and leaves the features in its member x. Header-only.
#pragma once

#include "irithyll/learner.hpp"

namespace irithyll::testing {

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

}  // namespace irithyll::testing
