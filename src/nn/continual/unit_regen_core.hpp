// UnitRegenCore<Derived, Config>: RlsReadoutCore (readout/
// readout_core.hpp) for the recurrent learners whose readout features
// start with one entry per hidden unit, followed by features no unit owns
// (mgrade's delay convolution, the sanitised inputs, the bias): slstm and
// mgrade. It adds what those two share on top of the
// readout plumbing: the input scratch, and the optional regeneration guard
// with one group per hidden unit (reset_unit_regenerator,
// readout_regeneration.hpp) -- its readout step, its state in the record and
// its accessor. mamba maps groups and blocks to features differently and
// keeps its own guard.
//
// Derived provides, besides RlsReadoutCore's hooks, a private
// reinitialize_unit(j, rng) that re-draws hidden unit j of its cell (befriend
// this class), and calls finish_build() at the end of its build().
// Cost: nothing per sample beyond the guard's own (readout_regeneration.hpp).
// Thread safety: one owner.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "nn/continual/readout_regeneration.hpp"
#include "readout/readout_core.hpp"

namespace irithyll::nn {

template <class Derived, class Config>
class UnitRegenCore : public RlsReadoutCore<Derived, Config> {
 public:
  const RlsHead& readout() const noexcept { return this->head_; }
  // The regeneration guard when config.continual is on and the learner is built.
  const ReadoutRegenerator* continual() const noexcept { return regen_ ? &*regen_ : nullptr; }

 protected:
  UnitRegenCore() = default;
  UnitRegenCore(const Config& config, const LearnerContext& context)
      : RlsReadoutCore<Derived, Config>(config, context) {}

  // The end of Derived::build once its cell exists: a readout over
  // n_readout features, the first n_units of them the hidden units, an
  // input scratch of n_inputs, the guard; then the learner is built.
  Status finish_build(std::size_t n_inputs, std::size_t n_readout, std::size_t n_units) {
    const Config& c = this->cfg_;
    this->head_ = RlsHead(this->ctx_.task, this->ctx_.n_classes, n_readout, c.rls);
    xin_.assign(n_inputs, 0.0);
    this->features_.assign(n_readout, 0.0);
    IRITHYLL_RETURN_IF_ERROR(reset_unit_regenerator(regen_, c.continual, n_readout, n_units));
    this->built_ = true;
    return Status::ok();
  }

  // What this layer owns beyond sizeof, for Derived::extractor_memory_bytes.
  std::size_t scratch_and_guard_bytes() const noexcept {
    return xin_.capacity() * sizeof(double) + (regen_ ? regen_->memory_bytes() : 0);
  }

  std::optional<ReadoutRegenerator> regen_;
  mutable std::vector<double> xin_;  // the sample, non-finite values read as 0

 private:
  friend RlsReadoutCore<Derived, Config>;

  void update_readout(double y) {
    update_readout_with(regen_, this->head_, this->features_, y, this->ctx_.task, [this](std::size_t j, Xorshift64& rng) {
      static_cast<Derived&>(*this).reinitialize_unit(j, rng);
    });
  }
  void encode_continual(ByteWriter& out) const {
    if (regen_) regen_->encode_state(out);
  }
  Status decode_continual(ByteReader& in) { return regen_ ? regen_->decode_state(in) : Status::ok(); }
};

}  // namespace irithyll::nn
