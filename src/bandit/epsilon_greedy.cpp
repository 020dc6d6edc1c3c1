#include "irithyll/bandit/epsilon_greedy.hpp"

#include <cmath>

#include "bandit/policy_util.hpp"

namespace irithyll {

namespace {
constexpr ConfigField<EpsilonGreedyConfig> kEpsilonGreedyFields[] = {
    {FieldInfo::real("epsilon", "0.1", "exploration probability at the start").in(0.0, 1.0), detail::set_real<EpsilonGreedyConfig, &EpsilonGreedyConfig::epsilon>,
     detail::get_real<EpsilonGreedyConfig, &EpsilonGreedyConfig::epsilon>},
    {FieldInfo::real("decay", "0", "epsilon_t = epsilon * exp(-decay * t); 0 keeps it fixed").at_least(0.0),
     detail::set_real<EpsilonGreedyConfig, &EpsilonGreedyConfig::decay>, detail::get_real<EpsilonGreedyConfig, &EpsilonGreedyConfig::decay>},
    {FieldInfo::integer("seed", "42", "random generator seed"), detail::set_uint<EpsilonGreedyConfig, &EpsilonGreedyConfig::seed>,
     detail::get_uint<EpsilonGreedyConfig, &EpsilonGreedyConfig::seed>},
};
}  // namespace

std::span<const ConfigField<EpsilonGreedyConfig>> EpsilonGreedyConfig::fields() { return kEpsilonGreedyFields; }

EpsilonGreedy::EpsilonGreedy(std::size_t n_arms, const EpsilonGreedyConfig& config)
    : BanditPolicy(n_arms), config_(config), rng_(detail::mixed_seed(config.seed)) {}

double EpsilonGreedy::current_epsilon() const noexcept {
  return config_.decay == 0.0 ? config_.epsilon
                              : config_.epsilon * std::exp(-config_.decay * static_cast<double>(n_pulls_));
}

std::size_t EpsilonGreedy::select_checked(std::span<const double>) noexcept {
  if (rng_.uniform() < current_epsilon()) return static_cast<std::size_t>(rng_.below(n_arms_));
  return argmax(values_);
}

void EpsilonGreedy::reset() noexcept {
  reset_common();
  rng_ = Xorshift64(detail::mixed_seed(config_.seed));
}

ModelSettings EpsilonGreedy::settings() const { return settings_of(EpsilonGreedyConfig::fields(), config_); }

void EpsilonGreedy::encode_state(ByteWriter& out) const { out.u64(rng_.state()); }

Status EpsilonGreedy::decode_state(ByteReader& in, const ModelSettings& settings) {
  auto config = detail::config_from(kName, EpsilonGreedyConfig::fields(), settings);
  if (!config) return config.status();
  const std::uint64_t state = in.u64("rng state");
  if (!in.ok()) return in.status();
  config_ = *config;
  rng_.set_state(state);
  return Status::ok();
}

}  // namespace irithyll
