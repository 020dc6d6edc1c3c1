// libFuzzer target for the attention and loglinear learners' checkpoints:
// the first byte picks the learner, the rest goes through its decode().
// learner_checkpoint_fuzz.hpp says what it checks. Seeds:
// fuzz/corpus/attention_checkpoint/ (small trained models in several modes at
// the current record version, and the golden records of the versions before,
// whose layers carry their binary configs).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "irithyll/nn/attention/attention_learner.hpp"
#include "irithyll/nn/attention/log_linear_learner.hpp"
#include "learner_checkpoint_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::unique_ptr<irithyll::Learner> m;
  if (data[0] % 2 == 0) {
    m = std::make_unique<irithyll::nn::AttentionLearner>();
  } else {
    m = std::make_unique<irithyll::nn::LogLinearLearner>();
  }
  return irithyll::fuzzing::fuzz_decoded_learner(*m, std::span<const std::uint8_t>(data + 1, size - 1));
}
