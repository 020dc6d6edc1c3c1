// Registry of the synthetic streams by name, for `irithyll eval --stream NAME`
// and the bindings: one row per generator (name, one-line description,
// factory). Each row uses that generator's documented defaults.
//
//   name        task            defaults
//   sea         classification  3 features, thresholds 8, 9, 7, 9.5, abrupt drift
//                               every 25,000 samples, 10% label noise
//   agrawal     classification  9 attributes, function 1 -> 2 -> 3 -> 4 at 25k,
//                               50k, 75k (abrupt), 5% perturbation
//   hyperplane  classification  10 features, 2 drifting weights (0.001 per
//                               sample, 10% reversal), 5% label noise
//   rbf         classification  10 features, 2 classes, 50 centroids all
//                               moving at 0.0001 per sample
//   rbf4        classification  the same with 4 classes
//   friedman    regression      Friedman #1, 10 features, N(0, 1) noise
//   hetero      regression      Friedman #1 mean, feature-dependent noise, drift at 50k
//   friedman3   regression      three targets (y1 = friedman, y2, y3) on 10
//                               features, for multi-target models
//
// The default stream of `irithyll eval` is kDefaultGenerator with
// kDefaultGeneratorSamples samples: SEA, 100,000 samples, so each of its four
// concepts is seen once, with abrupt drifts at 25,000, 50,000 and 75,000.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "irithyll/core/status.hpp"
#include "irithyll/stream/stream.hpp"

namespace irithyll {

inline constexpr std::string_view kDefaultGenerator = "sea";
inline constexpr std::uint64_t kDefaultGeneratorSamples = 100000;

struct GeneratorInfo {
  std::string_view name;
  std::string_view description;  // one line
  Result<std::unique_ptr<Stream>> (*make)(std::uint64_t seed, std::optional<std::uint64_t> n_samples);
};

// All registered generators, in the order above.
std::span<const GeneratorInfo> generator_table();

// n_samples empty = endless. Unknown name: InvalidArgument listing the names.
Result<std::unique_ptr<Stream>> make_generator(std::string_view name, std::uint64_t seed,
                                               std::optional<std::uint64_t> n_samples);

}  // namespace irithyll
