// NgrcCore: the whole of NextGenReservoir, which holds it by pointer (include/irithyll/nn/reservoir/ngrc.hpp
// describes the model). Internal: src/, tests and benches use it.
#pragma once

#include <cstdint>
#include <vector>

#include "irithyll/nn/reservoir/ngrc.hpp"
#include "nn/reservoir/ngrc_features.hpp"
#include "nn/reservoir/readout_bank_core.hpp"

namespace irithyll::nn {

class NgrcCore final : public ReadoutBankCore<NgrcCore, NgrcLearnerConfig> {
 public:
  static constexpr std::string_view kName = NextGenReservoir::kName;
  static std::span<const ConfigField<NgrcLearnerConfig>> config_fields() { return NextGenReservoir::config_fields(); }

  NgrcCore() = default;
  // REQUIRES: valid (NextGenReservoir::make checks it).
  NgrcCore(const NgrcLearnerConfig& config, const LearnerContext& context);

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

  const NgrcFeatures& features() const noexcept { return features_; }

 private:
  friend ReadoutBankCore<NgrcCore, NgrcLearnerConfig>;

  bool accepts_width(std::size_t n_features) const;
  void init(std::size_t n_features);
  bool prepare(std::span<const double> x) const noexcept;
  // Pushes the sanitised sample into the delay buffer.
  void commit() { features_.push(u_); }
  // The readout trains once k taps are available.
  bool readout_ready() const noexcept { return features_.is_ready(); }
  void reset_extractor() noexcept { features_.reset(); }
  std::size_t extractor_memory_bytes() const noexcept;

  NgrcFeatures features_;
  mutable std::vector<double> u_;
};

}  // namespace irithyll::nn
