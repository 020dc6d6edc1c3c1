// Prequential evaluation of a multi-output regressor (Learner::n_outputs() >
// 1) on a multi-target stream (Schema::n_targets() > 1): every row is
// predicted (predict_multi), scored per target, then learned (learn_multi)
// and dropped. Each target keeps its own MAE / RMSE / R^2.
//
// Options used: max_samples, skip, progress_every, unlabelled (a row with
// every target missing is unlabelled; a missing target is neither scored nor
// learned, the others are; kError refuses any missing target). The learning
// curve, rolling metrics, intervals and label_delay belong to the
// one-target loop (prequential.hpp) and are not offered here.
//
// Cost per row: one predict_multi, one learn_multi, O(n_targets) metric
// updates. Memory: a feature vector and two target-sized vectors.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "irithyll/eval/metric_values.hpp"
#include "irithyll/eval/prequential.hpp"

namespace irithyll {

struct MultiPrequentialReport {
  std::string learner;
  std::vector<std::string> targets;  // Schema::target_names
  std::uint64_t samples = 0;         // evaluated rows
  std::uint64_t skipped = 0;
  std::uint64_t unlabelled = 0;      // rows with every target missing
  double seconds = 0.0;
  double samples_per_second = 0.0;
  std::size_t model_bytes = 0;
  std::vector<MetricValues> metrics;  // one per target, in target order
};

// Called per evaluated row, before learning: targets (NaN = missing) and
// predictions, one per target; spans valid during the call only.
using MultiPredictionCallback =
    std::function<void(std::uint64_t index, std::span<const double> y, std::span<const double> prediction)>;

// Errors: the learner's outputs or task disagree with the stream; stream
// errors; an infinite target; a missing one under UnlabelledPolicy::kError.
Result<MultiPrequentialReport> run_prequential_multi_target(Learner& learner, Stream& stream,
                                                            const PrequentialOptions& options,
                                                            const MultiPredictionCallback& on_prediction = {},
                                                            PrequentialObserver* progress = nullptr);

// {"learner":..., "samples":..., "targets":[{"target":"a","mae":..,"rmse":..,"r2":..},...], ...}
std::string multi_report_to_json(const MultiPrequentialReport& report);

}  // namespace irithyll
