// libFuzzer target for "lstm" checkpoints; learner_checkpoint_fuzz.hpp says
// what it checks.
#include <cstddef>
#include <cstdint>

#include "irithyll/nn/rnn/lstm_learner.hpp"
#include "learner_checkpoint_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return irithyll::fuzzing::fuzz_learner_checkpoint<irithyll::nn::LstmLearner>(data, size);
}
