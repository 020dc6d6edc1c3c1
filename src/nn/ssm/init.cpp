#include "nn/ssm/init.hpp"

#include <cmath>
#include <numbers>

namespace irithyll::nn {

void mamba_init(std::span<double> log_a) noexcept {
  for (std::size_t n = 0; n < log_a.size(); ++n) log_a[n] = std::log(static_cast<double>(n) + 1.0);
}

void s4d_lin_real(std::span<double> log_a) noexcept {
  for (double& v : log_a) v = std::log(0.5);
}

void s4d_inv_real(std::span<double> log_a) noexcept {
  const double n_states = static_cast<double>(log_a.size());
  for (std::size_t n = 0; n < log_a.size(); ++n) log_a[n] = std::log(0.5 + static_cast<double>(n) / n_states);
}

void s4d_lin_complex(std::span<double> out) noexcept {
  for (std::size_t n = 0; n < out.size() / 2; ++n) {
    out[2 * n] = std::log(0.5);
    out[2 * n + 1] = std::numbers::pi * static_cast<double>(n);
  }
}

void s4d_inv_complex(std::span<double> out) noexcept {
  const double n_states = static_cast<double>(out.size() / 2);
  for (std::size_t n = 0; n < out.size() / 2; ++n) {
    out[2 * n] = std::log(0.5);
    out[2 * n + 1] = n_states / std::numbers::pi * (n_states / (2.0 * static_cast<double>(n) + 1.0) - 1.0);
  }
}

}  // namespace irithyll::nn
