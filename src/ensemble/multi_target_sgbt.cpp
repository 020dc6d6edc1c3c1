#include "irithyll/ensemble/multi_target_sgbt.hpp"

#include <cmath>
#include <string>

#include "ensemble/sgbt_family.hpp"

namespace irithyll {

namespace {
constexpr std::uint32_t kMultiTargetSgbtStateVersion = 3;
}  // namespace

Status MultiTargetSGBT::validate(const Config& config, std::uint64_t n_targets) {
  if (n_targets == 0 || n_targets > kMaxTargets)
    return Status::invalid_argument("multi_target_sgbt: needs 1.." + std::to_string(kMaxTargets) + " targets, got " +
                                    std::to_string(n_targets));
  // The member's own check (the config and its regression loss).
  return SGBTLearner::check(config, LearnerContext{.seed = config.seed}).with_context(kName);
}

MultiTargetSGBT::MultiTargetSGBT() : MultiTargetSGBT(Config{}, LearnerContext{.seed = Config{}.seed}) {}

MultiTargetSGBT::MultiTargetSGBT(const Config& config, const LearnerContext& context) : config_(config) {
  config_.seed = context.seed;
  build(context.n_targets);
}

Result<std::unique_ptr<MultiTargetSGBT>> MultiTargetSGBT::make(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(ensemble_detail::require_regression(kName, context));
  Config c = config;
  c.seed = context.seed;
  IRITHYLL_RETURN_IF_ERROR(validate(c, context.n_targets));
  return std::make_unique<MultiTargetSGBT>(c, context);
}

void MultiTargetSGBT::build(std::size_t n) {
  members_.clear();
  members_.reserve(n);
  for (std::size_t k = 0; k < n; ++k) members_.emplace_back(config_, LearnerContext{.seed = config_.seed});
  samples_seen_ = 0;
}

void MultiTargetSGBT::learn_one(std::span<const double> x, double y, double weight) {
  learn_multi(x, std::span<const double>(&y, 1), weight);
}

double MultiTargetSGBT::predict_one(std::span<const double> x) const { return members_[0].predict_one(x); }

void MultiTargetSGBT::predict_multi(std::span<const double> x, std::span<double> out) const {
  for (std::size_t k = 0; k < members_.size() && k < out.size(); ++k) out[k] = members_[k].predict_one(x);
}

void MultiTargetSGBT::learn_multi(std::span<const double> x, std::span<const double> y, double weight) {
  bool taught = false;
  for (std::size_t k = 0; k < members_.size() && k < y.size(); ++k) {
    // A missing target is not offered to its member at all, so member k is
    // exactly the SGBT trained on the rows where target k is present.
    if (!std::isfinite(y[k])) continue;
    const std::uint64_t skipped = members_[k].n_skipped();
    members_[k].learn_one(x, y[k], weight);  // skips a bad weight or width itself
    taught = taught || members_[k].n_skipped() == skipped;
  }
  if (taught) ++samples_seen_;
}

void MultiTargetSGBT::reset() { build(members_.size()); }

std::size_t MultiTargetSGBT::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + (members_.capacity() - members_.size()) * sizeof(SGBTLearner);
  for (const auto& m : members_) bytes += m.memory_bytes();
  return bytes;
}

// Version 1 wrote the binary config (and every member its own); version 2
// the settings by name once, the target count in the context, and the
// members' states alone, whose trees still carried their binary configs;
// version 3 derives the trees' settings from the named ones.
void MultiTargetSGBT::encode(ByteWriter& out) const {
  out.u32(kMultiTargetSgbtStateVersion);
  ensemble_detail::encode_settings<MultiTargetSGBT>(
      config_, LearnerContext{.seed = config_.seed, .n_targets = members_.size()}, out);
  out.u64(samples_seen_);
  for (const auto& m : members_) m.encode_state(out);
}

Status MultiTargetSGBT::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("multi_target_sgbt state version");
  if (!in.ok()) return in.status();
  if (version < 1 || version > kMultiTargetSgbtStateVersion)
    return Status::not_supported("multi_target_sgbt state version " + std::to_string(version));
  if (version >= 2) {
    const TreeSettings trees = version == 2 ? TreeSettings::kInRecord : TreeSettings::kDerived;
    auto made = ensemble_detail::decode_settings<MultiTargetSGBT>(in);
    if (!made) return made.status();
    MultiTargetSGBT& next = **made;
    next.samples_seen_ = in.u64("samples seen");
    for (auto& m : next.members_) IRITHYLL_RETURN_IF_ERROR(m.decode_state(in, trees).with_context("multi_target_sgbt member"));
    if (!in.ok()) return in.status();
    *this = std::move(next);
    return Status::ok();
  }
  Config config;
  IRITHYLL_RETURN_IF_ERROR(config.decode(in));
  const std::uint64_t n = in.u64("target count");
  const std::uint64_t seen = in.u64("samples seen");
  if (!in.ok()) return in.status();
  if (n == 0 || n > kMaxTargets) return Status::corruption("multi_target_sgbt: target count " + std::to_string(n));
  IRITHYLL_RETURN_IF_ERROR(validate(config, n).with_context("multi_target_sgbt config"));
  IRITHYLL_RETURN_IF_ERROR(
      ensemble_detail::check_slots_fit<MultiTargetSGBT>(config, {.n_targets = static_cast<std::size_t>(n)}, in));
  MultiTargetSGBT next(config, {.seed = config.seed, .n_targets = static_cast<std::size_t>(n)});
  next.samples_seen_ = seen;
  for (auto& m : next.members_) {
    IRITHYLL_RETURN_IF_ERROR(m.decode(in).with_context("multi_target_sgbt member"));
    if (m.task() != Task::kRegression) return Status::corruption("multi_target_sgbt: member is not a regressor");
  }
  *this = std::move(next);
  return Status::ok();
}

}  // namespace irithyll
