// The Fenwick-tree level stack of log-linear attention (Han Guo et al.,
// "Log-Linear Attention", ICLR 2026, sec. 3): L matrix states, of which the
// active ones (a bit mask) partition the prefix of the stream into buckets of
// sizes that are powers of two.
//
// A push makes the leaf u v^T and merges it with the run of active levels
// starting at level 0 (a binary carry); the sum lands in the first inactive
// level, so after t pushes (t < 2^L) the active levels are the 1-bits of t.
// When every level is active the carry has nowhere to go and is folded into
// the top level L-1 (capacity overflow), so the state never grows.
//
// Invariant: inactive levels hold zeros. Levels are stored contiguously,
// level l at levels + l * dk * dv, row-major dk x dv.
// Cost: push O(dk dv (1 + merged levels)), amortised O(dk dv); read
// O(popcount(mask) dk dv). No allocation; pure functions.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace irithyll::nn {

inline constexpr std::uint32_t kMaxFenwickLevels = 62;

// Level the next leaf lands in: the number of trailing active levels, capped at L-1.
constexpr std::uint32_t fenwick_landing_level(std::uint64_t mask, std::uint32_t levels) noexcept {
  const auto t = static_cast<std::uint32_t>(std::countr_one(mask));
  return t < levels ? t : levels - 1;
}

// Mask after a push that landed at `land`: levels below it are merged away.
constexpr std::uint64_t fenwick_next_mask(std::uint64_t mask, std::uint32_t land) noexcept {
  const std::uint64_t through = (std::uint64_t{2} << land) - 1;
  return (mask & ~through) | (std::uint64_t{1} << land);
}

// Merges levels [0, land) into level `land`, zeroes them, and adds u v^T there.
void fenwick_push(double* levels, std::uint32_t land, std::size_t dk, std::size_t dv, const double* u,
                  const double* v) noexcept;

// out[c] = sum over active l of lambda[l] * sum_i q[i] S_l[i][c]  (out is dv long, overwritten).
void fenwick_read(const double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk, std::size_t dv,
                  const double* lambda, const double* q, double* out) noexcept;

}  // namespace irithyll::nn
