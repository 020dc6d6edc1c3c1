// Scores of predicted ranges, prequentially: for learners that give
// intervals (IntervalPredictor), the share of targets inside the interval at
// the chosen level and its mean width; for learners that give quantiles
// (QuantilePredictor), per level the pinball loss, the observed coverage
// P(y <= q_tau), and how many outputs crossed (q_tau below a lower tau's).
//
// For classifiers that give prediction sets (SetPredictor), coverage is the
// share of labels inside the set and the mean width is the mean set size.
//
// IntervalScorer::observe is called with the sample before the learner
// learns it. Cost: one interval (and one quantile) prediction per sample;
// allocation-free after construction.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/interval.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

struct QuantileScore {
  double tau = 0.0;
  double pinball = 0.0;   // mean pinball loss at tau
  double coverage = 0.0;  // share of targets <= q_tau
};

struct IntervalReport {
  double level = 0.9;
  std::uint64_t samples = 0;
  double coverage = 0.0;    // share of targets in [lower, upper]
  double mean_width = 0.0;  // mean of upper - lower (sets: mean set size)
  bool sets = false;        // a classifier's prediction sets
  std::vector<QuantileScore> quantiles;  // QuantilePredictor only
  std::uint64_t crossings = 0;           // outputs where some q_tau < q_tau' for tau > tau'
};

class IntervalScorer {
 public:
  // Inactive (active() false) when the learner predicts no intervals.
  IntervalScorer(const Learner& learner, double level);
  bool active() const { return intervals_ != nullptr || sets_ != nullptr; }
  bool sets() const { return sets_ != nullptr; }
  // REQUIRES: active(). Returns the interval it scored ([0, set size] for a
  // prediction set).
  Interval observe(std::span<const double> x, double y);
  IntervalReport report() const;

 private:
  const IntervalPredictor* intervals_ = nullptr;
  const QuantilePredictor* quantiles_ = nullptr;
  const SetPredictor* sets_ = nullptr;
  std::vector<std::uint8_t> in_set_;
  double level_;
  std::uint64_t n_ = 0, covered_ = 0, crossings_ = 0;
  double width_sum_ = 0.0;
  std::vector<double> q_, pinball_sum_;
  std::vector<std::uint64_t> below_;
};

}  // namespace irithyll
