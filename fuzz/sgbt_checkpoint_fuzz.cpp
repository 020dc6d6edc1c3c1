// libFuzzer target for the SGBT family's checkpoints (sgbt, adaptive_sgbt,
// quantile_sgbt, distributional_sgbt, bagged_sgbt, moe_sgbt,
// multi_target_sgbt): the first byte picks the learner, the rest goes
// through its decode(). learner_checkpoint_fuzz.hpp says what it checks.
// Seeds: fuzz/corpus/sgbt_checkpoint/ (small trained models, one per learner,
// at the current record version and, as *_trees_with_config, at the version
// before, whose trees carry their binary configs).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "irithyll/ensemble/adaptive_sgbt.hpp"
#include "irithyll/ensemble/bagged_sgbt.hpp"
#include "irithyll/ensemble/distributional_sgbt.hpp"
#include "irithyll/ensemble/moe_sgbt.hpp"
#include "irithyll/ensemble/multi_target_sgbt.hpp"
#include "irithyll/ensemble/quantile_sgbt.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "learner_checkpoint_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::unique_ptr<irithyll::Learner> m;
  switch (data[0] % 7) {
    case 0: m = std::make_unique<irithyll::SGBTLearner>(); break;
    case 1: m = std::make_unique<irithyll::AdaptiveSGBT>(); break;
    case 2: m = std::make_unique<irithyll::QuantileSGBT>(); break;
    case 3: m = std::make_unique<irithyll::DistributionalSGBT>(); break;
    case 4: m = std::make_unique<irithyll::BaggedSGBT>(); break;
    case 5: m = std::make_unique<irithyll::MoESGBT>(); break;
    default: m = std::make_unique<irithyll::MultiTargetSGBT>(); break;
  }
  return irithyll::fuzzing::fuzz_decoded_learner(*m, std::span<const std::uint8_t>(data + 1, size - 1));
}
