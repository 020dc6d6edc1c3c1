#include "irithyll/bandit/thompson.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "bandit/policy_util.hpp"

namespace irithyll {

namespace {
Status set_model(ThompsonConfig& c, std::string_view v) {
  c.gaussian = v == "gaussian";
  return Status::ok();
}
std::string get_model(const ThompsonConfig& c) { return c.gaussian ? "gaussian" : "bernoulli"; }

constexpr ConfigField<ThompsonConfig> kThompsonFields[] = {
    {FieldInfo::choice("model", "bernoulli", "bernoulli|gaussian",
                       "reward model: Beta-Bernoulli (rewards in [0,1]) or Normal with known noise"),
     set_model, get_model},
    {FieldInfo::real("alpha", "1", "bernoulli: Beta prior successes").above(0.0), detail::set_real<ThompsonConfig, &ThompsonConfig::alpha>,
     detail::get_real<ThompsonConfig, &ThompsonConfig::alpha>},
    {FieldInfo::real("beta", "1", "bernoulli: Beta prior failures").above(0.0), detail::set_real<ThompsonConfig, &ThompsonConfig::beta>,
     detail::get_real<ThompsonConfig, &ThompsonConfig::beta>},
    {FieldInfo::real("prior-mean", "0", "gaussian: prior mean of each arm's mean"),
     detail::set_real<ThompsonConfig, &ThompsonConfig::prior_mean>, detail::get_real<ThompsonConfig, &ThompsonConfig::prior_mean>},
    {FieldInfo::real("prior-var", "1", "gaussian: prior variance of each arm's mean").above(0.0),
     detail::set_real<ThompsonConfig, &ThompsonConfig::prior_var>, detail::get_real<ThompsonConfig, &ThompsonConfig::prior_var>},
    {FieldInfo::real("noise-var", "1", "gaussian: reward noise variance").above(0.0),
     detail::set_real<ThompsonConfig, &ThompsonConfig::noise_var>, detail::get_real<ThompsonConfig, &ThompsonConfig::noise_var>},
    {FieldInfo::integer("seed", "42", "random generator seed"), detail::set_uint<ThompsonConfig, &ThompsonConfig::seed>,
     detail::get_uint<ThompsonConfig, &ThompsonConfig::seed>},
};
}  // namespace

std::span<const ConfigField<ThompsonConfig>> ThompsonConfig::fields() { return kThompsonFields; }

ThompsonSampling::ThompsonSampling(std::size_t n_arms, const ThompsonConfig& config)
    : BanditPolicy(n_arms), config_(config), success_(n_arms, 0.0), failure_(n_arms, 0.0), rng_(detail::mixed_seed(config.seed)) {}

Status ThompsonSampling::check_reward(double r) const {
  if (!config_.gaussian && (r < 0.0 || r > 1.0))
    return Status::invalid_argument("thompson (model=bernoulli): reward " + format_field_real(r) +
                                    " is outside [0, 1] (use model=gaussian for unbounded rewards)");
  return Status::ok();
}

std::size_t ThompsonSampling::select_checked(std::span<const double>) noexcept {
  std::size_t best = 0;
  double best_draw = -std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < n_arms_; ++a) {
    double draw;
    if (config_.gaussian) {
      const double precision = 1.0 / config_.prior_var + static_cast<double>(counts_[a]) / config_.noise_var;
      const double mean = (config_.prior_mean / config_.prior_var + success_[a] / config_.noise_var) / precision;
      draw = mean + rng_.normal() / std::sqrt(precision);
    } else {
      draw = detail::beta_sample(rng_, arm_alpha(a), arm_beta(a));
    }
    if (draw > best_draw) best = a, best_draw = draw;
  }
  return best;
}

void ThompsonSampling::update_checked(std::size_t a, double r, std::span<const double>) noexcept {
  success_[a] += r;
  if (!config_.gaussian) failure_[a] += 1.0 - r;
}

void ThompsonSampling::reset() noexcept {
  reset_common();
  std::fill(success_.begin(), success_.end(), 0.0);
  std::fill(failure_.begin(), failure_.end(), 0.0);
  rng_ = Xorshift64(detail::mixed_seed(config_.seed));
}

ModelSettings ThompsonSampling::settings() const { return settings_of(ThompsonConfig::fields(), config_); }

void ThompsonSampling::encode_state(ByteWriter& out) const {
  out.f64s(success_);
  out.f64s(failure_);
  out.u64(rng_.state());
}

Status ThompsonSampling::decode_state(ByteReader& in, const ModelSettings& settings) {
  auto config = detail::config_from(kName, ThompsonConfig::fields(), settings);
  if (!config) return config.status();
  std::vector<double> s = detail::read_finite(in, n_arms_, false, "success sums");
  std::vector<double> f = detail::read_finite(in, n_arms_, false, "failure sums");
  const std::uint64_t state = in.u64("rng state");
  if (!in.ok()) return in.status();
  if (!config->gaussian)
    for (std::size_t a = 0; a < n_arms_; ++a)
      if (s[a] < 0.0 || f[a] < 0.0) return Status::corruption("thompson checkpoint: negative Beta count");
  config_ = *config;
  success_ = std::move(s);
  failure_ = std::move(f);
  rng_.set_state(state);
  return Status::ok();
}

}  // namespace irithyll
