// ReservoirLearnerBase<Derived, Config>: the Learner plumbing shared by the
// learners that drive a dynamical system with the stream and read its state:
// esn, ngrc (through ReadoutBankLearner, readout_bank_learner.hpp) and
// spikenet (a liquid state machine). It owns what they all hold --
// the config, the width taken from the first sample (n_features_, kept apart
// from config.n_features, which stays 0 for "from the first sample" and is
// written as such), the sample count -- and implements the accessors, the
// validating factory and the shared parts of validate / reset / encode /
// decode once. Each learner keeps its own flow (learn_one, predict_one, ...),
// which differ: the ESN caches a peeked step, NG-RC waits for its taps, the
// spiking network trains itself.
//
// Record layout shared by the three (the learner's fields sit in between):
//   u8 task, u64 n_classes, u64 n_features      <- encode_head / decode_head
//   ... the learner's configuration ...
//   u64 active n_features, u64 samples seen      <- encode_counts / decode_counts
//   ... the learner's state when active n_features > 0 ...
//
// Derived provides kName and a constructor from Config. Cost: nothing per
// sample (no virtual calls besides the Learner interface). Thread safety: one
// owner.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"
#include "readout/rls.hpp"

namespace irithyll::nn {

// Config::validate() checks shared by the family: a known task, and for
// classification a class count in [2, max_classes].
inline Status check_reservoir_task(std::string_view name, Task task, std::size_t n_classes, std::size_t max_classes) {
  if (task == Task::kClassification && (n_classes < 2 || n_classes > max_classes))
    return Status::invalid_argument(std::string(name) + ": classification needs n_classes in [2, " +
                                    std::to_string(max_classes) + "]");
  if (task != Task::kClassification && task != Task::kRegression)
    return Status::invalid_argument(std::string(name) + ": unknown task");
  return Status::ok();
}

// `delta_rule` ends the message for a bad delta ("> 0", "finite and > 0").
template <class Derived, class Config>
class ReservoirLearnerBase : public Learner {
 public:
  static Result<std::unique_ptr<Derived>> make(const Config& config) {
    IRITHYLL_RETURN_IF_ERROR(config.validate());
    return std::make_unique<Derived>(config);
  }

  std::string_view name() const override { return Derived::kName; }
  Task task() const override { return config_.task; }
  std::size_t n_classes() const override { return config_.task == Task::kClassification ? config_.n_classes : 0; }
  std::size_t n_features() const override { return n_features_; }
  std::uint64_t n_samples_seen() const override { return n_seen_; }
  const Config& config() const noexcept { return config_; }

 protected:
  ReservoirLearnerBase() = default;
  explicit ReservoirLearnerBase(const Config& config) : config_(config) {}

  // predict_proba_one's answer when the learner cannot score the sample.
  static void fill_uniform(std::span<double> proba) noexcept {
    std::fill(proba.begin(), proba.end(), proba.empty() ? 0.0 : 1.0 / static_cast<double>(proba.size()));
  }

  // reset()'s first step: forget the count, and a learner configured without
  // a width returns to blank (its width was the first sample's). True when
  // that was all there was to do.
  bool reset_to_blank() {
    n_seen_ = 0;
    if (config_.n_features != 0) return false;
    static_cast<Derived&>(*this) = Derived(config_);
    return true;
  }

  void encode_head(ByteWriter& out) const {
    out.u8(static_cast<std::uint8_t>(config_.task));
    out.u64(config_.n_classes);
    out.u64(config_.n_features);
  }
  void encode_counts(ByteWriter& out) const {
    out.u64(n_features_);
    out.u64(n_seen_);
  }
  // Returns the raw task byte (c.task is set from it, 1 = classification);
  // check it with bad_task_code once the whole header has been read.
  static std::uint8_t decode_head(Config& c, ByteReader& in) {
    const std::uint8_t task = in.u8("task");
    c.task = task == 1 ? Task::kClassification : Task::kRegression;
    c.n_classes = in.u64("n_classes");
    c.n_features = in.u64("n_features");
    return task;
  }
  struct Counts {
    std::uint64_t n_features = 0, n_seen = 0;
  };
  static Counts decode_counts(ByteReader& in) {
    Counts k;
    k.n_features = in.u64("active n_features");
    k.n_seen = in.u64("n_samples_seen");
    return k;
  }
  static Status check_task_code(std::uint8_t task) {
    if (task > 1) return Status::corruption(std::string(Derived::kName) + ": unknown task code");
    return Status::ok();
  }

  Config config_{};
  std::size_t n_features_ = 0;
  std::uint64_t n_seen_ = 0;
};

}  // namespace irithyll::nn
