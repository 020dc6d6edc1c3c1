// e-prop row kernel (Bellec et al. 2020): for one presynaptic source with
// filtered trace `trace`, update the eligibilities and weights of its synapses
// onto n postsynaptic neurons (one contiguous row), all in Q1.14 integers:
//
//   e_j <- sat16( e_j*kappa + (1-kappa) * (psi_j * trace) )
//   w_j <- sat16( w_j + eta * sat16(e_j * L_j) )
//
// where psi_j is neuron j's surrogate derivative and L_j its learning signal
// (every product is q14::mul, rounded to nearest). The `_ref` defines the
// semantics; the dispatched version uses AVX2 (8 x int32 lanes, packs for the
// int16 saturation) and must agree bit for bit. Integer-only, no allocation,
// thread-safe (pure functions).
//
// REQUIRES: 1 <= kappa <= 16383, 0 <= eta <= 16383, 0 <= psi_j <= 16383
// (the surrogate is bounded by gamma, itself limited to 16383), so that every
// Q14 factor doubled still fits int16 (what the AVX2 path relies on).
#pragma once

#include <cstddef>
#include <cstdint>

namespace irithyll::nn {

void eprop_row_ref(std::int16_t* e, std::int16_t* w, const std::int16_t* psi, const std::int16_t* learning,
                   std::size_t n, std::int32_t trace, std::int32_t kappa, std::int32_t eta) noexcept;
void eprop_row(std::int16_t* e, std::int16_t* w, const std::int16_t* psi, const std::int16_t* learning, std::size_t n,
               std::int32_t trace, std::int32_t kappa, std::int32_t eta) noexcept;

// acc[j] += row[j] for j < n (the sparse current accumulation of the forward pass).
void accumulate_row(std::int32_t* acc, const std::int16_t* row, std::size_t n) noexcept;

}  // namespace irithyll::nn
