// CCIPCA: candid covariance-free incremental PCA (Weng, Zhang & Hwang 2003):
// the top k principal components of the stream, learned one sample at a time
// without a covariance matrix, O(k·d) per sample and k·d doubles. The output
// is the k projections (x - mean)·e_i on the unit components e_i.
//
// Per sample (eq. 10 of the paper, with the amnesic parameter l and the
// residual deflated component by component): u_1 = x - mean (running mean),
//   v_i <- ((n_i - 1 - l)/n_i)·v_i + ((1 + l)/n_i)·u_i·(u_i·v_i / |v_i|),
//   u_{i+1} = u_i - (u_i·e_i)·e_i,   e_i = v_i / |v_i|,   |v_i| -> eigenvalue i,
// where n_i counts the samples component i has learned.
//
// Initialisation: component i starts from the first residual u_i that is not
// zero (so never from the very first sample, whose centred value is 0). A
// component started from a zero vector would stay zero forever, since the
// update of a zero vector is zero.
//
// Samples with a non-finite feature are not learned; in transform_one such a
// feature counts as its mean (it adds nothing to a projection). Before a
// component exists its projection is 0.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/preprocess/registry.hpp"

namespace irithyll {

struct CcipcaConfig {
  std::uint32_t n_components = 2;
  double amnesic = 0.0;  // l: > 0 weights recent samples more (the paper suggests 2 to 4)
};

class Ccipca final : public Transformer {
 public:
  using Config = CcipcaConfig;
  static constexpr std::string_view kName = "ccipca";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<Ccipca>> make(const Config& config, const TransformerContext& context);

  Ccipca() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  std::size_t input_size() const override { return n_in_; }
  std::size_t output_size(std::size_t) const override { return config_.n_components; }
  void learn_one(std::span<const double> x) override;
  void transform_one(std::span<const double> x, std::span<double> out) const override;
  void reset() override;
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  // Eigenvalue estimate |v_i| and unit component e_i (zeros before it starts).
  double eigenvalue(std::size_t i) const;
  std::vector<double> component(std::size_t i) const;

 private:
  Config config_;
  std::size_t n_in_ = 0;
  double n_ = 0.0;                  // samples learned (for the mean)
  std::vector<double> mean_;        // d
  std::vector<double> v_;           // k·d, row i = v_i
  std::vector<double> n_comp_;      // k: samples each component learned (0: not started)
  std::vector<double> u_;           // d, scratch
};

}  // namespace irithyll
