// The checks every policy shares, the common statistics, and the checkpoint
// frame. Layout (little-endian, bytes.hpp):
//   u32 magic "BNDT" | u32 version 1 | str name | u64 n_arms | u64 context_dim
//   | u64 n_settings | n x (str name, str value)
//   | u64 n_pulls | f64s values | u64s counts | policy state
#include "irithyll/bandit/bandit_policy.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace irithyll {
namespace {

constexpr std::uint32_t kMagic = 0x54444E42u;  // "BNDT"
constexpr std::uint32_t kVersion = 1;
// A checkpoint claiming more arms or a wider context is refused before any
// allocation (a hostile count must not exhaust memory).
constexpr std::uint64_t kMaxArms = 1u << 20;
constexpr std::uint64_t kMaxDim = 1u << 12;
constexpr std::uint64_t kMaxSettings = 64;

Status check_context(std::string_view who, std::span<const double> context, std::size_t dim) {
  if (context.size() != dim && !(dim == 0 && context.empty()))
    return Status::invalid_argument(std::string(who) + ": context has " + std::to_string(context.size()) +
                                    " values, expected " + std::to_string(dim));
  for (std::size_t j = 0; j < context.size(); ++j)
    if (!std::isfinite(context[j]))
      return Status::invalid_argument(std::string(who) + ": context value " + std::to_string(j) + " is not finite");
  return Status::ok();
}

}  // namespace

Result<std::size_t> BanditPolicy::select(std::span<const double> context) {
  const std::size_t dim = context_dim();
  // A context-free policy accepts (and ignores) any context, so one caller
  // can drive every policy with the same rows.
  if (dim > 0) IRITHYLL_RETURN_IF_ERROR(check_context(name(), context, dim));
  return select_checked(dim > 0 ? context : std::span<const double>{});
}

Status BanditPolicy::update(std::size_t arm, double reward, std::span<const double> context) {
  if (arm >= n_arms_)
    return Status::invalid_argument(std::string(name()) + ": arm " + std::to_string(arm) + " is out of range (" +
                                    std::to_string(n_arms_) + " arms)");
  if (!std::isfinite(reward)) return Status::invalid_argument(std::string(name()) + ": reward is not finite");
  IRITHYLL_RETURN_IF_ERROR(check_reward(reward));
  const std::size_t dim = context_dim();
  if (dim > 0) IRITHYLL_RETURN_IF_ERROR(check_context(name(), context, dim));
  ++n_pulls_;
  ++counts_[arm];
  values_[arm] += (reward - values_[arm]) / static_cast<double>(counts_[arm]);
  update_checked(arm, reward, dim > 0 ? context : std::span<const double>{});
  return Status::ok();
}

void BanditPolicy::reset_common() noexcept {
  std::fill(values_.begin(), values_.end(), 0.0);
  std::fill(counts_.begin(), counts_.end(), 0);
  n_pulls_ = 0;
}

std::size_t BanditPolicy::argmax(std::span<const double> scores) noexcept {
  std::size_t best = 0;
  for (std::size_t i = 1; i < scores.size(); ++i)
    if (scores[i] > scores[best]) best = i;
  return best;
}

void BanditPolicy::encode(ByteWriter& out) const {
  out.u32(kMagic);
  out.u32(kVersion);
  out.str(name());
  out.u64(n_arms_);
  out.u64(context_dim());
  const ModelSettings s = settings();
  out.u64(s.items().size());
  for (const auto& [k, v] : s.items()) {
    out.str(k);
    out.str(v);
  }
  out.u64(n_pulls_);
  out.f64s(values_);
  out.u64s(counts_);
  encode_state(out);
}

namespace {

struct Header {
  std::string name;
  std::uint64_t n_arms = 0, dim = 0;
  ModelSettings settings;
};

Result<Header> read_header(ByteReader& in) {
  Header h;
  const std::uint32_t magic = in.u32("bandit magic");
  const std::uint32_t version = in.u32("bandit version");
  if (!in.ok()) return in.status();
  if (magic != kMagic) return Status::corruption("bandit checkpoint: bad magic");
  if (version != kVersion)
    return Status::not_supported("bandit checkpoint: version " + std::to_string(version) + " (this build reads 1)");
  h.name = in.str("policy name");
  h.n_arms = in.u64("arm count");
  h.dim = in.u64("context width");
  const std::uint64_t n = in.u64("setting count");
  if (!in.ok()) return in.status();
  if (h.n_arms == 0 || h.n_arms > kMaxArms) return Status::corruption("bandit checkpoint: bad arm count");
  if (h.dim > kMaxDim) return Status::corruption("bandit checkpoint: bad context width");
  if (n > kMaxSettings) return Status::corruption("bandit checkpoint: bad setting count");
  for (std::uint64_t i = 0; i < n && in.ok(); ++i) {
    std::string k = in.str("setting name");
    std::string v = in.str("setting value");
    h.settings.set(std::move(k), std::move(v));
  }
  if (!in.ok()) return in.status();
  return h;
}

}  // namespace

Status BanditPolicy::decode(ByteReader& in) {
  auto header = read_header(in);
  if (!header) return header.status();
  if (header->name != name())
    return Status::invalid_argument("bandit checkpoint holds '" + header->name + "', not '" + std::string(name()) + "'");
  if (header->n_arms != n_arms_ || header->dim != context_dim())
    return Status::invalid_argument("bandit checkpoint: " + std::to_string(header->n_arms) + " arms of width " +
                                    std::to_string(header->dim) + ", this policy has " + std::to_string(n_arms_) +
                                    " of width " + std::to_string(context_dim()));
  const std::uint64_t pulls = in.u64("pull count");
  std::vector<double> values = in.f64s("arm values");
  std::vector<std::uint64_t> counts = in.u64s("arm counts");
  if (!in.ok()) return in.status();
  if (values.size() != n_arms_ || counts.size() != n_arms_)
    return Status::corruption("bandit checkpoint: arm arrays do not match the arm count");
  std::uint64_t total = 0;
  for (std::size_t a = 0; a < n_arms_; ++a) {
    if (!std::isfinite(values[a])) return Status::corruption("bandit checkpoint: arm value is not finite");
    if (counts[a] > pulls - total || total > pulls) return Status::corruption("bandit checkpoint: arm counts exceed pulls");
    total += counts[a];
  }
  if (total != pulls) return Status::corruption("bandit checkpoint: arm counts do not sum to the pull count");
  IRITHYLL_RETURN_IF_ERROR(decode_state(in, header->settings));
  n_pulls_ = pulls;
  values_ = std::move(values);
  counts_ = std::move(counts);
  return Status::ok();
}

Result<std::unique_ptr<BanditPolicy>> decode_bandit_policy(std::span<const std::uint8_t> bytes) {
  ByteReader peek(bytes);
  auto header = read_header(peek);
  if (!header) return header.status();
  auto policy = make_bandit_policy(header->name, header->n_arms, header->dim, header->settings);
  if (!policy) return policy.status().with_context("bandit checkpoint");
  ByteReader in(bytes);
  IRITHYLL_RETURN_IF_ERROR((*policy)->decode(in));
  if (!in.at_end()) return Status::corruption("bandit checkpoint: trailing bytes");
  return policy;
}

}  // namespace irithyll
