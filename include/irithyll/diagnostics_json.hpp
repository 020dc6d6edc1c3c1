// What a learner reports about its own structure, as JSON, for every front
// end: `irithyll inspect --json` and `irithyll eval --json` print it, and
// Python's diagnostics() parses it, so the three name the same fields.
#pragma once

#include <string>

#include "irithyll/learner.hpp"

namespace irithyll {

// [{"committee":0,"n_samples":...,"trees":[{...},...]},...]: one object per
// committee of an SGBT-family learner (one for regression and binary
// classification), with its summary (steps, trees, leaves, depths,
// replacements, warnings, alternates, handoffs, base prediction, mean
// |contribution|, soft bandwidths) and one object per tree. Empty for
// learners without SGBT diagnostics.
std::string diagnostics_json(const Learner& learner);

// The five tuning signals of a Tunable learner (tunable.hpp) as one object
// keyed by the signals' names; empty for other learners.
std::string tuning_signals_json(const Learner& learner);

}  // namespace irithyll
