// AttentionPreprocessor: streaming attention features as a pipeline step
// (`--model "attention_features|logistic_regression"`). Each sample is a
// token: it is standardised with running (Welford) statistics, clamped to
// +-5, projected to d_model by a fixed random matrix (with a bias column),
// and fed to one multi-head linear-attention layer (multi_head.hpp, any
// mode: GLA, RetNet, DeltaNet, mLSTM, ...). The output is the inputs
// (with `passthrough`) followed by the layer's d_model outputs (through tanh
// for the modes whose state is unbounded), so the learner after it sees a
// summary of the recent past beside the present sample.
//
// transform_one reads what the layer would output for the sample without
// committing it (peek); learn_one commits it (forward) and then updates the
// statistics, so the pipeline's learner sees, for each sample, exactly the
// features the committed step gives.
//
// Cost per sample: the d_model x (d+1) projection and the layer's step
// (O(n_heads·d_key·d_value)). Non-finite inputs count as the feature's mean
// (0 after standardisation) and are not learned by the statistics.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace irithyll {
namespace nn {
class MultiHeadAttention;
}

struct AttentionPreprocessorConfig {
  std::string mode = "gla";
  std::uint32_t d_model = 16;
  std::uint32_t n_heads = 2;
  std::uint32_t d_key = 4;
  std::uint32_t d_value = 4;
  bool passthrough = true;
};

class AttentionPreprocessor final : public Transformer {
 public:
  using Config = AttentionPreprocessorConfig;
  static constexpr std::string_view kName = "attention_features";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<AttentionPreprocessor>> make(const Config& config, const TransformerContext& context);

  AttentionPreprocessor();
  ~AttentionPreprocessor() override;
  AttentionPreprocessor(AttentionPreprocessor&&) noexcept;
  AttentionPreprocessor& operator=(AttentionPreprocessor&&) noexcept;

  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  std::size_t input_size() const override { return n_in_; }
  std::size_t output_size(std::size_t) const override { return (config_.passthrough ? n_in_ : 0) + config_.d_model; }
  void learn_one(std::span<const double> x) override;
  void transform_one(std::span<const double> x, std::span<double> out) const override;
  void reset() override;
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

 private:
  Status build();
  // z = clamp(standardised x) with the bias 1 appended, then u = W_in z.
  void project(std::span<const double> x) const;

  Config config_;
  std::size_t n_in_ = 0;
  std::uint64_t seed_ = 42;
  std::unique_ptr<nn::MultiHeadAttention> layer_;
  std::vector<double> w_in_;  // d_model x (n_in + 1)
  std::vector<double> mean_, m2_, count_;
  mutable std::vector<double> z_, u_, o_;
};

}  // namespace irithyll
