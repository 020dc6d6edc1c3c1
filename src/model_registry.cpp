// The table of learner kinds a model file may hold (style.md #8: one row per
// kind). Keep rows sorted by name.
#include <array>

#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/nn/attention/attention_learner.hpp"
#include "irithyll/nn/attention/log_linear_learner.hpp"
#include "irithyll/nn/reservoir/esn.hpp"
#include "irithyll/nn/reservoir/ngrc.hpp"
#include "irithyll/nn/snn/spike_net_learner.hpp"
#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "irithyll/pipeline.hpp"

namespace irithyll {

namespace {
template <class T>
std::unique_ptr<Learner> make_blank() {
  return std::make_unique<T>();
}

constexpr std::array kKinds = {
    LearnerKind{"attention", &make_blank<nn::AttentionLearner>},
    LearnerKind{"esn", &make_blank<nn::EchoStateNetwork>},
    LearnerKind{"loglinear", &make_blank<nn::LogLinearLearner>},
    LearnerKind{"mamba", &make_blank<nn::MambaLearner>},
    LearnerKind{"mgrade", &make_blank<nn::MgradeLearner>},
    LearnerKind{"ngrc", &make_blank<nn::NextGenReservoir>},
    LearnerKind{"pipeline", &make_blank<Pipeline>},
    LearnerKind{"sgbt", &make_blank<SGBTLearner>},
    LearnerKind{"slstm", &make_blank<nn::SlstmLearner>},
    LearnerKind{"spikenet", &make_blank<nn::SpikeNetLearner>},
};
}  // namespace

std::span<const LearnerKind> learner_kinds() { return kKinds; }

}  // namespace irithyll
