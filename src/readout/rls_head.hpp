// RlsHead: the task-aware readout of every "features -> RLS" learner (SSM,
// sLSTM, mGRADE, attention, log-linear, and the reservoirs ESN, NG-RC and the
// spiking network): one RecursiveLeastSquares for regression, or one per class
// on one-hot targets for classification (predict = arg-max score).
// Probabilities: predict_proba clips the scores at 0, adds 1e-9 and normalises
// (a calibrated-enough proxy that always sums to 1); the reservoir learners
// keep their own rule, predict_proba_clipped (scores clipped to [1e-6, 1],
// normalised). Two record layouts: encode writes the task byte and the heads
// (the feature learners'), encode_heads the heads alone (the reservoirs',
// whose shape is fixed by their config, so decode_heads checks it).
//
// Cost per update O(K n^2) for K heads over n features; no allocation after
// construction. Header-only so that every neural area can use it without a new
// link dependency. Thread safety: one owner.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "irithyll/learner.hpp"
#include "readout/rls.hpp"

namespace irithyll {

class RlsHead {
 public:
  RlsHead() = default;
  RlsHead(Task task, std::size_t n_classes, std::size_t n_inputs, RlsConfig config) : task_(task) {
    const std::size_t k = task == Task::kClassification ? std::max<std::size_t>(n_classes, 1) : 1;
    heads_.assign(k, RecursiveLeastSquares(n_inputs, config));
  }

  // Classification targets outside 0..K-1 are ignored.
  void update(std::span<const double> x, double y) noexcept {
    if (task_ == Task::kRegression) {
      if (!heads_.empty()) heads_[0].update(x, y);
      return;
    }
    if (!(y >= 0.0) || y >= static_cast<double>(heads_.size())) return;
    const auto cls = static_cast<std::size_t>(y);
    for (std::size_t k = 0; k < heads_.size(); ++k) heads_[k].update(x, k == cls ? 1.0 : 0.0);
  }

  double predict(std::span<const double> x) const noexcept {
    if (heads_.empty()) return 0.0;
    if (task_ == Task::kRegression) return heads_[0].predict(x);
    std::size_t best = 0;
    double best_s = -INFINITY;
    for (std::size_t k = 0; k < heads_.size(); ++k) {
      const double s = heads_[k].predict(x);
      if (s > best_s) best_s = s, best = k;
    }
    return static_cast<double>(best);
  }

  // REQUIRES: proba.size() == number of classes.
  void predict_proba(std::span<const double> x, std::span<double> proba) const noexcept {
    double total = 0.0;
    for (std::size_t k = 0; k < proba.size() && k < heads_.size(); ++k) {
      const double s = heads_[k].predict(x);
      proba[k] = (std::isfinite(s) && s > 0.0 ? s : 0.0) + 1e-9;
      total += proba[k];
    }
    for (std::size_t k = 0; k < proba.size(); ++k) proba[k] = k < heads_.size() ? proba[k] / total : 0.0;
  }

  // The reservoir learners' rule. No-op for regression.
  void predict_proba_clipped(std::span<const double> x, std::span<double> proba) const noexcept {
    if (task_ == Task::kRegression) return;
    double total = 0.0;
    for (std::size_t k = 0; k < heads_.size() && k < proba.size(); ++k) {
      const double s = heads_[k].predict(x);
      proba[k] = std::isfinite(s) ? std::clamp(s, 1e-6, 1.0) : 1e-6;
      total += proba[k];
    }
    for (std::size_t k = 0; k < heads_.size() && k < proba.size(); ++k) proba[k] /= total;
  }

  void reset() noexcept {
    for (auto& h : heads_) h.reset();
  }
  // Every head forgets input i (RecursiveLeastSquares::reset_input).
  void reset_input(std::size_t i) noexcept {
    for (auto& h : heads_) h.reset_input(i);
  }
  // Every head's lambda (RecursiveLeastSquares::set_forgetting_factor).
  void set_forgetting_factor(double lambda) noexcept {
    for (auto& h : heads_) h.set_forgetting_factor(lambda);
  }
  std::size_t n_heads() const noexcept { return heads_.size(); }
  const RecursiveLeastSquares& head(std::size_t k) const noexcept { return heads_[k]; }
  std::size_t memory_bytes() const noexcept {
    std::size_t b = sizeof(*this);
    for (const auto& h : heads_) b += h.memory_bytes();
    return b;
  }

  void encode(ByteWriter& out) const {
    out.u8(static_cast<std::uint8_t>(task_));
    encode_heads(out);
  }
  void encode_heads(ByteWriter& out) const {
    out.u64(heads_.size());
    for (const auto& h : heads_) h.encode(out);
  }
  // Reads what encode_heads wrote into a head constructed with the same shape.
  Status decode_heads(ByteReader& in) {
    const std::uint64_t k = in.u64("readout count");
    if (!in.ok()) return in.status();
    if (k != heads_.size()) return Status::corruption("readout bank: readout count does not match the configuration");
    for (auto& h : heads_) {
      const std::size_t n = h.n_inputs();
      IRITHYLL_RETURN_IF_ERROR(h.decode(in));
      if (h.n_inputs() != n) return Status::corruption("readout bank: readout size does not match the configuration");
    }
    return Status::ok();
  }
  // Reads what encode wrote into a head constructed with the learner's shape:
  // the task and the head count in the bytes must be that shape's (a hostile
  // record with fewer heads than classes would otherwise be indexed past its
  // end by the class of the next target), and every head has n_inputs inputs.
  Status decode(ByteReader& in, std::size_t n_inputs) {
    const std::uint8_t task = in.u8("readout task");
    const std::size_t k = in.read_count(16, "readout heads");
    if (!in.ok()) return in.status();
    if (task > 1 || k == 0 || (task == 0 && k != 1)) return Status::corruption("readout: bad task or head count");
    if (static_cast<Task>(task) != task_ || k != heads_.size())
      return Status::corruption("readout: task or head count does not match the learner's context");
    std::vector<RecursiveLeastSquares> heads(k);
    for (auto& h : heads) {
      IRITHYLL_RETURN_IF_ERROR(h.decode(in));
      if (h.n_inputs() != n_inputs) return Status::corruption("readout: head width does not match the features");
    }
    task_ = static_cast<Task>(task);
    heads_ = std::move(heads);
    return Status::ok();
  }

 private:
  Task task_ = Task::kRegression;
  std::vector<RecursiveLeastSquares> heads_;
};

}  // namespace irithyll
