// EsnCore: the whole of EchoStateNetwork, which holds it by pointer (include/irithyll/nn/reservoir/esn.hpp
// describes the model). Internal: src/, tests and benches use it.
#pragma once

#include <cstdint>
#include <vector>

#include "nn/reservoir/cycle_reservoir.hpp"
#include "irithyll/nn/reservoir/esn.hpp"
#include "nn/reservoir/readout_bank_core.hpp"

namespace irithyll::nn {

class EsnCore final : public ReadoutBankCore<EsnCore, EsnConfig> {
 public:
  static constexpr std::string_view kName = EchoStateNetwork::kName;
  static std::span<const ConfigField<EsnConfig>> config_fields() { return EchoStateNetwork::config_fields(); }

  EsnCore() = default;
  EsnCore(const EsnConfig& config, const LearnerContext& context);  // REQUIRES: valid (EchoStateNetwork::make checks it)

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

  const CycleReservoir& reservoir() const noexcept { return reservoir_; }

 private:
  friend ReadoutBankCore<EsnCore, EsnConfig>;

  bool accepts_width(std::size_t n_features) const noexcept;
  void init(std::size_t n_features);
  // Prepares feat_ from x via the cached peek; false if x has the wrong width.
  bool prepare(std::span<const double> x) const noexcept;
  // Moves the reservoir to the peeked state.
  void commit() noexcept;
  bool readout_ready() const noexcept { return n_seen_ > config_.washout; }
  void reset_extractor() noexcept;
  std::size_t extractor_memory_bytes() const noexcept;

  CycleReservoir reservoir_;
  // Scratch: sanitised input, peeked state; cache_valid_ says that
  // next_state_ is the step from the current state with input u_.
  mutable std::vector<double> u_, next_state_;
  mutable bool cache_valid_ = false;
};

}  // namespace irithyll::nn
