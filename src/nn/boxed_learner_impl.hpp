// Member definitions of BoxedLearner (include/irithyll/nn/boxed_learner.hpp).
// A learner's .cpp includes this after its Core's header and instantiates
// `template class BoxedLearner<Core, Config, kCopyable>;` once.
#pragma once

#include <cmath>

#include <memory>
#include <type_traits>
#include <utility>

#include "irithyll/nn/boxed_learner.hpp"

namespace irithyll {

namespace boxed_detail {
// Copies a Core where it can be copied. clang 14 instantiates every member of an
// explicitly instantiated class, constrained-away copy operations included, so
// the copy must still compile for a Core that holds move-only parts; such a
// learner is never copied (its copy operations are constrained away), and the
// null answer is unreachable.
template <class Core>
std::unique_ptr<Core> copy_core(const Core& core) {
  if constexpr (std::is_copy_constructible_v<Core>) {
    return std::make_unique<Core>(core);
  } else {
    (void)core;
    return nullptr;
  }
}
}  // namespace boxed_detail

template <class Core, class Config, bool kCopyable>
BoxedLearner<Core, Config, kCopyable>::BoxedLearner() : core_(std::make_unique<Core>()) {}

template <class Core, class Config, bool kCopyable>
BoxedLearner<Core, Config, kCopyable>::BoxedLearner(const Config& config, const LearnerContext& context)
    : core_(std::make_unique<Core>(config, context)) {}

template <class Core, class Config, bool kCopyable>
BoxedLearner<Core, Config, kCopyable>::~BoxedLearner() = default;

template <class Core, class Config, bool kCopyable>
BoxedLearner<Core, Config, kCopyable>::BoxedLearner(BoxedLearner&& other) noexcept : core_(std::move(other.core_)) {}

template <class Core, class Config, bool kCopyable>
BoxedLearner<Core, Config, kCopyable>& BoxedLearner<Core, Config, kCopyable>::operator=(BoxedLearner&& other) noexcept {
  core_ = std::move(other.core_);
  return *this;
}

template <class Core, class Config, bool kCopyable>
BoxedLearner<Core, Config, kCopyable>::BoxedLearner(const BoxedLearner& other)
  requires(kCopyable)
    : Learner(other), core_(boxed_detail::copy_core(*other.core_)) {}

template <class Core, class Config, bool kCopyable>
BoxedLearner<Core, Config, kCopyable>& BoxedLearner<Core, Config, kCopyable>::operator=(const BoxedLearner& other)
  requires(kCopyable)
{
  if (this == &other) return *this;
  if constexpr (std::is_copy_assignable_v<Core>) {
    if (core_) {
      *core_ = *other.core_;  // reuses this learner's buffers where the Core's assignment does
      return *this;
    }
  }
  core_ = boxed_detail::copy_core(*other.core_);
  return *this;
}

template <class Core, class Config, bool kCopyable>
std::string_view BoxedLearner<Core, Config, kCopyable>::name() const {
  return core_->name();
}
template <class Core, class Config, bool kCopyable>
Task BoxedLearner<Core, Config, kCopyable>::task() const {
  return core_->task();
}
template <class Core, class Config, bool kCopyable>
std::size_t BoxedLearner<Core, Config, kCopyable>::n_classes() const {
  return core_->n_classes();
}
template <class Core, class Config, bool kCopyable>
std::size_t BoxedLearner<Core, Config, kCopyable>::n_features() const {
  return core_->n_features();
}
template <class Core, class Config, bool kCopyable>
void BoxedLearner<Core, Config, kCopyable>::learn_one(std::span<const double> x, double y, double weight) {
  // A sample with no weight is not seen at all: a recurrent core would
  // otherwise advance its state on it, and a zero weight must change nothing.
  // A row of the wrong width is refused the same way, before it can move the
  // state (check_sample() says why).
  if (!weight_admissible(weight) || !width_admissible(x, core_->n_features())) return;
  core_->learn_one(x, y, weight);
}
template <class Core, class Config, bool kCopyable>
double BoxedLearner<Core, Config, kCopyable>::predict_one(std::span<const double> x) const {
  return core_->predict_one(x);
}
template <class Core, class Config, bool kCopyable>
void BoxedLearner<Core, Config, kCopyable>::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  core_->predict_proba_one(x, proba);
}
template <class Core, class Config, bool kCopyable>
void BoxedLearner<Core, Config, kCopyable>::predict_batch(std::span<const double> rows, std::size_t n_features,
                                                  std::span<double> out) const {
  // A Core with a batch path of its own (KAN) uses it; the others predict row by row.
  if constexpr (requires(const Core& c) { c.predict_batch(rows, n_features, out); })
    core_->predict_batch(rows, n_features, out);
  else
    Learner::predict_batch(rows, n_features, out);
}
template <class Core, class Config, bool kCopyable>
void BoxedLearner<Core, Config, kCopyable>::reset() {
  core_->reset();
}
template <class Core, class Config, bool kCopyable>
std::uint64_t BoxedLearner<Core, Config, kCopyable>::n_samples_seen() const {
  return core_->n_samples_seen();
}
// The Core's count (its sizeof and heap), as before the handle existed.
template <class Core, class Config, bool kCopyable>
std::size_t BoxedLearner<Core, Config, kCopyable>::memory_bytes() const {
  return core_->memory_bytes();
}
template <class Core, class Config, bool kCopyable>
void BoxedLearner<Core, Config, kCopyable>::encode(ByteWriter& out) const {
  core_->encode(out);
}
template <class Core, class Config, bool kCopyable>
Status BoxedLearner<Core, Config, kCopyable>::decode(ByteReader& in) {
  return core_->decode(in);
}
template <class Core, class Config, bool kCopyable>
const Config& BoxedLearner<Core, Config, kCopyable>::config() const noexcept {
  return core_->config();
}

}  // namespace irithyll
