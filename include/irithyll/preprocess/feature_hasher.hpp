// FeatureHasher: the hashing trick (Weinberger et al. 2009) into a fixed
// number of columns, with a sign hash so collisions cancel in expectation
// and inner products are preserved in expectation (River's
// preprocessing.FeatureHasher).
//
// Numeric column `name` with value v adds sign(name)·v to column h(name);
// a categorical column (a text or --categorical column: a category code) with
// value c adds sign(name=c)·1 to column h("name=c"), where c is printed as
// the shortest decimal that reads back (the CLI's codes are 0, 1, 2, ... in
// order of first appearance, kept by checkpoints). Names are the input's
// column names ("f3" without names), so the hashing does not depend on the
// column order. The hash is FNV-1a (64-bit) of the text, mixed with `seed`
// and finished with the SplitMix64 finaliser: stable across runs, builds and
// machines. Bucket from the high half, sign from the lowest bit.
//
// Stateless; O(d) per sample plus the text of the categorical values.
// Non-finite values add nothing (missing).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace irithyll {

struct FeatureHasherConfig {
  std::uint32_t n_buckets = 64;
  std::string columns;  // hashed as name=value; empty: the stream's categorical columns
  std::uint64_t seed = 0;
};

class FeatureHasher final : public Transformer {
 public:
  using Config = FeatureHasherConfig;
  static constexpr std::string_view kName = "feature_hasher";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<FeatureHasher>> make(const Config& config, const TransformerContext& context);

  FeatureHasher() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  std::size_t input_size() const override { return n_in_; }
  std::size_t output_size(std::size_t) const override { return config_.n_buckets; }
  void learn_one(std::span<const double>) override {}
  void transform_one(std::span<const double> x, std::span<double> out) const override;
  void reset() override {}
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  // The 64-bit hash of `text` under `seed` (exposed for tests).
  static std::uint64_t hash(std::string_view text, std::uint64_t seed);

 private:
  Status build(std::vector<std::string> names);

  Config config_;
  std::size_t n_in_ = 0;
  std::vector<std::uint32_t> columns_;  // hashed as name=value
  std::vector<std::string> names_;      // input column names
  // Per input column: FNV state after "name" (numeric) or "name=" (categorical),
  // so a sample hashes only its values' text.
  std::vector<std::uint64_t> prefix_;
  std::vector<std::uint8_t> is_categorical_;
};

}  // namespace irithyll
