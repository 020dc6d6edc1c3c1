// Catalogue rows "esn" (cycle-reservoir echo state network), "ngrc" (next-
// generation reservoir) and "spikenet" (Q1.14 spiking network, e-prop): fixed
// or locally trained features read by RLS (or, for spikenet, an integer
// readout).
#include "irithyll/nn/reservoir/esn.hpp"
#include "irithyll/nn/reservoir/ngrc.hpp"
#include "irithyll/nn/snn/spike_net_learner.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry esn_row() {
  return learner_row<nn::EchoStateNetwork>("cycle-reservoir echo state network with an RLS readout", Tasks::kBoth);
}

CatalogueEntry ngrc_row() {
  return learner_row<nn::NextGenReservoir>("next-generation reservoir (NVAR features) with an RLS readout",
                                           Tasks::kBoth);
}

CatalogueEntry spikenet_row() {
  return learner_row<nn::SpikeNetLearner>(
      "integer (Q1.14) spiking network trained by e-prop, RLS or integer readout", Tasks::kBoth);
}

}  // namespace irithyll::catalogue_detail
