// SpikeNetCore: the whole of SpikeNetLearner, which holds it by pointer (include/irithyll/nn/snn/spike_net_learner.hpp
// describes the model). Internal: src/, tests and benches use it.
#pragma once

#include <vector>

#include "nn/reservoir/reservoir_core_base.hpp"
#include "nn/sanitize_input.hpp"
#include "nn/snn/spike_net.hpp"
#include "readout/rls_head.hpp"
#include "irithyll/nn/snn/spike_net_learner.hpp"

namespace irithyll::nn {

class SpikeNetCore final : public ReservoirCoreBase<SpikeNetCore, SpikeNetLearnerConfig> {
 public:
  static constexpr std::string_view kName = SpikeNetLearner::kName;
  static std::span<const ConfigField<SpikeNetLearnerConfig>> config_fields() {
    return SpikeNetLearner::config_fields();
  }

  SpikeNetCore() = default;
  // REQUIRES: valid (SpikeNetLearner::make checks it).
  SpikeNetCore(const SpikeNetLearnerConfig& config, const LearnerContext& context);

  void learn_one(std::span<const double> x, double y, double weight = 1.0);
  double predict_one(std::span<const double> x) const;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const;
  void reset();
  std::size_t memory_bytes() const;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

  const SpikeNet& network() const noexcept { return net_; }

 private:
  void init(std::size_t n_features);
  bool convert(std::span<const double> x) const noexcept;  // fills xq_
  // RLS features from a network state and the raw sample.
  void fill_features(const SpikeNet::State& s, std::span<const double> x) const noexcept;
  // Runs a forward pass on a copy of the dynamic state; outputs in shadow_.
  void peek(std::span<const double> x) const noexcept;

  SpikeNet net_;
  mutable SpikeNet::State shadow_;  // predict_one's copy of the dynamic state
  mutable std::vector<std::int16_t> xq_, target_q_;
  RlsHead rls_;                 // kRls only
  mutable std::vector<double> feat_;
};

}  // namespace irithyll::nn
