#include "irithyll/eval/interval_metrics.hpp"

namespace irithyll {

IntervalScorer::IntervalScorer(const Learner& learner, double level)
    : intervals_(learner.task() == Task::kRegression ? dynamic_cast<const IntervalPredictor*>(&learner) : nullptr),
      quantiles_(learner.task() == Task::kRegression ? dynamic_cast<const QuantilePredictor*>(&learner) : nullptr),
      level_(level) {
  if (learner.task() == Task::kClassification && learner.n_classes() > 0) {
    sets_ = dynamic_cast<const SetPredictor*>(&learner);
    in_set_.assign(learner.n_classes(), 0);
  }
  if (quantiles_ != nullptr) {
    const std::size_t k = quantiles_->quantile_levels().size();
    q_.assign(k, 0.0);
    pinball_sum_.assign(k, 0.0);
    below_.assign(k, 0);
  }
}

Interval IntervalScorer::observe(std::span<const double> x, double y) {
  if (sets_ != nullptr) {
    const std::size_t size = sets_->predict_set(x, level_, in_set_);
    const auto label = static_cast<std::size_t>(y);
    ++n_;
    if (label < in_set_.size() && in_set_[label] != 0) ++covered_;
    width_sum_ += static_cast<double>(size);
    return Interval{0.0, static_cast<double>(size)};
  }
  const Interval iv = intervals_->predict_interval(x, level_);
  ++n_;
  if (y >= iv.lower && y <= iv.upper) ++covered_;
  width_sum_ += iv.upper - iv.lower;
  if (quantiles_ != nullptr) {
    quantiles_->predict_quantiles(x, q_);
    const auto taus = quantiles_->quantile_levels();
    bool crossed = false;
    for (std::size_t i = 0; i < q_.size(); ++i) {
      const double r = y - q_[i];
      pinball_sum_[i] += r >= 0.0 ? taus[i] * r : (taus[i] - 1.0) * r;
      if (y <= q_[i]) ++below_[i];
      if (i > 0 && q_[i] < q_[i - 1]) crossed = true;
    }
    if (crossed) ++crossings_;
  }
  return iv;
}

IntervalReport IntervalScorer::report() const {
  IntervalReport r;
  r.level = level_;
  r.samples = n_;
  const double n = n_ > 0 ? static_cast<double>(n_) : 1.0;
  r.coverage = static_cast<double>(covered_) / n;
  r.mean_width = width_sum_ / n;
  r.crossings = crossings_;
  r.sets = sets_ != nullptr;
  if (quantiles_ != nullptr) {
    const auto taus = quantiles_->quantile_levels();
    for (std::size_t i = 0; i < taus.size(); ++i)
      r.quantiles.push_back(QuantileScore{taus[i], pinball_sum_[i] / n, static_cast<double>(below_[i]) / n});
  }
  return r;
}

}  // namespace irithyll
