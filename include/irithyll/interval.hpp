// IntervalPredictor: a second, narrow interface for learners that predict a
// range as well as a point (distributional_sgbt, quantile_sgbt). Evaluation
// asks a learner for it with dynamic_cast; learners that do not implement it
// simply have no intervals. Kept apart from Learner so that the many models
// without a predictive distribution carry no empty hook (style.md #9).
//
// Contract: for level in (0, 1), fills lower <= upper such that, for a
// calibrated model, P(lower <= y <= upper) = level. Read-only like
// predict_one (same scratch rules, same thread-safety).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

namespace irithyll {

struct Interval {
  double lower = 0.0;
  double upper = 0.0;
};

class IntervalPredictor {
 public:
  virtual ~IntervalPredictor() = default;
  // REQUIRES: 0 < level < 1.
  virtual Interval predict_interval(std::span<const double> x, double level) const = 0;
};

// A learner that estimates several conditional quantiles at once
// (quantile_sgbt). Evaluation scores each level (pinball loss, coverage).
class QuantilePredictor {
 public:
  virtual ~QuantilePredictor() = default;
  virtual std::span<const double> quantile_levels() const = 0;  // increasing, in (0, 1)
  // REQUIRES: out.size() == quantile_levels().size(). Non-decreasing output.
  virtual void predict_quantiles(std::span<const double> x, std::span<double> out) const = 0;
};

// A classifier that predicts a set of classes holding the true one with a
// given probability (conformal prediction sets). Evaluation scores a set
// like an interval: coverage is the share of labels inside, and the width
// is the set's size.
class SetPredictor {
 public:
  virtual ~SetPredictor() = default;
  // REQUIRES: 0 < level < 1, in_set.size() == n_classes(). Sets in_set[k]
  // to 1 for each class in the set, 0 otherwise; returns the set's size.
  virtual std::size_t predict_set(std::span<const double> x, double level, std::span<std::uint8_t> in_set) const = 0;
};

// A learner that gives a confidence beside its point prediction (sgbt: one
// over the square root of the summed variances of the leaves it reads).
// Larger means surer; 0 when untrained. Front ends ask for it as for the
// interfaces above (`predict --confidence`, Python predict_with_confidence).
class ConfidencePredictor {
 public:
  virtual ~ConfidencePredictor() = default;
  // (predict_one(x), confidence).
  virtual std::pair<double, double> predict_with_confidence(std::span<const double> x) const = 0;
};

// Standard normal quantile Phi^-1(p) for p in (0, 1), to about 1e-12
// (bisection on erfc, then one Newton step); used to turn a level into z.
double normal_quantile(double p);

}  // namespace irithyll
