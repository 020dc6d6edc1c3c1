// StreamingEwc: elastic weight consolidation for streams (Kirkpatrick et al.
// 2017, "Overcoming catastrophic forgetting in neural networks", PNAS), with
// the diagonal Fisher information estimated online as an EWMA of squared
// gradients, F <- a F + (1-a) g^2, and the anchor theta* re-taken whenever a
// drift detector reports Drift (not Warning): after a change, what was
// learned up to it is what to protect. Once anchored, each gradient gains the
// penalty's gradient, g += lambda F (theta - theta*), and
// penalty() = lambda/2 sum F (theta - theta*)^2 (0 before any anchor).
// Cost O(n) per update; memory 2n doubles. Thread safety: one owner.
#pragma once

#include <limits>

#include <vector>

#include "nn/continual/continual_strategy.hpp"

namespace irithyll::nn {

struct StreamingEwcConfig {
  double lambda = 1.0;         // penalty strength >= 0
  double fisher_alpha = 0.99;  // Fisher EWMA decay in [0, 1)
};

class StreamingEwc final : public ContinualStrategy {
 public:
  StreamingEwc(std::size_t n_params, StreamingEwcConfig config = {});
  // Caps each parameter's penalty coefficient lambda F_i at 1 / lr, the
  // largest for which one SGD step of size lr moves a parameter at most onto
  // its anchor. Without it, lambda F_i lr > 2 makes the penalty oscillate with
  // growing amplitude, and since F is an average of squared gradients that the
  // oscillation itself inflates, the parameters ran to NaN (lambda 1e4 on the
  // log-linear learner). 0 or less: no cap.
  void set_step_size(double lr) noexcept {
    max_coefficient_ = lr > 0.0 ? 1.0 / lr : std::numeric_limits<double>::infinity();
  }

  std::string_view name() const override { return "ewc"; }
  std::size_t n_params() const noexcept override { return fisher_.size(); }
  void pre_update(std::span<const double> params, std::span<double> grads) noexcept override;
  void post_update(std::span<double>) noexcept override {}
  void on_drift(std::span<const double> params, DriftSignal signal) noexcept override;
  void reset() noexcept override;
  void encode_state(ByteWriter& out) const override;
  Status decode_state(ByteReader& in) override;

  double penalty(std::span<const double> params) const noexcept;
  bool has_anchor() const noexcept { return has_anchor_; }
  std::span<const double> fisher() const noexcept { return fisher_; }
  std::span<const double> anchor() const noexcept { return anchor_; }

 private:
  StreamingEwcConfig config_;
  double max_coefficient_ = std::numeric_limits<double>::infinity();
  std::vector<double> fisher_, anchor_;
  bool has_anchor_ = false;
};

}  // namespace irithyll::nn
