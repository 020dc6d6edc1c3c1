// DriftMask: on drift, freeze the parameters that mattered most so the new
// regime is learned by the rest (in the spirit of PackNet, Mallya & Lazebnik
// 2018, and Piggyback-style masks, driven here by a drift detector).
// Importance is an EWMA of |g|; on Drift the top `freeze_fraction` of all
// parameters by importance (k = floor(fraction * n), ties broken by index
// order within nth_element) are frozen, frozen sets accumulate across drifts,
// and frozen gradients are zeroed. unfreeze_all() lifts the mask.
//
// The Rust library sorted all n importances for every mask update, O(n^2) in its
// implementation (124 ms at n = 10,000). Selection here is std::nth_element on
// a preallocated index array: O(n) expected, no allocation.
// Cost O(n) per update and per drift; memory n doubles + n u32 + n bytes.
// Thread safety: one owner.
#pragma once

#include <cstdint>
#include <vector>

#include "nn/continual/continual_strategy.hpp"

namespace irithyll::nn {

struct DriftMaskConfig {
  double freeze_fraction = 0.3;   // in [0, 1]
  double importance_alpha = 0.99; // EWMA decay in [0, 1)
};

class DriftMask final : public ContinualStrategy {
 public:
  DriftMask(std::size_t n_params, DriftMaskConfig config = {});

  std::string_view name() const override { return "drift_mask"; }
  std::size_t n_params() const noexcept override { return importance_.size(); }
  void pre_update(std::span<const double> params, std::span<double> grads) noexcept override;
  void post_update(std::span<double>) noexcept override {}
  void on_drift(std::span<const double> params, DriftSignal signal) noexcept override;
  void reset() noexcept override;
  void encode_state(ByteWriter& out) const override;
  Status decode_state(ByteReader& in) override;

  void unfreeze_all() noexcept;
  bool is_frozen(std::size_t i) const noexcept { return frozen_[i] != 0; }
  std::size_t n_frozen() const noexcept;
  std::span<const double> importance() const noexcept { return importance_; }

 private:
  DriftMaskConfig config_;
  std::vector<double> importance_;
  std::vector<std::uint8_t> frozen_;
  std::vector<std::uint32_t> order_;  // scratch for selection
};

}  // namespace irithyll::nn
