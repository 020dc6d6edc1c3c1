#include "nn/attention/level_kernels.hpp"

#include "../cpu_features.hpp"
#include "irithyll/nn/attention/fenwick_levels.hpp"
#include "nn/attention/fenwick.hpp"
#include "nn/attention/state_kernels_avx2.hpp"

namespace irithyll::nn::attn {

void levels_read_ref(const double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk,
                     std::size_t dv, const double* lambda, const double* q, double* out) noexcept {
  fenwick_read(levels, mask, n_levels, dk, dv, lambda, q, out);
}

void paper_step_ref(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk, std::size_t dv,
                    double alpha, double erase, const double* kh, double write, const double* v,
                    const double* lambda, const double* q, double* out, double* u) noexcept {
  loglinear_paper_transition_write(levels, mask, n_levels, dk, dv, alpha, erase, kh, write, v, u);
  fenwick_read(levels, mask, n_levels, dk, dv, lambda, q, out);
}

#if defined(__x86_64__)
namespace {
const bool kUseAvx2 = nn::detail::cpu_has_avx2_fma();
}  // namespace

void levels_read(const double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk, std::size_t dv,
                 const double* lambda, const double* q, double* out) noexcept {
  if (kUseAvx2) {
    detail::levels_read_avx2(levels, mask, n_levels, dk, dv, lambda, q, out);
  } else {
    levels_read_ref(levels, mask, n_levels, dk, dv, lambda, q, out);
  }
}

void paper_step(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk, std::size_t dv,
                double alpha, double erase, const double* kh, double write, const double* v, const double* lambda,
                const double* q, double* out, double* u) noexcept {
  if (kUseAvx2) {
    detail::paper_step_avx2(levels, mask, n_levels, dk, dv, alpha, erase, kh, write, v, lambda, q, out);
  } else {
    paper_step_ref(levels, mask, n_levels, dk, dv, alpha, erase, kh, write, v, lambda, q, out, u);
  }
}

const char* level_kernels_backend() noexcept { return kUseAvx2 ? "avx2" : "scalar"; }
#else
void levels_read(const double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk, std::size_t dv,
                 const double* lambda, const double* q, double* out) noexcept {
  levels_read_ref(levels, mask, n_levels, dk, dv, lambda, q, out);
}

void paper_step(double* levels, std::uint64_t mask, std::uint32_t n_levels, std::size_t dk, std::size_t dv,
                double alpha, double erase, const double* kh, double write, const double* v, const double* lambda,
                const double* q, double* out, double* u) noexcept {
  paper_step_ref(levels, mask, n_levels, dk, dv, alpha, erase, kh, write, v, lambda, q, out, u);
}

const char* level_kernels_backend() noexcept { return "scalar"; }
#endif

}  // namespace irithyll::nn::attn
