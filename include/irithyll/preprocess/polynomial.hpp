// PolynomialExtender: degree-2 features (River's
// feature_extraction.PolynomialExtender(degree=2)): an optional constant 1,
// the d inputs, then the products x_i·x_j for i <= j (i < j with
// interaction-only), in row-major order of (i, j). Width 1·bias + d +
// d(d+1)/2 (d(d-1)/2 interaction-only). Stateless; O(width) per sample.
// A non-finite input is missing: it and every product with it are NaN.
#pragma once

#include <memory>
#include <span>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace irithyll {

struct PolynomialConfig {
  bool interaction_only = false;
  bool bias = false;
};

class PolynomialExtender final : public Transformer {
 public:
  using Config = PolynomialConfig;
  static constexpr std::string_view kName = "polynomial";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<PolynomialExtender>> make(const Config& config, const TransformerContext& context);
  // Output width for d inputs.
  static std::size_t width(const Config& config, std::size_t d);

  PolynomialExtender() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  std::size_t input_size() const override { return n_in_; }
  std::size_t output_size(std::size_t) const override { return width(config_, n_in_); }
  void learn_one(std::span<const double>) override {}
  void transform_one(std::span<const double> x, std::span<double> out) const override;
  // "1" (bias), the inputs, then "a*b" per product.
  std::vector<std::string> output_names(std::span<const std::string> in) const override;
  void reset() override {}
  std::size_t memory_bytes() const override { return sizeof(*this); }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

 private:
  Config config_;
  std::size_t n_in_ = 0;
};

}  // namespace irithyll
