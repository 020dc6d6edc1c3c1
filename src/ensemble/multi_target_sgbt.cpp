#include "irithyll/ensemble/multi_target_sgbt.hpp"

#include <cmath>
#include <string>

namespace irithyll {

namespace {
constexpr std::uint32_t kStateVersion = 1;
}  // namespace

Status MultiTargetSGBTConfig::validate() const {
  if (n_targets == 0 || n_targets > MultiTargetSGBT::kMaxTargets)
    return Status::invalid_argument("multi_target_sgbt: needs 1.." + std::to_string(MultiTargetSGBT::kMaxTargets) +
                                    " targets, got " + std::to_string(n_targets));
  IRITHYLL_RETURN_IF_ERROR(base.validate().with_context("multi_target_sgbt"));
  // The member's own check refuses classification losses for regression.
  auto probe = SGBTLearner::make(base, Task::kRegression, 0);
  return probe ? Status::ok() : probe.status().with_context("multi_target_sgbt");
}

MultiTargetSGBT::MultiTargetSGBT() : MultiTargetSGBT(MultiTargetSGBTConfig{}) {}

MultiTargetSGBT::MultiTargetSGBT(const MultiTargetSGBTConfig& config) : config_(config) { build(); }

Result<std::unique_ptr<MultiTargetSGBT>> MultiTargetSGBT::make(const MultiTargetSGBTConfig& config) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  return std::make_unique<MultiTargetSGBT>(config);
}

void MultiTargetSGBT::build() {
  members_.clear();
  members_.reserve(config_.n_targets);
  for (std::size_t k = 0; k < config_.n_targets; ++k) members_.emplace_back(config_.base, Task::kRegression, 0);
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

void MultiTargetSGBT::reset() { build(); }

std::size_t MultiTargetSGBT::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + (members_.capacity() - members_.size()) * sizeof(SGBTLearner);
  for (const auto& m : members_) bytes += m.memory_bytes();
  return bytes;
}

void MultiTargetSGBT::encode(ByteWriter& out) const {
  out.u32(kStateVersion);
  config_.base.encode(out);
  out.u64(config_.n_targets);
  out.u64(samples_seen_);
  for (const auto& m : members_) m.encode(out);
}

Status MultiTargetSGBT::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("multi_target_sgbt state version");
  if (!in.ok()) return in.status();
  if (version != kStateVersion)
    return Status::not_supported("multi_target_sgbt state version " + std::to_string(version));
  MultiTargetSGBTConfig config;
  IRITHYLL_RETURN_IF_ERROR(config.base.decode(in));
  const std::uint64_t n = in.u64("target count");
  const std::uint64_t seen = in.u64("samples seen");
  if (!in.ok()) return in.status();
  if (n == 0 || n > kMaxTargets) return Status::corruption("multi_target_sgbt: target count " + std::to_string(n));
  config.n_targets = static_cast<std::size_t>(n);
  IRITHYLL_RETURN_IF_ERROR(config.validate().with_context("multi_target_sgbt config"));
  MultiTargetSGBT next(config);
  next.samples_seen_ = seen;
  for (auto& m : next.members_) {
    IRITHYLL_RETURN_IF_ERROR(m.decode(in).with_context("multi_target_sgbt member"));
    if (m.task() != Task::kRegression) return Status::corruption("multi_target_sgbt: member is not a regressor");
  }
  *this = std::move(next);
  return Status::ok();
}

}  // namespace irithyll
