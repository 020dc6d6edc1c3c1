// Normalizer: scales each sample to unit Lp norm, x / ||x||_p (River's
// preprocessing.Normalizer). Stateless; O(d) per sample. Non-finite values
// are left out of the norm and stay missing (NaN) in the output; a sample
// whose norm is 0 maps to zeros.
#pragma once

#include <memory>
#include <span>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace irithyll {

struct NormalizerConfig {
  double order = 2.0;  // p of the Lp norm
};

class Normalizer final : public Transformer {
 public:
  using Config = NormalizerConfig;
  static constexpr std::string_view kName = "normalizer";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<Normalizer>> make(const Config& config, const TransformerContext& context);

  Normalizer() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  std::size_t input_size() const override { return n_in_; }
  std::size_t output_size(std::size_t) const override { return n_in_; }
  void learn_one(std::span<const double>) override {}
  void transform_one(std::span<const double> x, std::span<double> out) const override;
  void reset() override {}
  std::size_t memory_bytes() const override { return sizeof(*this); }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

 private:
  Config config_;
  std::size_t n_in_ = 0;
};

}  // namespace irithyll
