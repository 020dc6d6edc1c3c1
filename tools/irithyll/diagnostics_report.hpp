// SGBT ensemble diagnostics (SGBT::diagnostics()) for `irithyll inspect`
// (text and --json) and `irithyll eval --json`. Only SGBT learners have
// them; for other models the functions return an empty string.
#pragma once

#include <string>

#include "irithyll/learner.hpp"

namespace irithyll::cli {

// A summary per committee (trees, leaves, depths, replacements, warnings,
// alternates, handoffs, mean |contribution|, soft bandwidths) and one line
// per tree.
std::string diagnostics_text(const Learner& learner);
// [{"committee":0,"n_samples":...,"trees":[{...},...]},...]: one object per
// committee (one for regression and binary classification).
std::string diagnostics_json(const Learner& learner);

// The five tuning signals of a Tunable learner (tunable.hpp), for `inspect`
// and `adjust`: one line "tuning signals: residual_alignment v, ...", or
// one JSON object keyed by the signals' names; empty for other learners.
std::string tuning_signals_text(const Learner& learner);
std::string tuning_signals_json(const Learner& learner);

}  // namespace irithyll::cli
