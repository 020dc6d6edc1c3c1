// libFuzzer target for arf, srp and leveraging_bagging checkpoints: the
// first byte picks the learner, the rest goes through its decode(). It must
// refuse what it cannot use, never crash, hang or allocate without bound
// (member counts are checked against the settings, at most 1000, before any
// member is read); an ensemble that decodes must predict and learn a few rows
// of its width with finite outputs, and encode again.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "irithyll/ensemble/arf.hpp"
#include "irithyll/ensemble/leveraging_bagging.hpp"
#include "irithyll/ensemble/srp.hpp"
#include "learner_checkpoint_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::unique_ptr<irithyll::Learner> m;
  switch (data[0] % 3) {
    case 0: m = std::make_unique<irithyll::AdaptiveRandomForest>(); break;
    case 1: m = std::make_unique<irithyll::StreamingRandomPatches>(); break;
    default: m = std::make_unique<irithyll::LeveragingBagging>(); break;
  }
  return irithyll::fuzzing::fuzz_decoded_learner(*m, std::span<const std::uint8_t>(data + 1, size - 1));
}
