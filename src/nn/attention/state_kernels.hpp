// Per-head state kernels of the linear-attention engine: the update
// S <- decay (.) S + write and the readout o = S^T q on one head's d_key x
// d_value state (row-major, row i = key dimension i), with the write forms of
// the modes in multi_head.hpp (outer product k v^T; the delta rule of Schlag
// et al. 2021 / Yang et al. 2024; RWKV-7's removal term, Peng et al. 2025).
//
// Each kernel has a `_ref` that applies the equations step by step (decay the
// state, then write, then read, each a separate pass) and defines the
// semantics; the NumPy reference test checks the engine built on them. The
// dispatched entry points use AVX-512 when the CPU has it, else AVX2+FMA
// (state_kernels_avx2.cpp), else the `_ref` loops: the vector forms fuse the
// passes (one sweep over S that decays, writes and accumulates the readout)
// and fold a scalar decay into the delta rule's S^T k (g (S^T k) instead of
// (g S)^T k), so they agree with `_ref` to rounding, not bit for bit
// (tests/nn_attention/state_kernels_test.cpp names the tolerance).
//
// Cost: O(d_key d_value) per call, one or two sweeps over S; no allocation.
// Thread-safe (pure functions on caller-owned arrays). `q`/`o` may be null to
// skip the readout.
#pragma once

#include <cstddef>

namespace irithyll::nn::attn {

// S[i,:] <- a_i S[i,:] + k_i v (a_stride 0: one scalar a), then o = S^T q.
void decay_write_read_ref(double* s, const double* a, std::size_t a_stride, const double* k, const double* v,
                          const double* q, double* o, std::size_t dk, std::size_t dv) noexcept;
void decay_write_read(double* s, const double* a, std::size_t a_stride, const double* k, const double* v,
                      const double* q, double* o, std::size_t dk, std::size_t dv) noexcept;

// S <- g S; u = S^T kh; S <- S + kh (beta (v - u))^T; then o = S^T q.
// `u` is dv of scratch.
void delta_write_read_ref(double* s, double g, const double* kh, const double* v, double beta, const double* q,
                          double* o, std::size_t dk, std::size_t dv, double* u) noexcept;
void delta_write_read(double* s, double g, const double* kh, const double* v, double beta, const double* q, double* o,
                      std::size_t dk, std::size_t dv, double* u) noexcept;

// RWKV-7: S <- diag(w) S; u = S^T kh; S[i,:] += kt_i v - r_i u; o = S^T q.
// `u` is dv of scratch.
void rwkv7_write_read_ref(double* s, const double* w, const double* kh, const double* kt, const double* r,
                          const double* v, const double* q, double* o, std::size_t dk, std::size_t dv,
                          double* u) noexcept;
void rwkv7_write_read(double* s, const double* w, const double* kh, const double* kt, const double* r,
                      const double* v, const double* q, double* o, std::size_t dk, std::size_t dv, double* u) noexcept;

// o = S^T q.
void read_ref(const double* s, const double* q, double* o, std::size_t dk, std::size_t dv) noexcept;
void read(const double* s, const double* q, double* o, std::size_t dk, std::size_t dv) noexcept;

// "avx512", "avx2" or "scalar".
const char* state_kernels_backend() noexcept;

}  // namespace irithyll::nn::attn
