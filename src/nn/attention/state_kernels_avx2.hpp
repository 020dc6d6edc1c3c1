// Internal: the AVX2+FMA forms of the fused state kernels, defined on x86-64
// only and called by the dispatchers in state_kernels.cpp when the CPU has
// AVX2 and FMA but not AVX-512 (the level kernels: whenever it has AVX2 and FMA). Arguments and semantics as in
// state_kernels.hpp (the delta and RWKV-7 forms need no scratch).
#pragma once

#include <cstddef>
#include <cstdint>

namespace irithyll::nn::attn::detail {

void read_avx2(const double* s, const double* q, double* o, std::size_t dk, std::size_t dv) noexcept;
void decay_write_read_avx2(double* s, const double* a, std::size_t a_stride, const double* k, const double* v,
                           const double* q, double* o, std::size_t dk, std::size_t dv) noexcept;
void delta_write_read_avx2(double* s, double g, const double* kh, const double* v, double beta, const double* q,
                           double* o, std::size_t dk, std::size_t dv) noexcept;
void rwkv7_write_read_avx2(double* s, const double* w, const double* kh, const double* kt, const double* r,
                           const double* v, const double* q, double* o, std::size_t dk, std::size_t dv) noexcept;

// The log-linear level kernels of level_kernels.hpp.
void levels_read_avx2(const double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                      std::size_t dv, const double* lambda, const double* q, double* out) noexcept;
void paper_step_avx2(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk, std::size_t dv,
                     double alpha, double erase, const double* kh, double write, const double* v,
                     const double* lambda, const double* q, double* out) noexcept;

}  // namespace irithyll::nn::attn::detail
