// LeveragingBagging checkpoint. Layout (ByteWriter):
//   version u8 (4) | config (encode_config, all but `threads`) | context (encode_context)
//   width u64 | seen, skipped, n_resets u64 | poisson_total f64
//   n_codes u64 | code bits u8 ... | n_members u64 | per member: rng u64 | kind str
//   ("tree", or the base model's catalogue name) | tree, or u64 size and the
//   base model's record | ADWIN
// `threads` is left out so any thread count writes the same bytes; a decoded
// ensemble trains on one.
// Versions 1 and 2 held one ensemble-wide rng u64 after the width and no
// member streams; decode() seeds member i's stream derive_seed(that state, i),
// so an old checkpoint keeps learning deterministically (not as the old code
// did: its one stream is gone). Version 1 had no kind (every member a tree).
// Versions 1 to 3 wrote each member tree with its binary config first;
// version 4 writes its state alone (its settings are the config's `tree`).
// decode() rebuilds the derived state from config and context, checks the
// codes (0/1, the count the config implies) and every member's shape.
#include <cmath>
#include <string>

#include "irithyll/core/config_codec.hpp"
#include "irithyll/ensemble/leveraging_bagging.hpp"

namespace irithyll {

namespace {
// 2: each member's kind, base models; 3: each member's random stream
constexpr std::uint8_t kLeveragingBaggingCodecVersion = 4;
constexpr std::string_view kTreeKind = "tree";

// Every settings row but the last (`threads`, a run-time setting).
std::span<const ConfigField<LeveragingBaggingConfig>> lb_stored_fields() {
  const auto all = LeveragingBagging::config_fields();
  return all.first(all.size() - 1);
}
}  // namespace

void LeveragingBagging::encode(ByteWriter& out) const {
  out.u8(kLeveragingBaggingCodecVersion);
  encode_config(lb_stored_fields(), config_, out);
  encode_context(context_, out);
  out.u64(width_);
  out.u64(seen_);
  out.u64(skipped_);
  out.u64(n_resets_);
  out.f64(poisson_total_);
  out.u64(codes_.size());
  for (std::uint8_t b : codes_) out.u8(b);
  out.u64(members_.size());
  for (const Member& m : members_) {
    out.u64(m.rng.state());
    if (m.model) {
      out.str(m.model->name());
      ByteWriter inner;
      m.model->encode(inner);
      out.u64(inner.data().size());
      out.bytes(inner.data());
    } else {
      out.str(kTreeKind);
      m.tree.encode(out);
    }
    m.detector.encode(out);
  }
}

Status LeveragingBagging::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("leveraging_bagging version");
  if (!in.ok()) return in.status();
  if (version < 1 || version > kLeveragingBaggingCodecVersion) return Status::corruption("leveraging_bagging: unknown record version " + std::to_string(version));
  Config config;
  // All rows: a `threads` record (never written) would still be in range.
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  config.threads = 1;
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  LeveragingBagging s(factory_);
  if (Status st = s.init(config, context); !st) return Status::corruption("leveraging_bagging: checkpoint: " + st.message());
  const std::uint64_t width = in.u64("width");
  const bool one_stream = version < 3;
  const std::uint64_t shared_rng = one_stream ? Xorshift64(in.u64("rng")).state() : 0;
  s.seen_ = in.u64("seen");
  s.skipped_ = in.u64("skipped");
  s.n_resets_ = in.u64("n_resets");
  s.poisson_total_ = in.f64("poisson_total");
  const std::size_t n_codes = in.read_count(1, "codes");
  if (!in.ok()) return in.status();
  if (width > (1u << 20) || (context.n_features != 0 && width != context.n_features) || s.skipped_ > s.seen_ ||
      !(s.poisson_total_ >= 0.0) || !std::isfinite(s.poisson_total_))
    return Status::corruption("leveraging_bagging: state out of range");
  if (n_codes != s.codes_.size()) return Status::corruption("leveraging_bagging: code count does not match");
  for (std::uint8_t& b : s.codes_) {
    b = in.u8("code");
    if (in.ok() && b > 1) return Status::corruption("leveraging_bagging: code bit out of range");
  }
  const std::uint64_t n_members = in.u64("n_members");
  if (!in.ok()) return in.status();
  s.width_ = width;
  if (n_members != (width > 0 ? config.n_models : 0))
    return Status::corruption("leveraging_bagging: member count does not match");
  s.members_.clear();
  const std::size_t k = s.coded_ ? 2 : context.n_classes;
  for (std::uint64_t i = 0; i < n_members; ++i) {
    Member m;
    m.rng = Xorshift64(one_stream ? derive_seed(shared_rng, i) : in.u64("member rng"));
    const std::string kind = version >= 2 ? in.str("member kind") : std::string(kTreeKind);
    if (!in.ok()) return in.status();
    if (kind == kTreeKind) {
      if (!config.base_model.empty()) return Status::corruption("leveraging_bagging: a tree member under a base model");
      IRITHYLL_RETURN_IF_ERROR(version >= 4 ? m.tree.decode(in, config.tree) : m.tree.decode_with_config(in));
      if (m.tree.task() != Task::kClassification || m.tree.n_classes() != k || m.tree.n_features() != width ||
          m.tree.subspace() != width)
        return Status::corruption("leveraging_bagging: member tree shape does not match");
    } else {
      if (config.base_model.empty()) return Status::corruption("leveraging_bagging: a base-model member without a base model");
      if (factory_.blank == nullptr)
        return Status::invalid_argument("leveraging_bagging: this instance has no model factory to decode with");
      // Only the kind the config's base-model builds: a record cannot nest
      // models its own settings do not name.
      if (kind != s.base_kind_) return Status::corruption("leveraging_bagging: member kind '" + kind + "' is not what base-model builds");
      const std::size_t size = in.read_count(1, "member state");
      if (!in.ok()) return in.status();
      m.model = factory_.blank(kind);
      if (m.model == nullptr) return Status::corruption("leveraging_bagging: unknown member kind '" + kind + "'");
      ByteReader inner(in.bytes(size, "member state"));
      if (!in.ok()) return in.status();
      IRITHYLL_RETURN_IF_ERROR(m.model->decode(inner).with_context("leveraging_bagging member '" + kind + "'"));
      if (!inner.at_end()) return Status::corruption("leveraging_bagging: member '" + kind + "' left bytes unread");
      if (m.model->task() != Task::kClassification || m.model->n_classes() != k ||
          (m.model->n_features() != 0 && m.model->n_features() != width))
        return Status::corruption("leveraging_bagging: member model shape does not match");
    }
    IRITHYLL_RETURN_IF_ERROR(m.detector.decode(in));
    s.members_.push_back(std::move(m));
  }
  s.route_trees_.reserve(s.members_.size());
  s.route_xs_.reserve(s.members_.size());
  *this = std::move(s);
  return Status::ok();
}

}  // namespace irithyll
