// QuantileSGBT: non-crossing conditional quantiles from streaming gradient-
// boosted trees (name "quantile_sgbt"). One SGBT per requested tau, each
// trained on the pinball (quantile) loss at its tau (Koenker & Bassett 1978);
// at prediction the raw quantiles are made non-decreasing in tau by the
// pool-adjacent-violators algorithm (Ayer et al. 1955; Barlow et al. 1972),
// the least-squares isotonic fit, so the output bands never cross.
//
// predict_one returns the quantile whose tau is nearest 0.5;
// predict_quantiles returns all of them (sorted by tau). Regression only.
// Config: the tau list (sorted, distinct, each in (0, 1)) and every SGBT
// setting except the loss, which is the quantile loss by construction.
// Input guards: as SGBTLearner. Cost: n_tau SGBTs per sample, O(n_tau) PAVA.
// Thread safety: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

// In-place least-squares non-decreasing fit with equal weights: blocks of
// (sum, count) are pushed left to right and merged backward while the
// previous block's mean exceeds the last one's. [3,1,2] -> [2,2,2];
// [1,5,3,4,6] -> [1,4,4,4,6]. `sums` and `counts` are scratch (capacity reused).
void pava_non_decreasing(std::span<double> values, std::vector<double>& sums, std::vector<double>& counts);

struct QuantileSGBTConfig {
  std::vector<double> quantiles{0.05, 0.5, 0.95};  // sorted, distinct, each in (0, 1); at most 64
  SGBTConfig sgbt{};  // every committee's settings; loss and seed are set per tau

  Status validate() const;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);
};

// "quantiles", then every SGBT row but loss and loss-param.
std::span<const ConfigField<QuantileSGBTConfig>> quantile_sgbt_config_fields();
// "0.05,0.5,0.95" -> sorted list; errors name the bad entry.
Result<std::vector<double>> parse_quantile_list(std::string_view text);

class QuantileSGBT final : public Learner {
 public:
  QuantileSGBT();  // blank instance, e.g. to decode() into
  // REQUIRES: config valid (make() checks).
  QuantileSGBT(const QuantileSGBTConfig& config, std::uint64_t seed);
  static Result<std::unique_ptr<QuantileSGBT>> make(const QuantileSGBTConfig& config, Task task, std::uint64_t seed);

  std::string_view name() const override { return "quantile_sgbt"; }
  Task task() const override { return Task::kRegression; }
  std::size_t n_features() const override { return committees_.empty() ? 0 : committees_[0].n_features(); }

  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  // REQUIRES: out.size() == n_quantiles(). Non-decreasing.
  void predict_quantiles(std::span<const double> x, std::span<double> out) const;

  void reset() override;
  std::uint64_t n_samples_seen() const override { return samples_seen_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const QuantileSGBTConfig& config() const { return config_; }
  std::size_t n_quantiles() const { return committees_.size(); }

 private:
  QuantileSGBTConfig config_{};
  std::uint64_t seed_ = 0;
  std::vector<SGBTLearner> committees_;
  std::size_t median_index_ = 0;
  std::uint64_t samples_seen_ = 0;
  mutable std::vector<double> raw_, sums_, counts_;
};

}  // namespace irithyll
