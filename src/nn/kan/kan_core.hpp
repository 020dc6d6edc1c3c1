// KanCore: the whole of KolmogorovArnoldNetwork, which holds it by pointer
// (include/irithyll/nn/kan/kan.hpp describes the model). Internal: src/,
// tests and benches use it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/nn/kan/kan.hpp"
#include "nn/kan/kan_layer.hpp"
#include "nn/kan/welford.hpp"

namespace irithyll::nn {

class KanCore {
 public:
  KanCore() = default;
  KanCore(const KanConfig& config, const LearnerContext& context);  // REQUIRES: valid (KolmogorovArnoldNetwork::make checks it)

  std::string_view name() const noexcept { return KolmogorovArnoldNetwork::kName; }
  Task task() const noexcept { return context_.task; }
  std::size_t n_classes() const noexcept { return context_.task == Task::kClassification ? context_.n_classes : 0; }
  std::size_t n_features() const noexcept { return width_; }
  const KanConfig& config() const noexcept { return config_; }

  void learn_one(std::span<const double> x, double y, double weight);
  double predict_one(std::span<const double> x) const;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const;
  void predict_batch(std::span<const double> rows, std::size_t n_features, std::span<double> out) const;
  void reset();
  std::uint64_t n_samples_seen() const noexcept { return n_seen_; }
  std::uint64_t n_trained() const noexcept { return n_trained_; }
  std::size_t memory_bytes() const noexcept;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

  // Layer widths [n_features, hidden..., outputs] (empty while the width is unknown).
  const std::vector<std::size_t>& layer_sizes() const noexcept { return sizes_; }
  const std::vector<KanLayer>& layers() const noexcept { return layers_; }
  std::size_t n_params() const noexcept;
  // Mean of e^2 (exponential, 0.999 per sample): the squared error of the
  // standardised target, or |p - onehot(y)|^2 for classification.
  double rolling_error() const noexcept { return rolling_; }

 private:
  // Builds the layers for width d from the seed (the same network every time).
  void build(std::size_t d);
  // Standardised, clamped inputs into acts_[0] with the current statistics.
  void standardise(std::span<const double> x) const noexcept;
  // Forward from acts_[0]; the outputs are then in acts_.back().
  void forward(bool with_derivs) const noexcept;
  // Softmax of the outputs into p (classification).
  void softmax(std::span<double> p) const noexcept;

  KanConfig config_;
  LearnerContext context_;
  std::size_t width_ = 0;
  std::vector<std::size_t> sizes_;
  std::vector<KanLayer> layers_;
  std::vector<Welford> inputs_;  // one per feature
  Welford target_;  // regression target; its count is the number of admitted samples in both tasks
  double rolling_ = 0.0;
  std::uint64_t n_trained_ = 0;
  std::uint64_t n_seen_ = 0;

  // Scratch (no allocation per sample): activations per layer boundary, the
  // rescale factor of each hidden layer, the gradients, the basis caches.
  mutable std::vector<std::vector<double>> acts_;
  mutable std::vector<double> scales_;
  mutable std::vector<KanLayerScratch> scratch_;
  std::vector<double> grad_a_, grad_b_;
};

}  // namespace irithyll::nn
