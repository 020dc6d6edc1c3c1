// Learning a batch of rows held in memory, with a progress call at a fixed
// cadence: for a caller that trains offline from a table (warm-starting a
// model before it serves a stream) and wants to checkpoint, log or stop
// between blocks without writing the loop itself.
#pragma once

#include <cstddef>
#include <functional>
#include <span>

#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

// Learns the rows (n_features values each, back to back) in order with
// learn_one, weights[i] for row i (empty: 1). Calls progress(n_done) after
// every `every` rows and once more with the total when it is not a multiple
// of `every` (every == 0: never). The model is the one a learn_one loop over
// the same rows gives. Sizes that do not agree are refused before any row
// is learned.
Status learn_batch(Learner& learner, std::span<const double> rows, std::size_t n_features, std::span<const double> y,
                   std::span<const double> weights = {}, std::size_t every = 0,
                   const std::function<void(std::size_t)>& progress = {});

}  // namespace irithyll
