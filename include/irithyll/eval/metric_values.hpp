// MetricValues: one snapshot of every prequential metric, as printed in
// reports and learning curves. Fields that do not apply to the task (or have
// no samples yet) are NaN, which the JSON writer prints as null.
#pragma once

#include <limits>

namespace irithyll {

struct MetricValues {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  // Classification.
  double accuracy = kNone;
  double kappa = kNone;     // Cohen's kappa
  double macro_f1 = kNone;  // mean F1 over the classes seen
  double log_loss = kNone;  // mean -ln p(true class), p clipped to [1e-15, 1 - 1e-15]
  // Regression.
  double mae = kNone;
  double rmse = kNone;
  double r2 = kNone;
};

}  // namespace irithyll
