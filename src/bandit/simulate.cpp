#include "irithyll/bandit/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace irithyll {

double SimulatedArms::best_mean() const { return *std::max_element(means.begin(), means.end()); }

double SimulatedArms::draw(std::size_t arm, Xorshift64& rng) const {
  if (gaussian) return rng.normal(means[arm], 1.0);
  return rng.uniform() < means[arm] ? 1.0 : 0.0;
}

Result<SimulatedArms> parse_simulated_arms(std::string_view spec) {
  const std::size_t colon = spec.find(':');
  if (colon == std::string_view::npos)
    return Status::invalid_argument("--simulate '" + std::string(spec) +
                                    "': expected bernoulli:M1,M2,... or gaussian:M1,M2,...");
  SimulatedArms arms;
  const std::string_view kind = spec.substr(0, colon);
  if (kind == "gaussian") {
    arms.gaussian = true;
  } else if (kind != "bernoulli") {
    return Status::invalid_argument("--simulate: unknown arm kind '" + std::string(kind) +
                                    "' (bernoulli or gaussian)");
  }
  for (std::string_view item : split_list_items(spec.substr(colon + 1), ',')) {
    auto v = parse_field_real("--simulate", item);
    if (!v) return v.status();
    if (!arms.gaussian && (*v < 0.0 || *v > 1.0))
      return Status::invalid_argument("--simulate: Bernoulli mean " + std::string(item) + " is outside [0, 1]");
    arms.means.push_back(*v);
  }
  if (arms.means.empty()) return Status::invalid_argument("--simulate: no arm means given");
  if (arms.means.size() > (1u << 20)) return Status::invalid_argument("--simulate: too many arms");
  return arms;
}

Result<SimulationResult> simulate_bandit(BanditPolicy& policy, const SimulatedArms& arms, std::uint64_t steps,
                                         std::uint64_t seed, std::uint64_t record_every) {
  if (policy.n_arms() != arms.means.size())
    return Status::invalid_argument("the policy has " + std::to_string(policy.n_arms()) + " arms, the simulation " +
                                    std::to_string(arms.means.size()));
  if (policy.context_dim() != 0)
    return Status::invalid_argument(std::string(policy.name()) + " needs a context; simulated arms have none");
  Xorshift64 rng(derive_seed(seed, 1));  // mixed: small seeds start with small outputs
  SimulationResult out;
  out.pulls.assign(arms.means.size(), 0);
  const double best = arms.best_mean();
  for (std::uint64_t t = 1; t <= steps; ++t) {
    auto arm = policy.select();
    if (!arm) return arm.status();
    const double r = arms.draw(*arm, rng);
    IRITHYLL_RETURN_IF_ERROR(policy.update(*arm, r).with_context("step " + std::to_string(t)));
    out.cumulative_reward += r;
    out.cumulative_regret += best - arms.means[*arm];
    ++out.pulls[*arm];
    if (record_every > 0 && (t % record_every == 0 || t == steps)) {
      out.curve_steps.push_back(t);
      out.curve_regret.push_back(out.cumulative_regret);
    }
  }
  return out;
}

}  // namespace irithyll
