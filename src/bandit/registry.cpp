// The bandit policy registry: one row per policy (name, summary, whether it
// needs a context, its field table, a factory).
#include <string>

#include "bandit/policy_util.hpp"
#include "irithyll/bandit/bandit_policy.hpp"
#include "irithyll/bandit/discounted_thompson.hpp"
#include "irithyll/bandit/epsilon_greedy.hpp"
#include "irithyll/bandit/linucb.hpp"
#include "irithyll/bandit/thompson.hpp"
#include "irithyll/bandit/ucb.hpp"

namespace irithyll {
namespace {

template <class Policy, class Config>
Result<std::unique_ptr<BanditPolicy>> build(std::size_t n_arms, std::size_t dim, const ModelSettings& settings) {
  auto config = detail::config_from(Policy::kName, Config::fields(), settings);
  if (!config) return config.status();
  if constexpr (std::is_same_v<Policy, LinUcb>) {
    return std::unique_ptr<BanditPolicy>(new LinUcb(n_arms, dim, *config));
  } else {
    (void)dim;
    return std::unique_ptr<BanditPolicy>(new Policy(n_arms, *config));
  }
}

struct Row {
  BanditPolicyInfo info;
  Result<std::unique_ptr<BanditPolicy>> (*make)(std::size_t, std::size_t, const ModelSettings&);
};

const std::vector<Row>& rows() {
  static const std::vector<Row> table = {
      {{EpsilonGreedy::kName, "explore at random with probability epsilon, else the best mean", false,
        field_infos(EpsilonGreedyConfig::fields())},
       build<EpsilonGreedy, EpsilonGreedyConfig>},
      {{Ucb::kName, "UCB1 / UCB-Tuned upper confidence bounds (deterministic)", false, field_infos(UcbConfig::fields())},
       build<Ucb, UcbConfig>},
      {{ThompsonSampling::kName, "Thompson sampling, Beta-Bernoulli or Gaussian", false,
        field_infos(ThompsonConfig::fields())},
       build<ThompsonSampling, ThompsonConfig>},
      {{DiscountedThompson::kName, "discounted Beta-Bernoulli Thompson sampling for drifting rewards", false,
        field_infos(DiscountedThompsonConfig::fields())},
       build<DiscountedThompson, DiscountedThompsonConfig>},
      {{LinUcb::kName, "disjoint LinUCB: one ridge regression per arm on the context", true,
        field_infos(LinUcbConfig::fields())},
       build<LinUcb, LinUcbConfig>},
  };
  return table;
}

}  // namespace

std::span<const BanditPolicyInfo> bandit_policies() {
  static const std::vector<BanditPolicyInfo> infos = [] {
    std::vector<BanditPolicyInfo> out;
    for (const Row& r : rows()) out.push_back(r.info);
    return out;
  }();
  return infos;
}

Result<std::unique_ptr<BanditPolicy>> make_bandit_policy(std::string_view name, std::size_t n_arms,
                                                         std::size_t context_dim, const ModelSettings& settings) {
  for (const Row& r : rows()) {
    if (r.info.name != name) continue;
    if (n_arms == 0) return Status::invalid_argument(std::string(name) + ": needs at least one arm");
    if (n_arms > (1u << 20)) return Status::invalid_argument(std::string(name) + ": too many arms (at most 2^20)");
    if (r.info.contextual && (context_dim == 0 || context_dim > (1u << 12)))
      return Status::invalid_argument(std::string(name) + ": needs a context width in [1, 4096]");
    if (!r.info.contextual && context_dim != 0)
      return Status::invalid_argument(std::string(name) + " takes no context (context width must be 0)");
    return r.make(n_arms, context_dim, settings);
  }
  std::string names;
  for (const Row& r : rows()) names += (names.empty() ? "" : ", ") + std::string(r.info.name);
  return Status::invalid_argument("unknown bandit policy '" + std::string(name) + "' (policies: " + names + ")");
}

}  // namespace irithyll
