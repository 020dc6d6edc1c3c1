// Feature importances of a trained tree model (a TreeModel: SGBT, the
// Hoeffding tree, ARF) for `irithyll eval` and `inspect`: a table sorted by
// gain share, or by split count for models that record no gains (text
// output), and a JSON array (--json). Other models print nothing.
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
