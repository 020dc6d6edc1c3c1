// BanditPolicy: the one interface of every multi-armed and contextual bandit
// policy (epsilon-greedy, UCB1/UCB-Tuned, Thompson sampling, discounted
// Thompson sampling, disjoint LinUCB), and the registry that builds one by name.
//
// A policy picks an arm with select() and learns the reward of the arm it (or
// a logger) pulled with update(). Context-free policies take no context;
// contextual ones (context_dim() > 0) need a context of exactly that width in
// both calls. Errors are values: an arm out of range, a context of the wrong
// width, or a non-finite reward is refused and leaves the state untouched.
//
// Determinism: every random draw comes from one Xorshift64 owned by the
// policy and seeded from its config; reset() rewinds it, so a reset policy
// makes the same choices as a fresh one. encode() writes the complete state
// (config, statistics, generator), and decode() into a policy made by
// make_bandit_policy with the same name continues bit-identically.
//
// Cost per call: O(n_arms) for the context-free policies, O(n_arms d^2) for
// LinUCB. No allocation in select()/update(). Thread safety: one owner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

class BanditPolicy {
 public:
  virtual ~BanditPolicy() = default;

  virtual std::string_view name() const noexcept = 0;
  std::size_t n_arms() const noexcept { return n_arms_; }
  // 0 for a context-free policy.
  virtual std::size_t context_dim() const noexcept { return 0; }

  // The arm to pull next. A context-free policy ignores any context given,
  // so one caller can drive every policy with the same rows.
  Result<std::size_t> select(std::span<const double> context = {});
  // Learns `reward` for `arm` (pulled in `context` for a contextual policy).
  Status update(std::size_t arm, double reward, std::span<const double> context = {});

  // Forgets everything learnt and rewinds the random generator to the seed.
  virtual void reset() noexcept = 0;

  // Running mean reward of each arm (a contextual policy: of its pulls).
  std::span<const double> arm_values() const noexcept { return values_; }
  std::span<const std::uint64_t> arm_counts() const noexcept { return counts_; }
  std::uint64_t n_pulls() const noexcept { return n_pulls_; }

  // Complete state. decode() checks the name, the arm count and the config
  // rows and refuses anything malformed, leaving the policy unchanged.
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

  // The settings this policy was built with, as its field table prints them.
  virtual ModelSettings settings() const = 0;

 protected:
  explicit BanditPolicy(std::size_t n_arms) : n_arms_(n_arms), values_(n_arms, 0.0), counts_(n_arms, 0) {}

  // REQUIRES (checked by the public wrappers): arm < n_arms, reward finite,
  // context.size() == context_dim().
  virtual std::size_t select_checked(std::span<const double> context) noexcept = 0;
  // Called after the common statistics (values, counts, pulls) are updated.
  virtual void update_checked(std::size_t arm, double reward, std::span<const double> context) noexcept = 0;
  // Policy-specific reward rule (e.g. Beta-Bernoulli needs [0, 1]).
  virtual Status check_reward(double /*reward*/) const { return Status::ok(); }

  // Policy-specific state after the common part. decode_state builds its
  // config from `settings` (the rows encode() wrote), reads its state into
  // locals and commits both only when everything parsed.
  virtual void encode_state(ByteWriter& out) const = 0;
  virtual Status decode_state(ByteReader& in, const ModelSettings& settings) = 0;

  void reset_common() noexcept;
  // First index of the maximum (ties to the lowest arm).
  static std::size_t argmax(std::span<const double> scores) noexcept;

  std::size_t n_arms_;
  std::vector<double> values_;
  std::vector<std::uint64_t> counts_;
  std::uint64_t n_pulls_ = 0;
};

// Registry: one row per policy name.
struct BanditPolicyInfo {
  std::string_view name;
  std::string_view summary;
  bool contextual;
  std::vector<FieldInfo> fields;
};
// Every registered policy, in a fixed order.
std::span<const BanditPolicyInfo> bandit_policies();

// Builds the policy `name` ("epsilon-greedy", "ucb", "thompson",
// "discounted-thompson", "linucb") over n_arms >= 1 arms (a contextual policy
// also needs context_dim >= 1) with `settings` applied to its field table.
Result<std::unique_ptr<BanditPolicy>> make_bandit_policy(std::string_view name, std::size_t n_arms,
                                                         std::size_t context_dim = 0,
                                                         const ModelSettings& settings = {});

// A policy read from the bytes encode() wrote (name, arms and width included);
// trailing bytes are refused.
Result<std::unique_ptr<BanditPolicy>> decode_bandit_policy(std::span<const std::uint8_t> bytes);

}  // namespace irithyll
