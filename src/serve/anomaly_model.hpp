// AnomalyModel: an anomaly detector (irithyll/anomaly/registry.hpp) in the
// worker's per-key model slot, so `irithyll serve --task anomaly` keeps one
// detector per key with the same leases, LRU and checkpoints as learners.
// predict_one is the detector's score (higher = more anomalous; 0 for a
// sample of the wrong width) and learn_one learns x, ignoring y and the
// weight: the worker scores a sample, publishes the score, then learns it.
//
// Checkpoints are encode_anomaly_detector's records (the detector's name,
// then its state), written and read by encode()/decode_anomaly_model().
// Thread safety: one thread, as the detector.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "irithyll/anomaly/registry.hpp"
#include "irithyll/learner.hpp"

namespace irithyll::serve {

class AnomalyModel final : public Learner {
 public:
  explicit AnomalyModel(std::unique_ptr<AnomalyDetector> detector) : detector_(std::move(detector)) {}

  std::string_view name() const override { return detector_->name(); }
  Task task() const override { return Task::kRegression; }
  std::size_t n_features() const override { return detector_->n_features(); }
  void learn_one(std::span<const double> x, double, double = 1.0) override { detector_->learn_one(x); }
  double predict_one(std::span<const double> x) const override { return detector_->score_one(x); }
  void reset() override { detector_->reset(); }
  std::uint64_t n_samples_seen() const override { return detector_->n_samples_seen(); }
  std::uint64_t n_skipped() const override { return detector_->n_skipped(); }
  std::size_t memory_bytes() const override { return sizeof(*this) + detector_->memory_bytes(); }
  void encode(ByteWriter& out) const override { encode_anomaly_detector(*detector_, out); }
  // Refused: a record names its detector, so decode_anomaly_model builds one.
  Status decode(ByteReader& in) override;

  const AnomalyDetector& detector() const { return *detector_; }

 private:
  std::unique_ptr<AnomalyDetector> detector_;
};

// A detector record (AnomalyModel::encode's bytes) back into a model.
Result<std::unique_ptr<Learner>> decode_anomaly_model(std::span<const std::uint8_t> bytes);

}  // namespace irithyll::serve
