// The recurrent form of the paper's two log-linear variants (Han Guo et al.,
// "Log-Linear Attention", ICLR 2026, arXiv 2506.04761): Log-Linear Mamba-2
// and Log-Linear Gated DeltaNet. Unlike the counter form of fenwick.hpp (plain
// leaves pushed into a binary counter, no decay), here
//
//  * the current token sits in a level of its own (level 0), and the tokens
//    before it, [0, t), are split into Fenwick buckets by the bits of t: bit b
//    of t is a bucket of 2^b tokens held in level b + 1. This is the paper's
//    partition of the prefix (sec. 3.1) that defines the hierarchical mask
//    M^H[t, s] = lambda_t^(l(t, s)), l(t, s) = 0 for s = t, else
//    floor(log2(t xor s)) + 1. With L levels every l >= L - 1 folds into L - 1;
//  * every level carries the inner rule's transition, applied to each level
//    separately: alpha_t for Mamba-2, alpha_t (I - beta_t kh kh^T) for Gated
//    DeltaNet. That transition is linear and the same for every level, so the
//    output is the inner model's attention matrix masked elementwise by M^H:
//    the paper's O = (Q K^T (.) M^S (.) M^H) V for Log-Linear Mamba-2 and
//    O = (A_gdn (.) M^H) V, A_gdn the Gated DeltaNet attention matrix, for
//    Log-Linear Gated DeltaNet (sec. 3.3, the materialised masked forms);
//  * the output mixes the levels with input-dependent weights, the recurrent
//    (decoding) form of sec. 3.2: o_t = sum_l lambda_t^(l) S_t^(l)T q_t.
// (Sections of arXiv 2506.04761 v2. The issue calls the masked forms eq. 6-11;
// we could not confirm the numbering offline, so the equations are written
// out here and in tests/reference/loglinear_paper_ref.py instead.)
//
// One step (loglinear_paper_update), for token t with the state after t - 1:
//   1. merge (the partition, sec. 3.1): levels [0, land) are summed into
//      level `land`, land = countr_one(mask) capped at L - 1, the level whose
//      bucket token t - 1 completes;
//   2. transition (the inner rule, sec. 3.3): S^(l) <- alpha (S^(l) - erase
//      kh (kh^T S^(l))) for every active level (erase = beta for Gated
//      DeltaNet, 0 for Mamba-2);
//   3. write: S^(0) += write kh v^T (write = beta, or Mamba-2's dt), the
//      diagonal of the masked matrix;
//   then the read (sec. 3.2) above.
// Merge and transition commute (both linear); merging first touches fewer
// levels. tests/reference/loglinear_paper_ref.py builds the materialised
// O(T^2) masked matrices and checks this recurrence to 1e-10.
//
// State: L levels of dk x dv (row-major, S^T q is the read) and a bit mask of
// the levels that hold tokens (inactive levels hold zeros). Cost per step:
// amortised O(dk dv) merge + O(popcount(mask) dk dv) transition. No allocation.
#pragma once

#include <cstddef>
#include <cstdint>

namespace irithyll::nn {

// Step 1 alone: merges the completed run; returns the mask after it (bit 0 set).
std::uint64_t loglinear_paper_merge(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                                    std::size_t dv) noexcept;
// Steps 2-3 on the levels of `mask` (as returned by the merge). u: dv scratch.
void loglinear_paper_transition_write(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                                      std::size_t dv, double alpha, double erase, const double* kh, double write,
                                      const double* v, double* u) noexcept;
// Steps 1-3: advances the levels by one token; returns the new mask. u: dv scratch.
std::uint64_t loglinear_paper_update(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                                     std::size_t dv, double alpha, double erase, const double* kh, double write,
                                     const double* v, double* u) noexcept;

// out = sum over active l of lambda[l] * S^(l)T q (dv entries, overwritten).
// Same read as the counter form (fenwick_read).
void loglinear_paper_read(const double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                          std::size_t dv, const double* lambda, const double* q, double* out) noexcept;

}  // namespace irithyll::nn
