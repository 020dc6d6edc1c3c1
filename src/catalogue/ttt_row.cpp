// Catalogue row "ttt": streaming test-time training (a fast-weight layer
// learned by one gradient step per sample) with an RLS readout.
#include "irithyll/nn/ttt/ttt_learner.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry ttt_row() {
  return learner_row<nn::TttLearner>("streaming test-time training (fast-weight layer) with an RLS readout",
                                     Tasks::kBoth);
}

}  // namespace irithyll::catalogue_detail
