// SsmLayer: the small interface every selective state-space layer offers to
// the streaming learners (Mamba-1, block-diagonal, Mamba-3 SISO and MIMO). A
// layer maps an input vector x_t to an output vector y_t while carrying its
// recurrent state.
//
// forward() advances the state; forward_predict() computes the same output
// without touching the state (it writes model-owned scratch, so it is const but
// not thread-safe). Neither allocates. Inputs must be finite (the learners
// sanitise before calling). Thread safety: one owner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll::nn {

class SsmLayer {
 public:
  virtual ~SsmLayer() = default;
  virtual std::size_t input_dim() const noexcept = 0;
  virtual std::size_t output_dim() const noexcept = 0;
  // REQUIRES: x.size() == input_dim(), y.size() == output_dim().
  virtual void forward(std::span<const double> x, std::span<double> y) noexcept = 0;
  virtual void forward_predict(std::span<const double> x, std::span<double> y) const noexcept = 0;
  // Zeroes the recurrent state; weights are kept.
  virtual void reset() noexcept = 0;
  virtual std::span<const double> state() const noexcept = 0;
  virtual std::size_t memory_bytes() const noexcept = 0;
  virtual void encode(ByteWriter& out) const = 0;
  virtual Status decode(ByteReader& in) = 0;
};

}  // namespace irithyll::nn
