// Catalogue rows "mamba" (selective SSM, Mamba-1/Mamba-3), "slstm" (xLSTM's
// sLSTM), "lstm" (the plain LSTM cell) and "mgrade" (delay convolution +
// minGRU): fixed recurrent feature extractors feeding an RLS readout, with
// optional neuron regeneration.
#include "irithyll/nn/rnn/lstm_learner.hpp"
#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {

CatalogueEntry mamba_row() {
  return learner_row<nn::MambaLearner>("selective state-space model (Mamba-1/Mamba-3) with an RLS readout",
                                       Tasks::kBoth);
}

CatalogueEntry slstm_row() {
  return learner_row<nn::SlstmLearner>("stabilised sLSTM (xLSTM) features with an RLS readout", Tasks::kBoth);
}

CatalogueEntry lstm_row() {
  return learner_row<nn::LstmLearner>("LSTM (forget-gate) features with an RLS readout", Tasks::kBoth);
}

CatalogueEntry mgrade_row() {
  return learner_row<nn::MgradeLearner>("mGRADE (delay convolution + minGRU) with an RLS readout", Tasks::kBoth);
}

}  // namespace irithyll::catalogue_detail
