// libFuzzer target for hoeffding_adaptive_tree and efdt checkpoints: the
// first byte picks the learner, the rest goes through its decode(). It must
// refuse what it cannot use, never crash, hang or allocate without bound; a
// tree that decodes must predict and learn a few rows of its width (missing
// values among them) with finite outputs, and encode again.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "irithyll/tree/adaptive_tree_learner.hpp"
#include "learner_checkpoint_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::unique_ptr<irithyll::Learner> m;
  if (data[0] % 2 == 0) {
    m = std::make_unique<irithyll::HoeffdingAdaptiveTree>();
  } else {
    m = std::make_unique<irithyll::ExtremelyFastDecisionTree>();
  }
  return irithyll::fuzzing::fuzz_decoded_learner(*m, std::span<const std::uint8_t>(data + 1, size - 1));
}
