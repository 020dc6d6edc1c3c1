// ThompsonSampling: draw one mean per arm from its posterior and pull the
// arm with the largest draw (Thompson 1933; regret analysis by Agrawal &
// Goyal 2012/2013, "Further optimal regret bounds for Thompson sampling").
//
//   bernoulli: Beta(alpha + S_a, beta + F_a) with S_a = sum r, F_a = sum (1 - r);
//              rewards must lie in [0, 1] (fractional rewards update both
//              counts, the usual extension beyond {0, 1}). A reward outside
//              is refused, not clamped: a clamp would hide a scale error.
//   gaussian:  Normal prior N(prior-mean, prior-var) on each arm's mean and
//              known noise variance noise-var: the posterior is
//              N(m_a, 1 / p_a), p_a = 1/prior-var + N_a/noise-var,
//              m_a = (prior-mean/prior-var + sum r / noise-var) / p_a.
// Ties between draws go to the lowest arm (they have probability 0).
//
// Cost: O(n_arms) draws per select (a Beta draw is two gamma draws by
// Marsaglia & Tsang 2000, about 2-3 uniforms each), O(1) per update.
// Memory: 32 bytes per arm. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/bandit/bandit_policy.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll {

struct ThompsonConfig {
  bool gaussian = false;    // model: bernoulli (false) or gaussian (true)
  double alpha = 1.0;       // bernoulli: Beta prior successes, > 0 (1,1 = uniform)
  double beta = 1.0;        // bernoulli: Beta prior failures, > 0
  double prior_mean = 0.0;  // gaussian: prior mean of each arm's mean
  double prior_var = 1.0;   // gaussian: prior variance, > 0
  double noise_var = 1.0;   // gaussian: reward noise variance, > 0
  std::uint64_t seed = 42;  // random generator seed
  static std::span<const ConfigField<ThompsonConfig>> fields();
};

class ThompsonSampling final : public BanditPolicy {
 public:
  static constexpr std::string_view kName = "thompson";
  ThompsonSampling(std::size_t n_arms, const ThompsonConfig& config);

  std::string_view name() const noexcept override { return kName; }
  void reset() noexcept override;
  ModelSettings settings() const override;
  const ThompsonConfig& config() const noexcept { return config_; }
  // bernoulli: the posterior Beta parameters of arm a.
  double arm_alpha(std::size_t a) const noexcept { return config_.alpha + success_[a]; }
  double arm_beta(std::size_t a) const noexcept { return config_.beta + failure_[a]; }

 private:
  std::size_t select_checked(std::span<const double> context) noexcept override;
  void update_checked(std::size_t arm, double reward, std::span<const double>) noexcept override;
  Status check_reward(double reward) const override;
  void encode_state(ByteWriter& out) const override;
  Status decode_state(ByteReader& in, const ModelSettings& settings) override;

  ThompsonConfig config_;
  // bernoulli: S_a and F_a; gaussian: sum of rewards in success_ (failure_ unused).
  std::vector<double> success_, failure_;
  Xorshift64 rng_;
};

}  // namespace irithyll
