// TargetEncoder: each chosen category column becomes the smoothed mean of the
// target seen with its category (River's feature_extraction.TargetAgg with
// stats.BayesianMean):
//
//   enc(c) = (sum_c + m·prior) / (n_c + m),   prior = mean of every target seen,
//
// with n_c samples of category c so far and m = `smoothing` (a category seen
// rarely leans on the prior). Regression: the target's mean (q = 1 output per
// column). Classification with K classes: the rates of classes 1..K-1
// (q = K-1 outputs; 1 for a binary target).
//
// A pipeline transforms a sample before learning it, so a sample's own
// target never enters its encoding (no leakage). A category not seen yet, or
// a missing value, encodes as the prior (0 before any target).
//
// Output layout: the columns that are not encoded, in input order, then q
// outputs per encoded column. Up to `max-categories` categories per column
// are tracked; later ones encode as the prior. Cost: O(d + c·q) per sample
// plus one hash lookup per encoded column.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace irithyll {

struct TargetEncoderConfig {
  std::string columns;  // empty: the stream's categorical columns
  double smoothing = 10.0;
  std::uint32_t max_categories = 100000;
};

class TargetEncoder final : public Transformer {
 public:
  using Config = TargetEncoderConfig;
  static constexpr std::string_view kName = "target_encoder";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<TargetEncoder>> make(const Config& config, const TransformerContext& context);

  TargetEncoder() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  std::size_t input_size() const override { return n_in_; }
  std::size_t output_size(std::size_t) const override { return n_in_ - columns_.size() + columns_.size() * q_; }
  void learn_one(std::span<const double>) override {}  // needs the target
  void learn_supervised(std::span<const double> x, double y) override;
  void transform_one(std::span<const double> x, std::span<double> out) const override;
  // Kept columns by name, then "colour:mean" (regression) or "colour:p1",
  // "colour:p2", ... (rates of classes 1, 2, ...).
  std::vector<std::string> output_names(std::span<const std::string> in) const override;
  void reset() override;
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const std::vector<std::uint32_t>& columns() const { return columns_; }
  std::size_t n_categories(std::size_t k) const { return keys_[k].size(); }

 private:
  void rebuild_index();
  // Writes the q encoded values of category `key` of encoded column k.
  void encode_value(std::size_t k, double v, double* out) const;

  Config config_;
  Task task_ = Task::kRegression;
  std::size_t n_classes_ = 0;
  std::size_t n_in_ = 0;
  std::size_t q_ = 1;  // outputs per encoded column
  std::vector<std::uint32_t> columns_;
  std::vector<std::uint8_t> is_encoded_;
  double n_total_ = 0.0;
  std::vector<double> sum_total_;  // q
  // Per encoded column: the category values in order of first appearance and,
  // per category, [count, q sums] back to back.
  std::vector<std::vector<double>> keys_;
  std::vector<std::vector<double>> stats_;
  std::vector<std::unordered_map<std::uint64_t, std::uint32_t>> index_;  // bit pattern -> category
};

}  // namespace irithyll
