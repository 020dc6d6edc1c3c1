// The configuration fields shared by the RLS-readout learners that take a
// regeneration guard (mgrade, slstm, mamba; readout/readout_learner.hpp and
// readout_regeneration.hpp): task, n_classes, n_features, rls, warmup, seed
// and continual. This header holds their checks and their place in the
// learner's record, so that the learners keep only their own fields.
//
// Record layout (all learners of this family):
//   u32 record version (1; 2 when continual learning is on)
//   u8 task, u64 n_classes, u64 n_features      <- encode_shared_head
//   ... the learner's own fields ...
//   f64 rls lambda, f64 rls delta, u64 warmup, u64 seed,
//   [continual config, version 2 only]           <- encode_shared_tail
//   u64 samples seen, bool built, state          <- RlsReadoutLearner::encode_state
//
// Error messages carry the learner's name ("mgrade: ...") and read field
// labels as "<name> <field>", as they did when each learner wrote its own.
// Config: any struct with the fields above (a template, so no base struct
// changes the learners' public configs). Cost: nothing per sample; decode
// builds a few short label strings. Thread safety: free functions.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/nn/continual/continual_config.hpp"
#include "readout/rls.hpp"

namespace irithyll::nn {

// The check that opens the learner's validate().
template <class Config>
Status check_shared_task(std::string_view name, const Config& c) {
  if (c.task == Task::kClassification && (c.n_classes < 2 || c.n_classes > 1024))
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
void encode_shared_head(const Config& c, ByteWriter& out) {
  // Version 2 adds the continual configuration (and, when built, its state
  // after the readout); without continual learning the bytes are version 1's.
  out.u32(c.continual.enabled() ? 2 : 1);
  out.u8(static_cast<std::uint8_t>(c.task));
  out.u64(c.n_classes);
  out.u64(c.n_features);
}

template <class Config>
void encode_shared_tail(const Config& c, ByteWriter& out) {
  out.f64(c.rls.forgetting_factor);
  out.f64(c.rls.delta);
  out.u64(c.warmup);
  out.u64(c.seed);
  if (c.continual.enabled()) encode_continual_config(c.continual, out);
}

// What the shared parts of the record hold besides config fields. The task
// byte stays raw: each learner checks it (with its own enums) once the whole
// header has been read.
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

// Reads what encode_shared_head wrote. Only an unknown record version is an
// error here; a truncated read is reported by decode_shared_tail.
template <class Config>
Status decode_shared_head(std::string_view name, Config& c, ByteReader& in, SharedRecord& r) {
  detail::FieldLabel label(name);
  r.version = in.u32(label("record version"));
  if ((r.version != 1 && r.version != 2) && in.ok())
    return Status::corruption(std::string(name) + ": unsupported record version");
  r.task = in.u8(label("task"));
  c.n_classes = in.u64(label("n_classes"));
  c.n_features = in.u64(label("n_features"));
  return Status::ok();
}

// Reads what encode_shared_tail wrote, then the sample count and built flag
// that open RlsReadoutLearner's state; fails on any truncated read so far.
template <class Config>
Status decode_shared_tail(std::string_view name, Config& c, ByteReader& in, SharedRecord& r) {
  detail::FieldLabel label(name);
  c.rls.forgetting_factor = in.f64(label("rls lambda"));
  c.rls.delta = in.f64(label("rls delta"));
  c.warmup = in.u64(label("warmup"));
  c.seed = in.u64(label("seed"));
  if (r.version == 2 && in.ok()) {
    auto cc = decode_continual_config(in);
    if (!cc.is_ok()) return cc.status();
    c.continual = *cc;
  }
  r.n_seen = in.u64(label("samples seen"));
  r.built = in.boolean(label("built"));
  if (!in.ok()) return in.status();
  return Status::ok();
}

// A decoded configuration that validate() refuses is a corrupt record.
inline Status bad_decoded_config(std::string_view name, const Status& why) {
  return Status::corruption(std::string(name) + ": bad configuration: " + why.message());
}

}  // namespace irithyll::nn
