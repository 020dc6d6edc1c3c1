// GradientTree MLP leaves (leaf_model mlp): the leaf's output
// v + sum_k a_k relu(W_k . s(x - m) + b_k) and its online update. The design
// is in gradient_tree.hpp.
#include <algorithm>
#include <cmath>

#include "tree/gradient_tree.hpp"

namespace irithyll {

namespace {
// Curvature floor of the Newton-scaled step when lambda = 0 (as linear leaves).
constexpr double kMlpMinCurvature = 1e-3;
// Bound of the initial weights, drawn U[-kInit, kInit].
constexpr double kMlpInit = 0.1;
// Scaled inputs are clipped to +-kMlpInputClip (unit mean square before the
// clip): a heavy-tailed feature's rare far value cannot drive a ReLU unit,
// and with it the leaf's output, far past anything the leaf was trained on.
constexpr double kMlpInputClip = 5.0;

double scaled_input(double v, double mean, double s) noexcept {
  return std::clamp((v - mean) * s, -kMlpInputClip, kMlpInputClip);
}

// Per-feature scale that gives the centred inputs unit mean square: P is the
// running mean of |u|^2 over all d features.
double mlp_input_scale(double power, std::size_t d) noexcept {
  return power > 0.0 ? std::sqrt(static_cast<double>(d) / power) : 1.0;
}
}  // namespace

double GradientTree::mlp_value(std::uint32_t leaf, std::span<const double> x) const noexcept {
  const std::size_t d = n_features_, hidden = config_.mlp_hidden;
  const double* w = mlp_.data() + static_cast<std::size_t>(leaf) * mlp_block();
  const double* b = w + hidden * d;
  const double* a = b + hidden;
  const double* m = lin_mean_.data() + static_cast<std::size_t>(leaf) * d;
  const double s = mlp_input_scale(lin_power_[leaf], d);
  double out = value_[leaf];
  for (std::size_t k = 0; k < hidden; ++k) {
    double pre = b[k];
    const double* wk = w + k * d;
    for (std::size_t f = 0; f < d; ++f) {
      const double v = x[f];
      if (v == v) pre += wk[f] * scaled_input(v, m[f], s);  // missing: x = m
    }
    if (pre > 0.0) out += a[k] * pre;
  }
  // A network pushed past the double range answers with its leaf's weight.
  return std::isfinite(out) ? out : value_[leaf];
}

void GradientTree::train_mlp(std::uint32_t leaf, std::span<const double> x, double g, double h) noexcept {
  const std::size_t d = n_features_, hidden = config_.mlp_hidden;
  double* w = mlp_.data() + static_cast<std::size_t>(leaf) * mlp_block();
  double* b = w + hidden * d;
  double* a = b + hidden;
  const double* m = lin_mean_.data() + static_cast<std::size_t>(leaf) * d;
  const double s = mlp_input_scale(lin_power_[leaf], d);
  if (config_.linear_decay < 1.0)
    for (std::size_t i = 0; i < mlp_block(); ++i) w[i] *= config_.linear_decay;
  // Forward pass, keeping the pre-activations (at most 64 units).
  double pre[64];
  double p = value_[leaf];
  for (std::size_t k = 0; k < hidden; ++k) {
    pre[k] = b[k];
    const double* wk = w + k * d;
    for (std::size_t f = 0; f < d; ++f) {
      const double v = x[f];
      if (v == v) pre[k] += wk[f] * scaled_input(v, m[f], s);
    }
    if (pre[k] > 0.0) p += a[k] * pre[k];
  }
  // Newton-scaled SGD on the surrogate g p + h p^2 / 2 (gradient r in p),
  // normalised by 1 + |dp/dtheta|^2 as linear leaves' LMS is: p moves at
  // most a fraction eta of the way to the sample's Newton target, however
  // many units and features there are (a plain step diverged at eta 0.1).
  double uu = 0.0, uu_scaled = 0.0;  // |u|^2 for the centre's power, and of the network's inputs
  for (std::size_t f = 0; f < d; ++f) {
    const double v = x[f];
    if (v == v) {
      uu += (v - m[f]) * (v - m[f]);
      const double u = scaled_input(v, m[f], s);
      uu_scaled += u * u;
    }
  }
  double grad_norm = 0.0;
  for (std::size_t k = 0; k < hidden; ++k)
    if (pre[k] > 0.0) grad_norm += pre[k] * pre[k] + a[k] * a[k] * (1.0 + uu_scaled);
  const double step = config_.linear_learning_rate * (g + h * p) /
                      (std::max(std::abs(h) + config_.lambda, kMlpMinCurvature) * (1.0 + grad_norm));
  if (!std::isfinite(step) || !std::isfinite(p)) return;  // no finite step from this sample
  for (std::size_t k = 0; k < hidden; ++k) {
    if (!(pre[k] > 0.0)) continue;  // a dead unit passes no gradient
    const double back = step * a[k];
    a[k] -= step * pre[k];
    b[k] -= back;
    double* wk = w + k * d;
    for (std::size_t f = 0; f < d; ++f) {
      const double v = x[f];
      if (v == v) wk[f] -= back * scaled_input(v, m[f], s);
    }
  }
  for (std::size_t i = 0; i < mlp_block(); ++i)
    if (!std::isfinite(w[i])) w[i] = 0.0;  // a diverging step restarts that weight
  fold_into_centre(leaf, x, uu);
}

void GradientTree::init_mlp_root() {
  // The root's network, drawn from the tree's seed so that a tree (and a
  // reset one) always starts the same; children copy their parent's.
  Xorshift64 draw(config_.seed ^ 0x6d6c70ULL);
  const std::size_t b = mlp_block();
  for (std::size_t i = 0; i < b && i < mlp_.size(); ++i) mlp_[i] = draw.uniform(-kMlpInit, kMlpInit);
}

}  // namespace irithyll
