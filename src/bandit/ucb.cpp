#include "irithyll/bandit/ucb.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "bandit/policy_util.hpp"

namespace irithyll {

namespace {
Status set_variant(UcbConfig& c, std::string_view v) {
  c.tuned = v == "tuned";
  return Status::ok();
}
std::string get_variant(const UcbConfig& c) { return c.tuned ? "tuned" : "ucb1"; }

constexpr ConfigField<UcbConfig> kUcbFields[] = {
    {FieldInfo::choice("variant", "ucb1", "ucb1|tuned", "UCB1 or UCB-Tuned (variance-aware bonus)"), set_variant,
     get_variant},
    {FieldInfo::real("c", "1", "bonus scale (the reward's sub-Gaussian scale)").above(0.0), detail::set_real<UcbConfig, &UcbConfig::c>,
     detail::get_real<UcbConfig, &UcbConfig::c>},
};
}  // namespace

std::span<const ConfigField<UcbConfig>> UcbConfig::fields() { return kUcbFields; }

Ucb::Ucb(std::size_t n_arms, const UcbConfig& config) : BanditPolicy(n_arms), config_(config), mean_sq_(n_arms, 0.0) {}

double Ucb::arm_index(std::size_t a) const noexcept {
  if (counts_[a] == 0) return std::numeric_limits<double>::infinity();
  const double log_t = std::log(static_cast<double>(n_pulls_));
  const double n = static_cast<double>(counts_[a]);
  if (!config_.tuned) return values_[a] + config_.c * std::sqrt(2.0 * log_t / n);
  const double v = mean_sq_[a] - values_[a] * values_[a] + std::sqrt(2.0 * log_t / n);
  return values_[a] + config_.c * std::sqrt(log_t / n * std::min(0.25, std::max(v, 0.0)));
}

std::size_t Ucb::select_checked(std::span<const double>) noexcept {
  std::size_t best = 0;
  double best_index = arm_index(0);
  for (std::size_t a = 1; a < n_arms_; ++a) {
    const double idx = arm_index(a);
    if (idx > best_index) best = a, best_index = idx;
  }
  return best;
}

void Ucb::update_checked(std::size_t a, double r, std::span<const double>) noexcept {
  mean_sq_[a] += (r * r - mean_sq_[a]) / static_cast<double>(counts_[a]);
}

void Ucb::reset() noexcept {
  reset_common();
  std::fill(mean_sq_.begin(), mean_sq_.end(), 0.0);
}

ModelSettings Ucb::settings() const { return settings_of(UcbConfig::fields(), config_); }

void Ucb::encode_state(ByteWriter& out) const { out.f64s(mean_sq_); }

Status Ucb::decode_state(ByteReader& in, const ModelSettings& settings) {
  auto config = detail::config_from(kName, UcbConfig::fields(), settings);
  if (!config) return config.status();
  std::vector<double> sq = detail::read_finite(in, n_arms_, false, "mean squared rewards");
  if (!in.ok()) return in.status();
  config_ = *config;
  mean_sq_ = std::move(sq);
  return Status::ok();
}

}  // namespace irithyll
