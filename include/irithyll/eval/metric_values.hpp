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
  double balanced_accuracy = kNone;  // mean recall over the true classes seen
  // Against prequential baselines (stream_metrics.hpp, BaselineKappa):
  // kappa_t against the no-change classifier, kappa_m against the majority
  // class; the baselines' own accuracies beside them. Whole-stream only.
  double kappa_t = kNone;
  double kappa_m = kNone;
  double no_change_accuracy = kNone;
  double majority_accuracy = kNone;
  double roc_auc = kNone;  // two classes, class 1 positive; whole-stream only
  // Regression.
  double mae = kNone;
  double rmse = kNone;
  double r2 = kNone;
  double mape = kNone;   // percent; samples with y = 0 left out; whole-stream only
  double smape = kNone;  // percent, 0..200; whole-stream only
};

}  // namespace irithyll
