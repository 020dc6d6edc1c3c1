// Feature importances of a trained model for `irithyll eval`: a table sorted
// by gain share (text output) and a JSON array (--json). Only models that
// have them (SGBT) print anything.
#pragma once

#include <string>

#include "irithyll/learner.hpp"
#include "irithyll/stream/stream.hpp"

namespace irithyll::cli {

// "feature importances (gain share, splits):" then one row per feature,
// largest gain first; empty for models without importances.
std::string importance_table(const Learner& learner, const Schema& schema);
// [{"feature":"nswprice","gain":0.41,"splits":120},...] in the same order;
// empty for models without importances.
std::string importance_json(const Learner& learner, const Schema& schema);

}  // namespace irithyll::cli
