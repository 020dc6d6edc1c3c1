// OneHotEncoder: each chosen column (a category code, such as the CLI makes
// of a text column) becomes indicator columns (River's
// preprocessing.OneHotEncoder, with a fixed width).
//
// Output width: a streaming learner after the encoder is built for one width,
// so the encoder reserves it up front instead of growing as categories
// appear. Each encoded column gets `max-categories` indicator slots plus one
// "other" slot: categories take the slots in order of first appearance as
// they are learned, and every category after the slots are full shares the
// "other" slot. The learner sees a slot that stayed 0 until its category
// arrived, which linear models, trees and neighbours all handle as an
// uninformative feature until then.
//
// Output layout: the columns that are not encoded, in input order, then for
// each encoded column (in input order) its slots in order of first
// appearance, then its "other" slot. A category not learned yet (the first
// time a sample shows it, since a pipeline transforms before it learns) and a
// missing (non-finite) value light no slot.
//
// Cost: O(d + c·m) per sample for c encoded columns with m slots (a scan of
// each column's known values). Categories compare by value (+0 and -0 are one
// category).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace irithyll {

struct OneHotConfig {
  std::string columns;  // names or indices; empty: the stream's categorical (text) columns
  std::uint32_t max_categories = 16;
};

class OneHotEncoder final : public Transformer {
 public:
  using Config = OneHotConfig;
  static constexpr std::string_view kName = "one_hot";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<OneHotEncoder>> make(const Config& config, const TransformerContext& context);

  OneHotEncoder() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  std::size_t input_size() const override { return n_in_; }
  std::size_t output_size(std::size_t) const override;
  void learn_one(std::span<const double> x) override;
  void transform_one(std::span<const double> x, std::span<double> out) const override;
  // Kept columns by name, then "colour=1", "colour=2", ... per slot in order
  // (slot s holds the s-th category learned; the last is "colour=other").
  std::vector<std::string> output_names(std::span<const std::string> in) const override;
  void reset() override;
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const std::vector<std::uint32_t>& columns() const { return columns_; }
  // Categories learned for the k-th encoded column, in slot order.
  const std::vector<double>& categories(std::size_t k) const { return values_[k]; }
  // True once the k-th encoded column saw more categories than it has slots.
  bool overflowed(std::size_t k) const { return overflow_[k] != 0; }

 private:
  // Slot of value v in encoded column k, or -1 when not learned.
  long slot_of(std::size_t k, double v) const;

  Config config_;
  std::size_t n_in_ = 0;
  std::vector<std::uint32_t> columns_;    // encoded input columns, increasing
  std::vector<std::uint8_t> is_encoded_;  // per input column
  std::vector<std::vector<double>> values_;
  std::vector<std::uint8_t> overflow_;
};

}  // namespace irithyll
