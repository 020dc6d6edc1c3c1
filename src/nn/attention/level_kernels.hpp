// Fused kernels on the level stacks of the log-linear modes of
// MultiHeadAttention (multi_head.hpp): the weighted read of the counter form
// and the paper variants' transition + write + read (fenwick_levels.hpp).
//
// The `_ref` forms are the step-by-step definitions the learners use
// (fenwick_read; loglinear_paper_transition_write, then fenwick_read): one
// pass per operation, every product rounded as written. The dispatched forms,
// on CPUs with AVX2 and FMA (AVX-512 CPUs included), make one sweep per
// group of 16 columns that visits every active level, updates it and reads it
// while its rows are in registers, with the level weight applied once per
// level (lambda_l (S_l^T q) instead of sum_i (lambda_l q_i) S_l[i,:]) and FMA
// contraction: they agree with `_ref` to rounding
// (tests/nn_attention/level_kernels_test.cpp names the tolerance).
//
// Levels are contiguous (level l at levels + l * dk * dv, row-major dk x dv);
// bits of `mask` at or above n_levels are ignored. A level whose weight is 0
// is updated but not read, as in the reference. Cost: O(popcount(mask) dk dv),
// one pass per level (two for a delta-rule transition); no allocation.
#pragma once

#include <cstddef>
#include <cstdint>

namespace irithyll::nn::attn {

// out = sum over active l of lambda[l] * S_l^T q (dv entries, overwritten).
void levels_read_ref(const double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                     std::size_t dv, const double* lambda, const double* q, double* out) noexcept;
void levels_read(const double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk, std::size_t dv,
                 const double* lambda, const double* q, double* out) noexcept;

// On every active level: S <- alpha (S - erase kh (kh^T S)); level 0 (which
// must be active) then gets += write kh v^T; then out = sum_l lambda_l S_l^T q.
// `u` is dv of scratch for the reference.
void paper_step_ref(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk, std::size_t dv,
                    double alpha, double erase, const double* kh, double write, const double* v,
                    const double* lambda, const double* q, double* out, double* u) noexcept;
void paper_step(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk, std::size_t dv,
                double alpha, double erase, const double* kh, double write, const double* v, const double* lambda,
                const double* q, double* out, double* u) noexcept;

// "avx2" or "scalar".
const char* level_kernels_backend() noexcept;

}  // namespace irithyll::nn::attn
