// LossWatch: a drift detector (ADWIN, Page-Hinkley or DDM; drift/) watching a
// learner's per-sample loss, as a copyable value (the detector is deep-copied
// through clone) with counts of the signals it raised. An empty watch (no
// detector) always answers Stable. Cost: one detector update per sample.
// Thread safety: one owner.
#pragma once

#include <cstdint>
#include <memory>

#include "irithyll/drift/drift_detector.hpp"

namespace irithyll::nn {

class LossWatch {
 public:
  LossWatch() = default;
  explicit LossWatch(std::unique_ptr<DriftDetector> detector) : detector_(std::move(detector)) {}
  LossWatch(const LossWatch& o)
      : detector_(o.detector_ ? o.detector_->clone() : nullptr), warnings_(o.warnings_), drifts_(o.drifts_) {}
  LossWatch& operator=(const LossWatch& o) {
    if (this != &o) *this = LossWatch(o);
    return *this;
  }
  LossWatch(LossWatch&&) noexcept = default;
  LossWatch& operator=(LossWatch&&) noexcept = default;

  DriftSignal update(double loss) noexcept {
    if (!detector_) return DriftSignal::kStable;
    const DriftSignal s = detector_->update(loss);
    warnings_ += s == DriftSignal::kWarning;
    drifts_ += s == DriftSignal::kDrift;
    return s;
  }
  bool has_detector() const noexcept { return detector_ != nullptr; }
  std::uint64_t n_warnings() const noexcept { return warnings_; }
  std::uint64_t n_drifts() const noexcept { return drifts_; }
  std::size_t memory_bytes() const noexcept { return detector_ ? detector_->memory_bytes() : 0; }

  void encode(ByteWriter& out) const {
    out.boolean(detector_ != nullptr);
    if (detector_) encode_drift_detector(*detector_, out);
    out.u64(warnings_);
    out.u64(drifts_);
  }
  // REQUIRES of the bytes: the same detector kind as this watch's (or none when it has none).
  Status decode(ByteReader& in) {
    const bool has = in.boolean("continual detector present");
    if (!in.ok()) return in.status();
    if (has != (detector_ != nullptr)) return Status::corruption("continual: detector presence does not match the configuration");
    std::unique_ptr<DriftDetector> d;
    if (has) {
      auto r = decode_drift_detector(in);
      if (!r.is_ok()) return r.status();
      d = std::move(r).value();
      if (d->name() != detector_->name()) return Status::corruption("continual: detector kind does not match the configuration");
    }
    const std::uint64_t w = in.u64("continual warnings"), dr = in.u64("continual drifts");
    if (!in.ok()) return in.status();
    detector_ = std::move(d);
    warnings_ = w;
    drifts_ = dr;
    return Status::ok();
  }

 private:
  std::unique_ptr<DriftDetector> detector_;
  std::uint64_t warnings_ = 0, drifts_ = 0;
};

}  // namespace irithyll::nn
