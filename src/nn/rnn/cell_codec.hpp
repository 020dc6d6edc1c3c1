// Shared pieces of the recurrent cells' checkpoints and feature vectors
// (internal): the checked read of one weight or state array, and the
// readout feature layout [h_t (d_hidden), x_t, 1] of the cell learners.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "nn/sanitize_input.hpp"

namespace irithyll::nn::detail {

// The largest magnitude a decoded weight or state value may have. Training
// keeps them many orders below it; beyond it, a weighted sum of a few such
// values can reach +inf and -inf at once and turn every output into NaN.
inline constexpr double kMaxCellValue = 1e100;

// Reads one f64 array into dst when it has dst's size and only finite values
// within kMaxCellValue (a cell's weights and state are so by construction,
// so anything else is a corrupt record); otherwise fails `in` with
// "<cell>: ..." and leaves dst.
inline void read_cell_array(ByteReader& in, std::vector<double>& dst, const char* cell, const char* what) {
  auto v = in.f64s(what);
  if (!in.ok()) return;
  if (v.size() != dst.size()) return in.fail(std::string(cell) + ": wrong size for " + what);
  if (!std::all_of(v.begin(), v.end(), [](double e) { return std::abs(e) <= kMaxCellValue; }))
    return in.fail(std::string(cell) + ": non-finite or out-of-range value in " + what);
  dst = std::move(v);
}

// Fills features = [h_t, x_t, 1] for a cell learner: x sanitised into xin
// (non-finite read as 0), then the cell's step on xin writes h_t into the
// first d_hidden entries; kLearn advances the cell, otherwise it is only read.
// REQUIRES features.size() == d_hidden + xin.size() + 1.
template <bool kLearn, class Cell>
void cell_readout_features(const Cell& cell, std::span<const double> x, std::vector<double>& xin,
                           std::vector<double>& features) {
  const std::size_t hd = cell.d_hidden();
  sanitize_input(x, xin);
  std::copy(xin.begin(), xin.end(), features.begin() + static_cast<std::ptrdiff_t>(hd));
  features.back() = 1.0;
  if constexpr (kLearn) {
    const_cast<Cell&>(cell).forward(xin, {features.data(), hd});
  } else {
    cell.forward_predict(xin, {features.data(), hd});
  }
}

}  // namespace irithyll::nn::detail
