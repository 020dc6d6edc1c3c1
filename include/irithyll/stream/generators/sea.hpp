// SEA concepts (Street & Kim, KDD 2001): three features uniform in [0, 10),
// only the first two relevant; the label is a threshold on f1 + f2 that jumps
// between concepts, an abrupt drift.
//
//   class = 1 if f1 + f2 > theta, else 0      (then flipped with prob. noise)
//
// Orientation: the paper only says the concept is "f1 + f2 <= theta"; we
// follow MOA's SEAGenerator and ../shared/datasets/sea_stream.csv (which agree
// with this rule to 90%, its 10% label noise), where that side is class 0.
// Concept i (0-based) holds for samples [i * drift_every, (i+1) * drift_every)
// and uses thresholds[i mod size]: the defaults give 8, 9, 7, 9.5, so
// 100,000 samples see each concept once, with 3 abrupt drifts at 25k, 50k
// and 75k (the `irithyll eval` default stream).
//
// Cost per sample: 3 uniform draws plus one for noise. Not thread-safe.
#pragma once

#include <vector>

#include "irithyll/stream/generators/generator.hpp"

namespace irithyll {

struct SeaConfig {
  std::vector<double> thresholds{8.0, 9.0, 7.0, 9.5};  // one per concept, cycled; non-empty
  std::uint64_t drift_every = 25000;  // samples per concept; 0 = stay on thresholds[0]
  double noise = 0.1;                 // label flip probability, [0, 1]
  std::optional<std::uint64_t> n_samples;  // empty = endless
};

class SeaGenerator final : public GeneratorStream {
 public:
  static Status validate(const SeaConfig& config);
  // REQUIRES: validate(config) is OK.
  SeaGenerator(const SeaConfig& config, std::uint64_t seed);
  // Threshold in force for sample number t.
  double threshold_at(std::uint64_t t) const;

 private:
  void generate(std::span<double> x, double& y) override;
  SeaConfig config_;
};

}  // namespace irithyll
