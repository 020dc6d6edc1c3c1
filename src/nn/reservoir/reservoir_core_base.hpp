// ReservoirCoreBase<Derived, Config>: the Core plumbing (no Learner: its box forwards to it) shared by the
// learners that drive a dynamical system with the stream and read its state:
// esn, ngrc (through ReadoutBankCore, readout_bank_core.hpp) and
// spikenet (a liquid state machine). It owns what they all hold -- the
// config (the model's settings), the learner context (task, classes, seed;
// its n_features stays 0 for "from the first sample" and is written as
// such), the width taken from the first sample (n_features_), the sample
// count -- and implements the accessors and the shared parts of reset /
// encode / decode once. Each learner keeps its own flow (learn_one,
// predict_one, ...), which differ: the ESN caches a peeked step, NG-RC waits
// for its taps, the spiking network trains itself.
//
// Record layout shared by the three (the learner's fields sit in between):
//   version 2:  u8 2, the settings by name (encode_config over the learner's
//               field table), the context (encode_context)
//                                               <- encode_head / decode_settings
//   version 1:  u8 task (0 or 1), u64 n_classes, u64 n_features, then the
//               learner's configuration as fixed fields
//                                               <- decode_v1_head (read only)
//   u64 active n_features, u64 samples seen      <- encode_counts / decode_counts
//   ... the learner's state when active n_features > 0 ...
//
// Derived provides kName, config_fields() and a constructor from (Config,
// LearnerContext). Cost: nothing per sample (no virtual calls besides the
// Learner interface). Thread safety: one owner.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_codec.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"
#include "readout/rls.hpp"

namespace irithyll::nn {

// The validate() checks shared by the family: a known task, and for
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
class ReservoirCoreBase {
 public:
  std::string_view name() const { return Derived::kName; }
  Task task() const { return context_.task; }
  std::size_t n_classes() const { return context_.task == Task::kClassification ? context_.n_classes : 0; }
  std::size_t n_features() const { return n_features_; }
  std::uint64_t n_samples_seen() const { return n_seen_; }
  const Config& config() const noexcept { return config_; }

 protected:
  ReservoirCoreBase() = default;
  // The context as the learner keeps it: no classes for regression, feature
  // names only for a width known up front.
  ReservoirCoreBase(const Config& config, const LearnerContext& context) : config_(config), context_(context) {
    context_.n_targets = 1;
    if (context_.task != Task::kClassification) context_.n_classes = 0;
    if (context_.feature_names.size() != context_.n_features) context_.feature_names.clear();
  }

  // predict_proba_one's answer when the learner cannot score the sample.
  static void fill_uniform(std::span<double> proba) noexcept {
    std::fill(proba.begin(), proba.end(), proba.empty() ? 0.0 : 1.0 / static_cast<double>(proba.size()));
  }

  // reset()'s first step: forget the count, and a learner configured without
  // a width returns to blank (its width was the first sample's). True when
  // that was all there was to do.
  bool reset_to_blank() {
    n_seen_ = 0;
    if (context_.n_features != 0) return false;
    static_cast<Derived&>(*this) = Derived(config_, context_);
    return true;
  }

  static constexpr std::uint8_t kRecordVersion = 2;

  void encode_head(ByteWriter& out) const {
    out.u8(kRecordVersion);
    encode_config(Derived::config_fields(), config_, out);
    encode_context(context_, out);
  }
  void encode_counts(ByteWriter& out) const {
    out.u64(n_features_);
    out.u64(n_seen_);
  }
  // The record's first byte: 2 (kRecordVersion) opens a version 2 record,
  // 0 or 1 is the task byte of a version 1 record (decode_v1_head reads on).
  static Status check_first_byte(std::uint8_t first, const ByteReader& in) {
    if (!in.ok()) return in.status();
    if (first > kRecordVersion)
      return Status::corruption(std::string(Derived::kName) + ": unknown record version " + std::to_string(first));
    return Status::ok();
  }
  // Version 2: the settings by name, then the context.
  static Status decode_settings(ByteReader& in, Config& c, LearnerContext& context) {
    IRITHYLL_RETURN_IF_ERROR(decode_config(Derived::kName, Derived::config_fields(), in, c));
    IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
    if (context.task != Task::kClassification && context.n_classes != 0)
      return Status::corruption(std::string(Derived::kName) + ": a regressor with classes");
    return Status::ok();
  }
  // Version 1, after its task byte `first`: classes and the configured width.
  static void decode_v1_head(std::uint8_t first, LearnerContext& context, ByteReader& in) {
    context.task = first == 1 ? Task::kClassification : Task::kRegression;
    const std::uint64_t classes = in.u64("n_classes");
    context.n_classes = context.task == Task::kClassification ? classes : 0;
    context.n_features = in.u64("n_features");
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

  Config config_{};
  LearnerContext context_{};
  std::size_t n_features_ = 0;
  std::uint64_t n_seen_ = 0;
};

}  // namespace irithyll::nn
