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
#include "irithyll/nn/reservoir/readout_bank.hpp"

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

class NextGenReservoir final : public Learner {
 public:
  NextGenReservoir() = default;
  explicit NextGenReservoir(const NgrcLearnerConfig& config);  // REQUIRES: config.validate() ok
  static Result<std::unique_ptr<NextGenReservoir>> make(const NgrcLearnerConfig& config);

  std::string_view name() const override { return "ngrc"; }
  Task task() const override { return config_.task; }
  std::size_t n_classes() const override { return config_.task == Task::kClassification ? config_.n_classes : 0; }
  std::size_t n_features() const override { return n_features_; }
  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return n_seen_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const NgrcFeatures& features() const noexcept { return features_; }
  const ReadoutBank& readout() const noexcept { return readout_; }

 private:
  void init(std::size_t n_features);
  bool prepare(std::span<const double> x) const noexcept;

  NgrcLearnerConfig config_{};
  std::size_t n_features_ = 0;
  std::uint64_t n_seen_ = 0;
  NgrcFeatures features_;
  ReadoutBank readout_;
  mutable std::vector<double> u_, feat_;
};

}  // namespace irithyll::nn
