// Forecaster: the interface of every streaming forecasting model (Holt-Winters,
// SNARIMAX, a catalogue regressor on lagged targets). A forecaster sees one
// series value at a time, with optional exogenous features, and forecasts
// any number of steps ahead from its current state.
//
// Contract (test-then-train, as for learners): forecast(), then
// learn_one(y_t, x_t), then drop the sample. forecast() never changes what
// the model will learn.
//
//   learn_one(y, x)   y_t and the exogenous features x_t of the same step (x
//                     may be empty). A non-finite y is a missing observation:
//                     the model advances its clock on its own one-step
//                     forecast (seasons stay aligned) and n_samples_seen()
//                     does not count it. A NaN feature counts as 0. A width
//                     that differs from the first non-empty x is an error.
//   forecast(xs, out) out.size() steps ahead: out[h-1] forecasts y_{t+h}.
//                     xs holds the future exogenous rows back to back
//                     (out.size() * n_exogenous values), or is empty (then
//                     they count as 0, or missing for a catalogue learner).
//
// Checkpoints: encode() writes the complete state, configuration included;
// decode() into a default-made instance of the same kind continues
// bit-identically, and refuses bytes that are not a valid state.
//
// Thread safety: one thread at a time (forecast() may use model-owned
// scratch declared mutable).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll::timeseries {

class Forecaster {
 public:
  virtual ~Forecaster() = default;

  // Stable identifier ("holt_winters"); written into checkpoints.
  virtual std::string_view name() const = 0;

  virtual Status learn_one(double y, std::span<const double> x = {}) = 0;
  virtual Status forecast(std::span<const double> xs, std::span<double> out) const = 0;

  // Back to the freshly constructed state (same configuration).
  virtual void reset() = 0;
  virtual std::uint64_t n_samples_seen() const = 0;
  // Heap plus inline bytes owned by the model, to within a few percent.
  virtual std::size_t memory_bytes() const = 0;

  virtual void encode(ByteWriter& out) const = 0;
  virtual Status decode(ByteReader& in) = 0;
};

}  // namespace irithyll::timeseries
