#include "irithyll/nn/kernels.hpp"

namespace irithyll::nn {

double dot_ref(const double* a, const double* b, std::size_t n) noexcept {
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

void matvec_ref(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  for (std::size_t r = 0; r < rows; ++r) y[r] = dot_ref(m + r * cols, x, cols);
}

void matvec_t_ref(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  for (std::size_t c = 0; c < cols; ++c) y[c] = 0.0;
  for (std::size_t r = 0; r < rows; ++r) axpy_ref(x[r], m + r * cols, y, cols);
}

void axpy_ref(double a, const double* x, double* y, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) y[i] += a * x[i];
}

// Dispatch: scalar for now; an AVX2 path plugs in here behind a CPU check.
double dot(const double* a, const double* b, std::size_t n) noexcept { return dot_ref(a, b, n); }
void matvec(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  matvec_ref(m, x, y, rows, cols);
}
void matvec_t(const double* m, const double* x, double* y, std::size_t rows, std::size_t cols) noexcept {
  matvec_t_ref(m, x, y, rows, cols);
}
void axpy(double a, const double* x, double* y, std::size_t n) noexcept { axpy_ref(a, x, y, n); }
const char* kernels_backend() noexcept { return "scalar"; }

}  // namespace irithyll::nn
