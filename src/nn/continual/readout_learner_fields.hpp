// The parts shared by the RLS-readout learners that take a regeneration
// guard (mgrade, slstm, mamba; readout/readout_core.hpp and
// readout_regeneration.hpp): the checks of the learner context, the RLS and
// continual settings, and their place in the learner's record, so that the
// learners keep only their own fields.
//
// Record layout (all learners of this family):
//   version 3:  u32 3, the settings by name (encode_config over the learner's
//               field table), the learner context (encode_context: its
//               n_features is the width in use once built)
//                                                <- encode_shared_head
//   versions 1 and 2 (read only):
//               u32 version, u8 task, u64 n_classes, u64 n_features,
//               ... the learner's own fields ...,
//               f64 rls lambda, f64 rls delta, u64 warmup, u64 seed,
//               [continual config, version 2 only]
//   u64 samples seen, bool built, state          <- RlsReadoutCore::encode_state
//
// Error messages carry the learner's name ("mgrade: ...") and read field
// labels as "<name> <field>", as they did when each learner wrote its own.
// Config: any struct with `rls`, `warmup` and `continual` members (a
// template, so no base struct changes the learners' public configs). Cost:
// nothing per sample; decode builds a few short label strings. Thread
// safety: free functions.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_codec.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/nn/continual/continual_config.hpp"
#include "readout/rls.hpp"

namespace irithyll::nn {

inline constexpr std::uint32_t kReadoutRecordVersion = 3;

// The check that opens the learner's validate().
inline Status check_shared_task(std::string_view name, const LearnerContext& context) {
  if (context.task == Task::kClassification && (context.n_classes < 2 || context.n_classes > 1024))
    return Status::invalid_argument(std::string(name) + ": classification needs 2..1024 classes");
  return Status::ok();
}

// The checks that close it. `extractor` names what the learner does not
// train by gradient ("cell", "SSM"), which is why only regen applies.
template <class Config>
Status check_shared_readout(std::string_view name, const Config& c, std::string_view extractor) {
  IRITHYLL_RETURN_IF_ERROR(check_rls_config(name, c.rls));
  IRITHYLL_RETURN_IF_ERROR(c.continual.validate());
  if (c.continual.enabled() && c.continual.kind != ContinualKind::kRegen)
    return Status::invalid_argument(std::string(name) + ": the " + std::string(extractor) +
                                    " is not trained by gradient; only --continual regen applies");
  return Status::ok();
}

template <class Config>
void encode_shared_head(std::span<const ConfigField<Config>> fields, const Config& c, const LearnerContext& context,
                        ByteWriter& out) {
  out.u32(kReadoutRecordVersion);
  encode_config(fields, c, out);
  encode_context(context, out);
}

// What the shared parts of a version 1 or 2 record hold besides config
// fields. The task byte stays raw until the whole header has been read.
struct SharedRecord {
  std::uint32_t version = 0;
  std::uint8_t task = 0;
  std::uint64_t n_seen = 0;
  bool built = false;
};

namespace detail {
// "<name> <field>", the label a truncated read reports.
class FieldLabel {
 public:
  explicit FieldLabel(std::string_view name) : text_(name) {}
  const char* operator()(std::string_view field) {
    text_.resize(prefix_);
    text_ += ' ';
    text_ += field;
    return text_.c_str();
  }

 private:
  std::string text_;
  std::size_t prefix_ = text_.size();
};
}  // namespace detail

// Reads the record version and, for version 3, the settings and the
// context; for versions 1 and 2 the task byte, classes and width (the
// learner then reads its own fields, and decode_shared_tail the rest).
template <class Config>
Status decode_shared_head(std::string_view name, std::span<const ConfigField<Config>> fields, Config& c,
                          LearnerContext& context, ByteReader& in, SharedRecord& r) {
  detail::FieldLabel label(name);
  r.version = in.u32(label("record version"));
  if (!in.ok()) return in.status();
  if (r.version == kReadoutRecordVersion) {
    IRITHYLL_RETURN_IF_ERROR(decode_config(name, fields, in, c));
    IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
    if (context.task != Task::kClassification && context.n_classes != 0)
      return Status::corruption(std::string(name) + ": a regressor with classes");
    c.continual.seed = context.seed;
    return Status::ok();
  }
  if (r.version != 1 && r.version != 2) return Status::corruption(std::string(name) + ": unsupported record version");
  r.task = in.u8(label("task"));
  context.n_classes = in.u64(label("n_classes"));
  context.n_features = in.u64(label("n_features"));
  return Status::ok();
}

// Versions 1 and 2: reads the RLS, warm-up, seed and continual fields and
// settles the task; every version: the sample count and built flag that open
// RlsReadoutCore's state. Fails on any truncated read so far.
template <class Config>
Status decode_shared_tail(std::string_view name, Config& c, LearnerContext& context, ByteReader& in,
                          SharedRecord& r) {
  detail::FieldLabel label(name);
  if (r.version != kReadoutRecordVersion) {
    c.rls.forgetting_factor = in.f64(label("rls lambda"));
    c.rls.delta = in.f64(label("rls delta"));
    c.warmup = in.u64(label("warmup"));
    context.seed = in.u64(label("seed"));
    if (r.version == 2 && in.ok()) {
      auto cc = decode_continual_config(in);
      if (!cc.is_ok()) return cc.status();
      c.continual = *cc;
    }
  }
  r.n_seen = in.u64(label("samples seen"));
  r.built = in.boolean(label("built"));
  if (!in.ok()) return in.status();
  if (r.version != kReadoutRecordVersion) {
    if (r.task > 1) return Status::corruption(std::string(name) + ": bad task");
    context.task = static_cast<Task>(r.task);
    if (context.task != Task::kClassification) context.n_classes = 0;
  }
  return Status::ok();
}

// A decoded configuration that validate() refuses is a corrupt record.
inline Status bad_decoded_config(std::string_view name, const Status& why) {
  return Status::corruption(std::string(name) + ": bad configuration: " + why.message());
}

}  // namespace irithyll::nn
