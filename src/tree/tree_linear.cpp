// GradientTree linear leaves (leaf_model linear / adaptive): the leaf's
// output v + w.(x - m) and its online update. The design and its costs are in
// gradient_tree.hpp; the promotion rule is the Rust library's.
#include <algorithm>
#include <cmath>

#include "tree/gradient_tree.hpp"

namespace irithyll {

namespace {
// Curvature floor of the normalised step when lambda = 0 (a saturated
// logistic sample has h -> 0); 1e-3 is the hessian of a logistic at |margin| ~ 7.
constexpr double kMinCurvature = 1e-3;
// Samples an adaptive leaf compares before it may promote (the Rust library's).
constexpr std::uint64_t kMinPromotionSamples = 10;
}  // namespace

double GradientTree::linear_value(std::uint32_t leaf, std::span<const double> x) const noexcept {
  if (config_.leaf_model == TreeLeafModel::kMlp) return mlp_value(leaf, x);
  if (config_.leaf_model == TreeLeafModel::kAdaptive && promoted_[leaf] == 0) return value_[leaf];
  const std::size_t d = n_features_;
  const double* w = lin_w_.data() + static_cast<std::size_t>(leaf) * d;
  const double* m = lin_mean_.data() + static_cast<std::size_t>(leaf) * d;
  double dot = 0.0;
  for (std::size_t f = 0; f < d; ++f) {
    const double v = x[f];
    if (v == v) dot += w[f] * (v - m[f]);  // missing: x = m, no linear term
  }
  return value_[leaf] + dot;
}

void GradientTree::train_linear(std::uint32_t leaf, std::span<const double> x, double g, double h) noexcept {
  if (config_.leaf_model == TreeLeafModel::kMlp) {
    train_mlp(leaf, x, g, h);
    return;
  }
  const std::size_t d = n_features_;
  double* w = lin_w_.data() + static_cast<std::size_t>(leaf) * d;
  const double* m = lin_mean_.data() + static_cast<std::size_t>(leaf) * d;
  const double v = value_[leaf];
  double dot = 0.0, uu = 0.0;
  for (std::size_t f = 0; f < d; ++f) {
    const double xv = x[f];
    if (xv != xv) continue;
    const double u = xv - m[f];
    dot += w[f] * u;
    uu += u * u;
  }
  const double p = v + dot;  // the linear prediction before this sample
  if (config_.leaf_model == TreeLeafModel::kAdaptive && promoted_[leaf] == 0) {
    // Prequential comparison on the second-order loss g p + h p^2 / 2 of the
    // constant and the linear output, promoted by the Hoeffding test on the
    // mean advantage (range R = the largest |advantage| seen).
    const double adv = (g * v + 0.5 * h * v * v) - (g * p + 0.5 * h * p * p);
    const std::uint64_t n = ++adv_n_[leaf];
    adv_sum_[leaf] += adv;
    adv_max_[leaf] = std::max(adv_max_[leaf], std::abs(adv));
    const double mean = adv_sum_[leaf] / static_cast<double>(n), r = adv_max_[leaf];
    if (n >= kMinPromotionSamples && mean > 0.0 &&
        mean * mean > r * r * std::log(1.0 / config_.delta) / (2.0 * static_cast<double>(n)))
      promoted_[leaf] = 1;
  }
  const double power = lin_power_[leaf];
  if (config_.linear_decay < 1.0)
    for (std::size_t f = 0; f < d; ++f) w[f] *= config_.linear_decay;
  if (config_.linear_adagrad) {
    // AdaGrad on the surrogate g p + h p^2 / 2: its gradient in w_f is r u_f.
    double* acc = lin_g2_.data() + static_cast<std::size_t>(leaf) * d;
    const double r = g + h * p;
    for (std::size_t f = 0; f < d; ++f) {
      const double xv = x[f];
      if (xv != xv) continue;
      const double grad = r * (xv - m[f]);
      acc[f] += grad * grad;
      w[f] -= config_.linear_learning_rate * grad / (std::sqrt(acc[f]) + 1e-8);
    }
  } else if (uu + power > 0.0) {
    // Normalised LMS on the surrogate, with the leaf's L2 in the curvature
    // and the input power P (running mean of |u|^2) beside |u|^2: moves p a
    // fraction eta h/(h+lambda) |u|^2/(P+|u|^2) of the way to the sample's
    // Newton target -g/h. lambda bounds the step of a saturated logistic
    // sample (h -> 0, -g/h -> inf) to about eta |g| / lambda; P keeps a
    // sample near the leaf mean (|u| -> 0) from a step in w of size 1/|u|.
    const double step = config_.linear_learning_rate * (g + h * p) /
                        (std::max(std::abs(h) + config_.lambda, kMinCurvature) * (power + uu));
    for (std::size_t f = 0; f < d; ++f) {
      const double xv = x[f];
      if (xv == xv) w[f] -= step * (xv - m[f]);
    }
  }
  fold_into_centre(leaf, x, uu);
}

void GradientTree::fold_into_centre(std::uint32_t leaf, std::span<const double> x, double uu) noexcept {
  const std::size_t d = n_features_;
  double* m = lin_mean_.data() + static_cast<std::size_t>(leaf) * d;
  const double inv_n = 1.0 / static_cast<double>(count_[leaf]);
  lin_power_[leaf] += (uu - lin_power_[leaf]) * inv_n;
  for (std::size_t f = 0; f < d; ++f) {
    const double xv = x[f];
    if (xv == xv) m[f] += (xv - m[f]) * inv_n;
  }
}

void GradientTree::init_linear_node(std::uint32_t n, std::uint32_t from, bool warm) {
  const std::size_t d = n_features_;
  const auto src = static_cast<std::ptrdiff_t>(static_cast<std::size_t>(from) * d);
  const auto dst = static_cast<std::ptrdiff_t>(static_cast<std::size_t>(n) * d);
  const auto dd = static_cast<std::ptrdiff_t>(d);
  std::copy(lin_mean_.begin() + src, lin_mean_.begin() + src + dd, lin_mean_.begin() + dst);
  lin_power_[n] = lin_power_[from];
  if (warm) {
    std::copy(lin_w_.begin() + src, lin_w_.begin() + src + dd, lin_w_.begin() + dst);
  } else {
    std::fill(lin_w_.begin() + dst, lin_w_.begin() + dst + dd, 0.0);
  }
  if (config_.linear_adagrad) std::fill(lin_g2_.begin() + dst, lin_g2_.begin() + dst + dd, 0.0);
  if (config_.leaf_model == TreeLeafModel::kMlp) {
    const std::size_t b = mlp_block();
    std::copy_n(mlp_.begin() + static_cast<std::ptrdiff_t>(from * b), b, mlp_.begin() + static_cast<std::ptrdiff_t>(n * b));
  }
  if (config_.leaf_model == TreeLeafModel::kAdaptive) {
    promoted_[n] = 0;
    adv_n_[n] = 0;
    adv_sum_[n] = 0.0;
    adv_max_[n] = 0.0;
  }
}

}  // namespace irithyll
