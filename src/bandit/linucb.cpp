#include "irithyll/bandit/linucb.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "bandit/policy_util.hpp"

namespace irithyll {

namespace {
constexpr ConfigField<LinUcbConfig> kLinucbFields[] = {
    {FieldInfo::real("alpha", "1", "width of the confidence bonus (0 = greedy ridge regression)").at_least(0.0),
     detail::set_real<LinUcbConfig, &LinUcbConfig::alpha>, detail::get_real<LinUcbConfig, &LinUcbConfig::alpha>},
    {FieldInfo::real("lambda", "1", "ridge penalty: A starts at lambda I").above(0.0), detail::set_real<LinUcbConfig, &LinUcbConfig::lambda>,
     detail::get_real<LinUcbConfig, &LinUcbConfig::lambda>},
    {FieldInfo::boolean("intercept", "on", "append a constant 1 to every context"), detail::set_bool<LinUcbConfig, &LinUcbConfig::intercept>,
     detail::get_bool<LinUcbConfig, &LinUcbConfig::intercept>},
};
}  // namespace

std::span<const ConfigField<LinUcbConfig>> LinUcbConfig::fields() { return kLinucbFields; }

LinUcb::LinUcb(std::size_t n_arms, std::size_t context_dim, const LinUcbConfig& config)
    : BanditPolicy(n_arms),
      config_(config),
      dim_(context_dim),
      width_(context_dim + (config.intercept ? 1 : 0)),
      a_inv_(n_arms * width_ * width_),
      b_(n_arms * width_),
      x_(width_),
      u_(width_) {
  init_state();
}

void LinUcb::init_state() noexcept {
  std::fill(a_inv_.begin(), a_inv_.end(), 0.0);
  std::fill(b_.begin(), b_.end(), 0.0);
  for (std::size_t a = 0; a < n_arms_; ++a)
    for (std::size_t i = 0; i < width_; ++i) a_inv_[a * width_ * width_ + i * width_ + i] = 1.0 / config_.lambda;
}

double LinUcb::load_and_project(std::size_t arm, std::span<const double> context) noexcept {
  std::copy(context.begin(), context.end(), x_.begin());
  if (config_.intercept) x_[dim_] = 1.0;
  const double* m = a_inv_.data() + arm * width_ * width_;
  double quad = 0.0;
  for (std::size_t i = 0; i < width_; ++i) {
    double s = 0.0;
    for (std::size_t j = 0; j < width_; ++j) s += m[i * width_ + j] * x_[j];
    u_[i] = s;
    quad += x_[i] * s;
  }
  return quad;
}

std::size_t LinUcb::select_checked(std::span<const double> context) noexcept {
  std::size_t best = 0;
  double best_score = -std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < n_arms_; ++a) {
    const double quad = load_and_project(a, context);
    const double* b = b_.data() + a * width_;
    double mean = 0.0;
    for (std::size_t i = 0; i < width_; ++i) mean += b[i] * u_[i];
    const double score = mean + config_.alpha * std::sqrt(std::max(quad, 0.0));
    if (score > best_score) best = a, best_score = score;
  }
  return best;
}

void LinUcb::update_checked(std::size_t a, double r, std::span<const double> context) noexcept {
  const double quad = load_and_project(a, context);
  const double inv_denom = 1.0 / (1.0 + quad);  // quad >= 0 for positive-definite A^-1
  double* m = a_inv_.data() + a * width_ * width_;
  for (std::size_t i = 0; i < width_; ++i)
    for (std::size_t j = 0; j < width_; ++j) m[i * width_ + j] -= u_[i] * u_[j] * inv_denom;
  double* b = b_.data() + a * width_;
  for (std::size_t i = 0; i < width_; ++i) b[i] += r * x_[i];
}

std::vector<double> LinUcb::arm_theta(std::size_t a) const {
  std::vector<double> theta(width_, 0.0);
  const double* m = a_inv_.data() + a * width_ * width_;
  const double* b = b_.data() + a * width_;
  for (std::size_t i = 0; i < width_; ++i)
    for (std::size_t j = 0; j < width_; ++j) theta[i] += m[i * width_ + j] * b[j];
  return theta;
}

void LinUcb::reset() noexcept {
  reset_common();
  init_state();
}

ModelSettings LinUcb::settings() const { return settings_of(LinUcbConfig::fields(), config_); }

void LinUcb::encode_state(ByteWriter& out) const {
  out.f64s(a_inv_);
  out.f64s(b_);
}

Status LinUcb::decode_state(ByteReader& in, const ModelSettings& settings) {
  auto config = detail::config_from(kName, LinUcbConfig::fields(), settings);
  if (!config) return config.status();
  const std::size_t width = dim_ + (config->intercept ? 1 : 0);
  std::vector<double> a_inv = detail::read_finite(in, n_arms_ * width * width, false, "LinUCB A inverse");
  std::vector<double> b = detail::read_finite(in, n_arms_ * width, false, "LinUCB b");
  if (!in.ok()) return in.status();
  // A^-1 of a ridge regression is symmetric with a positive diagonal.
  for (std::size_t a = 0; a < n_arms_; ++a) {
    const double* m = a_inv.data() + a * width * width;
    for (std::size_t i = 0; i < width; ++i) {
      if (!(m[i * width + i] > 0.0)) return Status::corruption("linucb checkpoint: A inverse diagonal is not positive");
      for (std::size_t j = 0; j < i; ++j)
        if (m[i * width + j] != m[j * width + i]) return Status::corruption("linucb checkpoint: A inverse is not symmetric");
    }
  }
  config_ = *config;
  width_ = width;
  a_inv_ = std::move(a_inv);
  b_ = std::move(b);
  x_.assign(width_, 0.0);
  u_.assign(width_, 0.0);
  return Status::ok();
}

}  // namespace irithyll
