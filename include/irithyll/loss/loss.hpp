// Loss: the differentiable objectives a gradient-boosted committee descends.
// A loss maps (target y, raw score f) to the gradient g = dL/df and hessian
// h = d2L/df2 that the trees consume (Friedman 2001; Chen & Guestrin 2016 for
// the second-order form), plus the loss value, the inverse link applied to a
// raw score at prediction time, and the constant score a committee starts from.
//
//   kind        g(y, f)                 h(y, f)                 init            transform
//   squared     f - y                   1                       mean            identity
//   logistic    p - y, p = sigma(f)     max(p(1-p), 1e-16)      logit(mean)     sigma
//   softmax     p - y (per committee)   max(p(1-p), 1e-16)      log(prior)      sigma
//   huber(d)    r or d*sign(r)          1 inside, 1e-6 outside  median          identity
//   quantile(t) 1-t if f >= y else -t   1 (pseudo-hessian)      t-quantile      identity
//   expectile(t) 2 w r, w = t or 1-t    2 w                     mean            identity
//
// The kinds live in ONE table (loss_table()); `Loss` is a small value that
// caches the table row's function pointers, so a boosting step pays one
// indirect call and no switch. All functions are O(1) and allocation-free
// except initial_prediction (O(n log n) for the order statistics, run once).
// Thread safety: Loss is an immutable value; share freely.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "irithyll/core/status.hpp"

namespace irithyll {

enum class LossKind : std::uint8_t {
  kSquared = 0,
  kLogistic = 1,
  kSoftmax = 2,
  kHuber = 3,
  kQuantile = 4,
  kExpectile = 5,
};

// One row per loss kind. `param` is Huber's delta or the quantile/expectile
// tau; kinds without a parameter ignore it.
struct LossTraits {
  LossKind kind;
  std::string_view name;        // "squared", "logistic", ...
  bool has_param;
  double default_param;
  bool (*param_valid)(double param);
  // Writes g and h for one (y, f). noexcept, no allocation.
  void (*grad_hess)(double y, double f, double param, double& g, double& h);
  double (*value)(double y, double f, double param);
  double (*transform)(double f);
  // Constant score minimising the loss on weighted targets (w empty = all 1).
  // Called once per warm-up, so it may allocate (order statistics sort).
  double (*initial)(std::span<const double> y, std::span<const double> w, double param);
  // g is a residual in the target's units (squared, expectile), so its size
  // carries the target's scale; the others are bounded by construction
  // (logistic, softmax, quantile) or by the user's delta (Huber). A drift
  // detector watching |g| divides it by the target's spread for the former
  // (ensemble/sgbt.hpp), else its thresholds would mean something different
  // on every target.
  bool gradient_scales_with_target;
};

std::span<const LossTraits> loss_table();
const LossTraits& loss_traits(LossKind kind);
Result<LossKind> parse_loss_kind(std::string_view name);

// Numerically stable logistic sigmoid.
double sigmoid(double f) noexcept;

class Loss {
 public:
  Loss() : Loss(LossKind::kSquared) {}
  explicit Loss(LossKind kind) : Loss(kind, loss_traits(kind).default_param) {}
  Loss(LossKind kind, double param) : traits_(&loss_traits(kind)), param_(param) {}

  LossKind kind() const { return traits_->kind; }
  std::string_view name() const { return traits_->name; }
  double param() const { return param_; }
  Status validate() const;

  void grad_hess(double y, double f, double& g, double& h) const noexcept { traits_->grad_hess(y, f, param_, g, h); }
  double gradient(double y, double f) const noexcept { double g, h; grad_hess(y, f, g, h); return g; }
  double hessian(double y, double f) const noexcept { double g, h; grad_hess(y, f, g, h); return h; }
  double value(double y, double f) const noexcept { return traits_->value(y, f, param_); }
  double transform(double f) const noexcept { return traits_->transform(f); }
  bool gradient_scales_with_target() const noexcept { return traits_->gradient_scales_with_target; }
  double initial_prediction(std::span<const double> y, std::span<const double> w = {}) const {
    return traits_->initial(y, w, param_);
  }

 private:
  const LossTraits* traits_;
  double param_;
};

}  // namespace irithyll
