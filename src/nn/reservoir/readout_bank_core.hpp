// ReadoutBankCore<Derived, Config>: the one learning flow of the reservoir
// learners whose extractor runs unsupervised and whose only trained part is an
// RlsHead (esn, ngrc; the spiking network trains itself and keeps its
// own flow). Built on ReservoirCoreBase (config, width, count, record
// head), it adds the readout, its feature vector and the calls the learner's
// BoxedLearner forwards:
//  - learn_one: take the width from the first sample when Derived accepts it,
//    ignore a wrong width, prepare the features (Derived::prepare sanitises
//    x and writes feat_ without changing the model), commit the extractor's
//    step, count the sample, then train the readout unless Derived says it is
//    not ready yet (washout, taps not filled) or the weight is not finite and
//    > 0. A non-finite target still advances the state; RlsHead skips it.
//  - predict_one / predict_proba_one: prepare, then read the readout; an
//    unbuilt learner or a wrong width gives 0 or a uniform distribution.
//  - reset: back to blank when the width came from the first sample, else
//    the extractor's and the readout's initial state.
//
// Hooks, private members of Derived (befriend this class): accepts_width(d),
// init(d), prepare(x) const, commit(), readout_ready() const,
// reset_extractor(), extractor_memory_bytes() const (what Derived owns beyond
// sizeof, the readout and feat_). Cost: nothing per sample beyond the hooks
// and the readout. Thread safety: one owner -- the const predictions write
// the mutable scratch.
#pragma once

#include <cmath>
#include <span>
#include <vector>

#include "nn/reservoir/reservoir_core_base.hpp"
#include "nn/sanitize_input.hpp"
#include "readout/rls_head.hpp"

namespace irithyll::nn {

template <class Derived, class Config>
class ReadoutBankCore : public ReservoirCoreBase<Derived, Config> {
 public:
  void learn_one(std::span<const double> x, double y, double weight = 1.0) {
    if (this->n_features_ == 0) {
      if (x.empty() || !self().accepts_width(x.size())) return;
      self().init(x.size());
    }
    if (!self().prepare(x)) return;
    self().commit();
    ++this->n_seen_;
    if (!self().readout_ready() || !weight_admissible(weight)) return;
    readout_.update(feat_, y);
  }

  double predict_one(std::span<const double> x) const {
    if (!self().prepare(x)) return 0.0;
    return readout_.predict(feat_);
  }

  void predict_proba_one(std::span<const double> x, std::span<double> proba) const {
    if (this->context_.task != Task::kClassification) return;
    if (!self().prepare(x)) {
      this->fill_uniform(proba);
      return;
    }
    readout_.predict_proba_clipped(feat_, proba);
  }

  void reset() {
    if (this->reset_to_blank()) return;
    self().reset_extractor();
    readout_.reset();
  }

  std::size_t memory_bytes() const {
    return sizeof(Derived) + self().extractor_memory_bytes() + readout_.memory_bytes() +
           feat_.capacity() * sizeof(double);
  }

  const RlsHead& readout() const noexcept { return readout_; }

 protected:
  ReadoutBankCore() = default;
  ReadoutBankCore(const Config& config, const LearnerContext& context)
      : ReservoirCoreBase<Derived, Config>(config, context) {}

  RlsHead readout_;
  mutable std::vector<double> feat_;  // readout input for the current sample

 private:
  Derived& self() noexcept { return static_cast<Derived&>(*this); }
  const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }
};

}  // namespace irithyll::nn
