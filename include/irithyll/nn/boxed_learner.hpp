// BoxedLearner<Core, Config>: the public face of a neural learner whose
// machinery (layers, cells, readouts, continual-learning guards) is internal.
// The learner's state lives in a Core (src/, the whole learner as it was
// written) held by pointer, so this header needs only the Core's name and the
// public Config. Every Learner call forwards to the Core: one indirection per
// call, none per feature or per step inside it.
//
// Value semantics: copies are deep (kCopyable learners), moves steal the Core;
// a moved-from learner may only be assigned to or destroyed. The member
// definitions are in src/nn/boxed_learner_impl.hpp, instantiated once per
// learner in its .cpp. core() is for src/, tests and benches, which include
// the Core's internal header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

template <class Core, class Config, bool kCopyable = true>
class BoxedLearner : public Learner {
 public:
  ~BoxedLearner() override;
  BoxedLearner(BoxedLearner&& other) noexcept;
  BoxedLearner& operator=(BoxedLearner&& other) noexcept;
  BoxedLearner(const BoxedLearner& other)
    requires(kCopyable);
  BoxedLearner& operator=(const BoxedLearner& other)
    requires(kCopyable);

  std::string_view name() const override;
  Task task() const override;
  std::size_t n_classes() const override;
  std::size_t n_features() const override;
  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;
  void predict_batch(std::span<const double> rows, std::size_t n_features, std::span<double> out) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override;
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  // The configuration the learner was built with (its catalogue settings).
  const Config& config() const noexcept;

  // Internal: the learner's machinery (callers include the Core's header).
  Core& core() noexcept { return *core_; }
  const Core& core() const noexcept { return *core_; }

 protected:
  BoxedLearner();
  BoxedLearner(const Config& config, const LearnerContext& context);

 private:
  std::unique_ptr<Core> core_;
};

// The body of a boxed learner's make(): the field table's ranges, then the
// learner's own cross-field rules (T::validate), then construction.
template <class T>
Result<std::unique_ptr<T>> make_boxed(const typename T::Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<typename T::Config>(T::kName, T::config_fields(), config));
  IRITHYLL_RETURN_IF_ERROR(T::validate(config, context));
  return std::make_unique<T>(config, context);
}

}  // namespace irithyll
