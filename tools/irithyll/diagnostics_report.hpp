// SGBT ensemble diagnostics (SGBT::diagnostics()) for `irithyll inspect`
// (text and --json) and `irithyll eval --json`. Only SGBT learners have
// them; for other models the functions return an empty string.
#pragma once

#include <string>

#include "irithyll/diagnostics_json.hpp"
#include "irithyll/learner.hpp"

namespace irithyll::cli {

// A summary per committee (trees, leaves, depths, replacements, warnings,
// alternates, handoffs, mean |contribution|, soft bandwidths) and one line
// per tree.
std::string diagnostics_text(const Learner& learner);

// The five tuning signals of a Tunable learner (tunable.hpp), for `inspect`
// and `adjust`: one line "tuning signals: residual_alignment v, ..."; empty
// for other learners. (The JSON forms of both reports are the library's,
// irithyll/diagnostics_json.hpp, which Python reads too.)
std::string tuning_signals_text(const Learner& learner);

}  // namespace irithyll::cli
