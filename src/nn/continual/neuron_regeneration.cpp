#include "irithyll/nn/continual/neuron_regeneration.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace irithyll::nn {

NeuronRegeneration::NeuronRegeneration(std::size_t n_params, NeuronRegenerationConfig config)
    : config_(config), n_params_(n_params), rng_(config.seed) {
  config_.group_size = std::max<std::size_t>(config_.group_size, 1);
  config_.interval = std::max<std::uint64_t>(config_.interval, 1);
  const std::size_t groups = (n_params + config_.group_size - 1) / config_.group_size;
  utility_.assign(groups, 0.0);
  regenerated_.assign(groups, 0);
  order_.assign(groups, 0);
}

void NeuronRegeneration::pre_update(std::span<const double>, std::span<double> grads) noexcept {
  const double a = config_.utility_alpha;
  const std::size_t gs = config_.group_size;
  for (std::size_t g = 0; g < utility_.size(); ++g) {
    const std::size_t lo = g * gs, hi = std::min(lo + gs, n_params_);
    double s = 0.0;
    for (std::size_t i = lo; i < hi; ++i) s += std::isfinite(grads[i]) ? std::fabs(grads[i]) : 0.0;
    utility_[g] = a * utility_[g] + (1.0 - a) * s / static_cast<double>(hi - lo);
  }
}

void NeuronRegeneration::post_update(std::span<double> params) noexcept {
  if (++updates_ % config_.interval == 0) force_regenerate(params);
}

void NeuronRegeneration::force_regenerate(std::span<double> params) noexcept {
  const std::size_t groups = utility_.size();
  if (groups == 0) return;
  const double frac = std::clamp(config_.fraction, 0.0, 1.0);
  const std::size_t m = std::clamp<std::size_t>(static_cast<std::size_t>(std::ceil(frac * static_cast<double>(groups))), 1, groups);
  std::iota(order_.begin(), order_.end(), 0u);
  const auto less_useful = [this](std::uint32_t a, std::uint32_t b) {
    return utility_[a] < utility_[b] || (utility_[a] == utility_[b] && a < b);
  };
  std::nth_element(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(m - 1), order_.end(), less_useful);
  const double mean = std::accumulate(utility_.begin(), utility_.end(), 0.0) / static_cast<double>(groups);
  std::fill(regenerated_.begin(), regenerated_.end(), 0);
  const std::size_t gs = config_.group_size;
  for (std::size_t r = 0; r < m; ++r) {
    const std::size_t g = order_[r];
    regenerated_[g] = 1;
    utility_[g] = mean;
    for (std::size_t i = g * gs; i < std::min((g + 1) * gs, n_params_); ++i) params[i] = rng_.uniform(-0.01, 0.01);
  }
}

void NeuronRegeneration::reset() noexcept {
  std::fill(utility_.begin(), utility_.end(), 0.0);
  std::fill(regenerated_.begin(), regenerated_.end(), 0);
  updates_ = 0;
  rng_ = Xorshift64(config_.seed);
}

}  // namespace irithyll::nn
