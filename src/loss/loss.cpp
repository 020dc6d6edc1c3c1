#include "irithyll/loss/loss.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

namespace irithyll {

double sigmoid(double f) noexcept {
  if (f >= 0.0) return 1.0 / (1.0 + std::exp(-f));
  const double e = std::exp(f);
  return e / (1.0 + e);
}

namespace {

constexpr double kHessFloor = 1e-16;

double weight_at(std::span<const double> w, std::size_t i) { return w.empty() ? 1.0 : w[i]; }

double weighted_mean(std::span<const double> y, std::span<const double> w) {
  double sw = 0.0, swy = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    sw += weight_at(w, i);
    swy += weight_at(w, i) * y[i];
  }
  return sw > 0.0 ? swy / sw : 0.0;
}

// Smallest sorted target whose cumulative weight exceeds tau * total. With unit
// weights this is the element at sorted index floor(tau * n).
double weighted_quantile(std::span<const double> y, std::span<const double> w, double tau) {
  if (y.empty()) return 0.0;
  std::vector<std::size_t> order(y.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return y[a] < y[b]; });
  double total = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) total += weight_at(w, i);
  double cum = 0.0;
  for (std::size_t i : order) {
    cum += weight_at(w, i);
    if (cum > tau * total) return y[i];
  }
  return y[order.back()];
}

double clamp_prob(double p) { return std::clamp(p, 1e-7, 1.0 - 1e-7); }

double identity(double f) { return f; }
bool any_param(double) { return true; }
bool positive_param(double p) { return std::isfinite(p) && p > 0.0; }
bool unit_open_param(double p) { return p > 0.0 && p < 1.0; }

// squared
void sq_gh(double y, double f, double, double& g, double& h) { g = f - y; h = 1.0; }
double sq_value(double y, double f, double) { return 0.5 * (f - y) * (f - y); }
double mean_init(std::span<const double> y, std::span<const double> w, double) { return weighted_mean(y, w); }

// logistic / per-committee softmax (the committee's offset is folded into f by the caller)
void logit_gh(double y, double f, double, double& g, double& h) {
  const double p = sigmoid(f);
  g = p - y;
  h = std::max(p * (1.0 - p), kHessFloor);
}
double logit_value(double y, double f, double) {
  const double p = std::clamp(sigmoid(f), 1e-15, 1.0 - 1e-15);
  return -(y * std::log(p) + (1.0 - y) * std::log(1.0 - p));
}
double logit_init(std::span<const double> y, std::span<const double> w, double) {
  const double p = clamp_prob(weighted_mean(y, w));
  return std::log(p / (1.0 - p));
}
// The Rust library starts every softmax committee at 0 (uniform probabilities);
// log(prior) makes the initial softmax equal the observed class frequencies.
double log_prior_init(std::span<const double> y, std::span<const double> w, double) {
  return std::log(clamp_prob(weighted_mean(y, w)));
}

// huber(delta)
void huber_gh(double y, double f, double d, double& g, double& h) {
  const double r = f - y;
  if (std::abs(r) <= d) {
    g = r;
    h = 1.0;
  } else {
    g = r > 0.0 ? d : -d;
    h = 1e-6;  // the true curvature outside delta is 0; keep Newton steps bounded
  }
}
double huber_value(double y, double f, double d) {
  const double a = std::abs(f - y);
  return a <= d ? 0.5 * a * a : d * (a - 0.5 * d);
}
double median_init(std::span<const double> y, std::span<const double> w, double) { return weighted_quantile(y, w, 0.5); }

// quantile / pinball(tau)
void quantile_gh(double y, double f, double t, double& g, double& h) { g = f >= y ? 1.0 - t : -t; h = 1.0; }
double quantile_value(double y, double f, double t) {
  const double r = y - f;
  return r >= 0.0 ? t * r : (t - 1.0) * r;
}
double quantile_init(std::span<const double> y, std::span<const double> w, double t) { return weighted_quantile(y, w, t); }

// expectile(tau): asymmetric squared loss w * r^2, r = f - y; w = tau when r >= 0.
void expectile_gh(double y, double f, double t, double& g, double& h) {
  const double r = f - y;
  const double w = r >= 0.0 ? t : 1.0 - t;
  g = 2.0 * w * r;
  h = 2.0 * w;
}
double expectile_value(double y, double f, double t) {
  const double r = f - y;
  return (r >= 0.0 ? t : 1.0 - t) * r * r;
}

constexpr std::array<LossTraits, 6> kTable = {{
    {LossKind::kSquared, "squared", false, 0.0, &any_param, &sq_gh, &sq_value, &identity, &mean_init, true},
    {LossKind::kLogistic, "logistic", false, 0.0, &any_param, &logit_gh, &logit_value, &sigmoid, &logit_init, false},
    {LossKind::kSoftmax, "softmax", false, 0.0, &any_param, &logit_gh, &logit_value, &sigmoid, &log_prior_init, false},
    {LossKind::kHuber, "huber", true, 1.0, &positive_param, &huber_gh, &huber_value, &identity, &median_init, false},
    {LossKind::kQuantile, "quantile", true, 0.5, &unit_open_param, &quantile_gh, &quantile_value, &identity,
     &quantile_init, false},
    {LossKind::kExpectile, "expectile", true, 0.5, &unit_open_param, &expectile_gh, &expectile_value, &identity,
     &mean_init, true},
}};

}  // namespace

std::span<const LossTraits> loss_table() { return kTable; }

const LossTraits& loss_traits(LossKind kind) {
  for (const auto& row : kTable)
    if (row.kind == kind) return row;
  return kTable[0];
}

Result<LossKind> parse_loss_kind(std::string_view name) {
  for (const auto& row : kTable)
    if (row.name == name) return row.kind;
  return Status::invalid_argument("unknown loss '" + std::string(name) +
                                  "' (squared|logistic|softmax|huber|quantile|expectile)");
}

Status Loss::validate() const {
  if (!traits_->param_valid(param_))
    return Status::invalid_argument("loss " + std::string(name()) + ": parameter " + std::to_string(param_) +
                                    " out of range");
  return Status::ok();
}

}  // namespace irithyll
