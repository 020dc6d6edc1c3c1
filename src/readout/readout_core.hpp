// RlsReadoutCore<Derived, Config>: the Core plumbing shared by the neural
// learners that are "a feature extractor followed by an RlsHead" (mamba, slstm,
// mgrade, attention, loglinear). It owns what they all hold -- the config (the
// model's settings), the learner context (task, classes, seed; its n_features
// is the width in use once built), the readout, the sample count, the built
// flag and the readout's feature vector --
// and implements once the calls their public BoxedLearner forwards
// (learn_one, predict_one, ...; a Core is not a Learner itself, so nothing
// reaches it but through its box), so a learner keeps only its extractor,
// its config and the config's encoding.
//
// One flow for all of them, so that they cannot drift apart:
//  - learn_one: build on the first non-empty sample (Derived::try_build),
//    ignore a wrong width, advance the extractor (Derived::advance writes
//    features_ and commits the step), count the sample, then train the readout
//    unless the sample is in the warm-up (Config::warmup, when the config has
//    one), the target is non-finite or the weight is not finite and > 0. The
//    state advances on every sample of the right width: the stream's memory
//    must not skip samples the readout skips.
//  - predict_one / predict_proba_one: Derived::peek_features writes features_
//    without changing the model; unbuilt or wrong width gives 0 or a uniform
//    distribution. Derived::kProbaNeedsClassCount: when true, a proba span of
//    any other length than n_classes is left untouched.
//  - reset: zero the count, then Derived::restart() when built.
//  - encode_state / decode_state: the record tail (count, built flag,
//    extractor, readout, continual guard) for learners that write it in that
//    order; the config fields before it stay in the learner, which owns
//    their format.
//
// Hooks are private members of Derived (befriend this class), reached through
// CRTP. update_readout (default: head_.update), encode_continual and
// decode_continual (default: nothing) let a learner add a continual-learning
// guard around the readout step. Derived always provides
// extractor_memory_bytes (what it owns beyond sizeof, features_ and the readout) and kProbaNeedsClassCount; try_build,
// advance, peek_features and restart have defaults (below) that a learner
// shadows by declaring its own; encode_extractor and decode_extractor are
// needed only when encode_state / decode_state are used.
//
// Cost: nothing per sample beyond the hooks and the RlsHead itself (no virtual
// calls besides the Learner interface, no extra state, no allocation). Thread
// safety: one owner -- the const predictions write the mutable features_.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "irithyll/learner.hpp"
#include "readout/rls_head.hpp"

namespace irithyll {

template <class Derived, class Config>
class RlsReadoutCore {
 public:
  std::string_view name() const { return Derived::kName; }
  Task task() const { return ctx_.task; }
  std::size_t n_classes() const { return ctx_.task == Task::kClassification ? ctx_.n_classes : 0; }
  std::size_t n_features() const { return ctx_.n_features; }
  // The configuration the learner was built with (its catalogue settings).
  const Config& config() const noexcept { return cfg_; }
  std::uint64_t n_samples_seen() const { return n_seen_; }

  void learn_one(std::span<const double> x, double y, double weight = 1.0) {
    if (!built_ && (x.empty() || !self().try_build(x.size()))) return;
    if (x.size() != ctx_.n_features) return;
    self().advance(x, y, weight);
    ++n_seen_;
    if (n_seen_ <= warmup() || !weight_admissible(weight) || !target_admissible(y, ctx_.task, ctx_.n_classes)) return;
    self().update_readout(y);
  }

  double predict_one(std::span<const double> x) const {
    if (!built_ || x.size() != ctx_.n_features) return 0.0;
    self().peek_features(x);
    return head_.predict(features_);
  }

  void predict_proba_one(std::span<const double> x, std::span<double> proba) const {
    if (ctx_.task != Task::kClassification) return;
    if constexpr (Derived::kProbaNeedsClassCount) {
      if (proba.size() != ctx_.n_classes) return;
    }
    if (!built_ || x.size() != ctx_.n_features) {
      std::fill(proba.begin(), proba.end(), proba.empty() ? 0.0 : 1.0 / static_cast<double>(proba.size()));
      return;
    }
    self().peek_features(x);
    head_.predict_proba(features_, proba);
  }

  void reset() {
    n_seen_ = 0;
    if (built_) self().restart();
  }

  std::size_t memory_bytes() const {
    return sizeof(Derived) + self().extractor_memory_bytes() + head_.memory_bytes() +
           features_.capacity() * sizeof(double);
  }

 protected:
  RlsReadoutCore() = default;
  // The context as the learner keeps it: no classes for regression, feature
  // names only for a width known up front.
  RlsReadoutCore(const Config& config, const LearnerContext& context) : cfg_(config), ctx_(context) {
    ctx_.n_targets = 1;
    if (ctx_.task != Task::kClassification) ctx_.n_classes = 0;
    if (ctx_.feature_names.size() != ctx_.n_features) ctx_.feature_names.clear();
    // Continual learning's draws follow the run's seed too.
    if constexpr (requires { cfg_.continual.seed; }) cfg_.continual.seed = ctx_.seed;
  }

  // Writes: samples seen, built flag, then (when built) extractor and readout.
  void encode_state(ByteWriter& out) const {
    out.u64(n_seen_);
    out.boolean(built_);
    if (built_) {
      self().encode_extractor(out);
      head_.encode(out);
      self().encode_continual(out);
    }
  }

  // Reads what encode_state wrote after the config and context (n_seen and
  // built already read by the caller, both already validated) into a fresh
  // learner, and replaces *this only when everything decoded.
  Status decode_state(const Config& c, const LearnerContext& context, std::uint64_t n_seen, bool built,
                      ByteReader& in) {
    Derived m;
    m.cfg_ = c;
    m.ctx_ = context;
    m.n_seen_ = n_seen;
    if (built) {
      if (context.n_features == 0) return Status::corruption(std::string(Derived::kName) + ": built without features");
      IRITHYLL_RETURN_IF_ERROR(m.build(context.n_features));
      IRITHYLL_RETURN_IF_ERROR(m.decode_extractor(in));
      IRITHYLL_RETURN_IF_ERROR(m.head_.decode(in, m.features_.size()));
      IRITHYLL_RETURN_IF_ERROR(m.decode_continual(in));
    }
    self() = std::move(m);
    return Status::ok();
  }

  Config cfg_;
  LearnerContext ctx_;
  RlsHead head_;
  std::uint64_t n_seen_ = 0;
  mutable std::vector<double> features_;  // readout input for the current sample
  // Last, so that a learner's own leading bool can sit in its tail padding and
  // sizeof (part of memory_bytes) stays what it was before this base existed.
  bool built_ = false;

 private:
  Derived& self() noexcept { return static_cast<Derived&>(*this); }
  const Derived& self() const noexcept { return static_cast<const Derived&>(*this); }

  // Default hooks, for an extractor built by `Status build(n_features)` that
  // writes features_ in `template <bool kLearn> void featurize(x) const`
  // (committing its step when kLearn). A learner shadows any of them by
  // declaring a hook of the same name.
  bool try_build(std::size_t n_features) { return self().build(n_features).is_ok(); }
  void advance(std::span<const double> x, double, double) { self().template featurize<true>(x); }
  void peek_features(std::span<const double> x) const { self().template featurize<false>(x); }
  // The readout step; a learner with a continual-learning guard wraps it
  // (nn/continual/readout_regeneration.hpp) and then also writes and reads
  // the guard's state after the readout in encode_state / decode_state.
  void update_readout(double y) { head_.update(features_, y); }
  void encode_continual(ByteWriter&) const {}
  Status decode_continual(ByteReader&) { return Status::ok(); }
  // Rebuilding restores the seeded initial weights, also of extractors that learn.
  void restart() { (void)self().build(ctx_.n_features); }

  std::uint64_t warmup() const noexcept {
    if constexpr (requires(const Config& c) { c.warmup; }) {
      return cfg_.warmup;
    } else {
      return 0;
    }
  }
};

}  // namespace irithyll
