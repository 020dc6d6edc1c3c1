#include "irithyll/ensemble/quantile_sgbt.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace irithyll {

namespace {
constexpr std::uint32_t kFormatVersion = 1;
}

void pava_non_decreasing(std::span<double> values, std::vector<double>& sums, std::vector<double>& counts) {
  sums.clear();
  counts.clear();
  for (double v : values) {
    sums.push_back(v);
    counts.push_back(1.0);
    // Merge backward while the previous block's mean exceeds the last one's
    // (compared as cross products: no division).
    while (sums.size() > 1) {
      const std::size_t b = sums.size() - 1;
      if (!(sums[b - 1] * counts[b] > sums[b] * counts[b - 1])) break;
      sums[b - 1] += sums[b];
      counts[b - 1] += counts[b];
      sums.pop_back();
      counts.pop_back();
    }
  }
  std::size_t i = 0;
  for (std::size_t b = 0; b < sums.size(); ++b) {
    const double mean = sums[b] / counts[b];
    for (std::size_t k = 0; k < static_cast<std::size_t>(counts[b]); ++k) values[i++] = mean;
  }
}

QuantileSGBT::QuantileSGBT() = default;

QuantileSGBT::QuantileSGBT(const QuantileSGBTConfig& config, std::uint64_t seed) : config_(config), seed_(seed) { reset(); }

Result<std::unique_ptr<QuantileSGBT>> QuantileSGBT::make(const QuantileSGBTConfig& config, Task task, std::uint64_t seed) {
  if (task != Task::kRegression) return Status::invalid_argument("quantile_sgbt: regression only");
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  return std::make_unique<QuantileSGBT>(config, seed);
}

void QuantileSGBT::reset() {
  committees_.clear();
  committees_.reserve(config_.quantiles.size());
  median_index_ = 0;
  for (std::size_t i = 0; i < config_.quantiles.size(); ++i) {
    SGBTConfig c = config_.sgbt;
    c.loss = LossKind::kQuantile;
    c.loss_param = config_.quantiles[i];
    c.seed = seed_ ^ (0x9E3779B97F4A7C15ull * (i + 1));
    committees_.emplace_back(c, Task::kRegression, 0);
    if (std::abs(config_.quantiles[i] - 0.5) < std::abs(config_.quantiles[median_index_] - 0.5)) median_index_ = i;
  }
  raw_.assign(committees_.size(), 0.0);
  sums_.reserve(committees_.size());
  counts_.reserve(committees_.size());
  samples_seen_ = 0;
}

void QuantileSGBT::learn_one(std::span<const double> x, double y, double weight) {
  for (SGBTLearner& c : committees_) c.learn_one(x, y, weight);
  samples_seen_ = committees_.empty() ? 0 : committees_[0].n_samples_seen();  // the committees' own input guards decide
}

void QuantileSGBT::predict_quantiles(std::span<const double> x, std::span<double> out) const {
  for (std::size_t i = 0; i < committees_.size(); ++i) out[i] = committees_[i].predict_one(x);
  pava_non_decreasing(out, sums_, counts_);
}

double QuantileSGBT::predict_one(std::span<const double> x) const {
  if (committees_.empty()) return 0.0;
  predict_quantiles(x, raw_);
  return raw_[median_index_];
}

std::size_t QuantileSGBT::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + (raw_.capacity() + sums_.capacity() + counts_.capacity() + config_.quantiles.capacity()) * sizeof(double);
  for (const SGBTLearner& c : committees_) bytes += c.memory_bytes();
  return bytes;
}

void QuantileSGBT::encode(ByteWriter& out) const {
  out.u32(kFormatVersion);
  config_.encode(out);
  out.u64(seed_);
  out.u64(samples_seen_);
  for (const SGBTLearner& c : committees_) c.encode(out);
}

Status QuantileSGBT::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("quantile_sgbt version");
  if (!in.ok()) return in.status();
  if (version != kFormatVersion) return Status::corruption("quantile_sgbt: unknown record version " + std::to_string(version));
  QuantileSGBT q;
  IRITHYLL_RETURN_IF_ERROR(q.config_.decode(in));
  q.seed_ = in.u64("seed");
  if (!in.ok()) return in.status();
  q.reset();  // committees shaped by the config, then overwritten
  q.samples_seen_ = in.u64("samples_seen");
  if (!in.ok()) return in.status();
  std::size_t d = 0;
  for (std::size_t i = 0; i < q.committees_.size(); ++i) {
    IRITHYLL_RETURN_IF_ERROR(q.committees_[i].decode(in).with_context("quantile_sgbt committee"));
    const SGBTConfig& c = q.committees_[i].config();
    if (q.committees_[i].task() != Task::kRegression || c.loss != LossKind::kQuantile || c.loss_param != q.config_.quantiles[i])
      return Status::corruption("quantile_sgbt: committee does not match its tau");
    if (i == 0) d = q.committees_[i].n_features();
    if (q.committees_[i].n_features() != d) return Status::corruption("quantile_sgbt: committees disagree on the feature count");
  }
  *this = std::move(q);
  return Status::ok();
}

}  // namespace irithyll
