// ReadoutBank: the trained part of a reservoir learner. Regression uses one
// RecursiveLeastSquares readout on the target; classification uses one per
// class on one-hot targets (a linear least-squares classifier), predicting the
// arg-max and reporting probabilities as the scores clipped to [1e-6, 1] and
// normalised (scores are not calibrated probabilities).
//
// Cost per update O(c * m^2) for c readouts of m inputs; memory c*(m^2+3m)
// doubles. No allocation after construction. Thread safety: one owner.
#pragma once

#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"
#include "nn/sanitize_input.hpp"
#include "readout/rls.hpp"

namespace irithyll::nn {

class ReadoutBank {
 public:
  ReadoutBank() = default;
  ReadoutBank(Task task, std::size_t n_classes, std::size_t n_inputs, RlsConfig config);

  // Skips a non-finite y, or a class index outside [0, n_classes).
  void update(std::span<const double> features, double y) noexcept;
  double predict(std::span<const double> features) const noexcept;
  // REQUIRES: proba.size() == n_classes (classification); no-op for regression.
  void predict_proba(std::span<const double> features, std::span<double> proba) const noexcept;
  void reset() noexcept;

  std::size_t n_readouts() const noexcept { return rls_.size(); }
  const RecursiveLeastSquares& readout(std::size_t k) const noexcept { return rls_[k]; }
  std::size_t memory_bytes() const noexcept;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);  // REQUIRES: constructed with the same shape

 private:
  Task task_ = Task::kRegression;
  std::vector<RecursiveLeastSquares> rls_;
};

}  // namespace irithyll::nn
