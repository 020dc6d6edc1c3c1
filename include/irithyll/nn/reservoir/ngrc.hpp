// NextGenReservoir: the streaming NG-RC learner (Gauthier et al. 2021; see
// ngrc_features.hpp) with recursive-least-squares readouts in place of the
// paper's batch ridge regression. Each sample pushes x into the delay buffer
// and the readout learns y from [1, lin, poly]; until k taps are available
// (the first (k-1)s samples) the readout is not trained and predicts from
// zero-filled taps.
//
// Non-finite features are read as 0, a non-finite target or non-positive
// weight skips the readout, samples of the wrong width are ignored.
// Cost per sample O(terms*p + c*m^2) for m features; no allocation after the
// first sample. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/nn/boxed_learner.hpp"
#include "irithyll/readout/rls_config.hpp"

namespace irithyll::nn {

struct NgrcLearnerConfig {
  std::size_t k = 2;             // taps >= 1
  std::size_t s = 1;             // tap spacing >= 1
  std::size_t degree = 2;        // 0 (linear) or 2..4
  RlsConfig rls{0.9999, 100.0};
};

class NgrcCore;  // internal (src/nn/reservoir/ngrc_core.hpp): the learner's machinery

class NextGenReservoir final : public BoxedLearner<NgrcCore, NgrcLearnerConfig> {
 public:
  using Config = NgrcLearnerConfig;
  static constexpr std::string_view kName = "ngrc";
  static std::span<const ConfigField<Config>> config_fields();
  // Checked construction: every setting in its range, classification with
  // 2..1024 classes, at most 4096 readout features for a known width.
  static Result<std::unique_ptr<NextGenReservoir>> make(const Config& config, const LearnerContext& context);
  // make()'s checks after the table's ranges (also run on decoding and for
  // the width of the first sample).
  static Status validate(const Config& config, const LearnerContext& context);

  NextGenReservoir() = default;
  NextGenReservoir(const Config& config, const LearnerContext& context);  // REQUIRES: valid (make checks it)
};

}  // namespace irithyll::nn
