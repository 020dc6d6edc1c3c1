#include "irithyll/bandit/discounted_thompson.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "bandit/policy_util.hpp"

namespace irithyll {

namespace {
constexpr ConfigField<DiscountedThompsonConfig> kDiscountedThompsonFields[] = {
    {FieldInfo::real("discount", "0.99", "gamma: memory of about 1/(1-gamma) pulls; 1 = plain Thompson")
         .in(0.0, 1.0, true, false),
     detail::set_real<DiscountedThompsonConfig, &DiscountedThompsonConfig::discount>, detail::get_real<DiscountedThompsonConfig, &DiscountedThompsonConfig::discount>},
    {FieldInfo::real("alpha", "1", "Beta prior successes").above(0.0), detail::set_real<DiscountedThompsonConfig, &DiscountedThompsonConfig::alpha>,
     detail::get_real<DiscountedThompsonConfig, &DiscountedThompsonConfig::alpha>},
    {FieldInfo::real("beta", "1", "Beta prior failures").above(0.0), detail::set_real<DiscountedThompsonConfig, &DiscountedThompsonConfig::beta>,
     detail::get_real<DiscountedThompsonConfig, &DiscountedThompsonConfig::beta>},
    {FieldInfo::integer("seed", "42", "random generator seed"), detail::set_uint<DiscountedThompsonConfig, &DiscountedThompsonConfig::seed>,
     detail::get_uint<DiscountedThompsonConfig, &DiscountedThompsonConfig::seed>},
};
}  // namespace

std::span<const ConfigField<DiscountedThompsonConfig>> DiscountedThompsonConfig::fields() { return kDiscountedThompsonFields; }

DiscountedThompson::DiscountedThompson(std::size_t n_arms, const DiscountedThompsonConfig& config)
    : BanditPolicy(n_arms), config_(config), success_(n_arms, 0.0), failure_(n_arms, 0.0), rng_(detail::mixed_seed(config.seed)) {}

Status DiscountedThompson::check_reward(double r) const {
  if (r < 0.0 || r > 1.0)
    return Status::invalid_argument("discounted-thompson: reward " + format_field_real(r) + " is outside [0, 1]");
  return Status::ok();
}

std::size_t DiscountedThompson::select_checked(std::span<const double>) noexcept {
  std::size_t best = 0;
  double best_draw = -std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < n_arms_; ++a) {
    const double draw = detail::beta_sample(rng_, arm_alpha(a), arm_beta(a));
    if (draw > best_draw) best = a, best_draw = draw;
  }
  return best;
}

void DiscountedThompson::update_checked(std::size_t a, double r, std::span<const double>) noexcept {
  for (std::size_t i = 0; i < n_arms_; ++i) {
    success_[i] *= config_.discount;
    failure_[i] *= config_.discount;
  }
  success_[a] += r;
  failure_[a] += 1.0 - r;
}

void DiscountedThompson::reset() noexcept {
  reset_common();
  std::fill(success_.begin(), success_.end(), 0.0);
  std::fill(failure_.begin(), failure_.end(), 0.0);
  rng_ = Xorshift64(detail::mixed_seed(config_.seed));
}

ModelSettings DiscountedThompson::settings() const { return settings_of(DiscountedThompsonConfig::fields(), config_); }

void DiscountedThompson::encode_state(ByteWriter& out) const {
  out.f64s(success_);
  out.f64s(failure_);
  out.u64(rng_.state());
}

Status DiscountedThompson::decode_state(ByteReader& in, const ModelSettings& settings) {
  auto config = detail::config_from(kName, DiscountedThompsonConfig::fields(), settings);
  if (!config) return config.status();
  std::vector<double> s = detail::read_finite(in, n_arms_, false, "success sums");
  std::vector<double> f = detail::read_finite(in, n_arms_, false, "failure sums");
  const std::uint64_t state = in.u64("rng state");
  if (!in.ok()) return in.status();
  for (std::size_t a = 0; a < n_arms_; ++a)
    if (s[a] < 0.0 || f[a] < 0.0) return Status::corruption("discounted-thompson checkpoint: negative Beta count");
  config_ = *config;
  success_ = std::move(s);
  failure_ = std::move(f);
  rng_.set_state(state);
  return Status::ok();
}

}  // namespace irithyll
