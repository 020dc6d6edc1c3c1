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
#include <vector>

#include "irithyll/learner.hpp"
#include "irithyll/nn/reservoir/ngrc_features.hpp"
#include "irithyll/nn/reservoir/readout_bank_learner.hpp"

namespace irithyll::nn {

struct NgrcLearnerConfig {
  Task task = Task::kRegression;
  std::size_t n_classes = 0;     // classification: >= 2
  std::size_t n_features = 0;    // 0 = taken from the first sample
  std::size_t k = 2;             // taps >= 1
  std::size_t s = 1;             // tap spacing >= 1
  std::size_t degree = 2;        // 0 (linear) or 2..4
  RlsConfig rls{0.9999, 100.0};

  Status validate() const;
};

// The learning flow is ReadoutBankLearner's (readout_bank_learner.hpp).
class NextGenReservoir final : public ReadoutBankLearner<NextGenReservoir, NgrcLearnerConfig> {
 public:
  static constexpr std::string_view kName = "ngrc";

  NextGenReservoir() = default;
  explicit NextGenReservoir(const NgrcLearnerConfig& config);  // REQUIRES: config.validate() ok (make checks it)

  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const NgrcFeatures& features() const noexcept { return features_; }

 private:
  friend ReadoutBankLearner<NextGenReservoir, NgrcLearnerConfig>;

  bool accepts_width(std::size_t n_features) const;
  void init(std::size_t n_features);
  bool prepare(std::span<const double> x) const noexcept;
  // Pushes the sanitised sample into the delay buffer.
  void commit() { features_.push(u_); }
  // The readout trains once k taps are available.
  bool readout_ready() const noexcept { return features_.is_ready(); }
  void reset_extractor() noexcept { features_.reset(); }
  std::size_t extractor_memory_bytes() const noexcept;

  NgrcFeatures features_;
  mutable std::vector<double> u_;
};

}  // namespace irithyll::nn
