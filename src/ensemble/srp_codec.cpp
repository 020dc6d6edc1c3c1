// StreamingRandomPatches checkpoint. Layout (ByteWriter):
//   version u8 (3) | config (encode_config, all but `threads`) | context (encode_context)
//   width u64 | seen, skipped, n_warnings, n_drifts u64 | n_members u64
//   per member: rng u64 | learned | has_background bool [+ learned] | warning ADWIN |
//               drift ADWIN | correct f64 | seen f64
//   learned: n_features u64 | feature indices u32 ... | tree
// `threads` is left out so any thread count writes the same bytes; a decoded
// ensemble trains on one.
// Version 1 held one ensemble-wide rng u64 after the width and no member
// streams; decode() still reads it and seeds member i's stream
// derive_seed(that state, i), so an old checkpoint keeps learning
// deterministically (not as the old code did: its one stream is gone).
// Versions 1 and 2 wrote each tree with its binary config first; version 3
// writes its state alone (member_tree_config() of its subspace gives its
// settings), so a new setting changes no layout.
// decode() checks the member count against the config, every subspace
// (ascending, inside the width, of the configured size) and every tree's shape.
#include <cmath>
#include <string>

#include "irithyll/core/config_codec.hpp"
#include "irithyll/ensemble/srp.hpp"

namespace irithyll {

namespace {

constexpr std::uint8_t kSrpFormatV1 = 1;
constexpr std::uint8_t kSrpFormatV2 = 2;
constexpr std::uint8_t kSrpCodecVersion = 3;

// Every settings row but the last (`threads`, a run-time setting).
std::span<const ConfigField<SRPConfig>> srp_stored_fields() {
  const auto all = StreamingRandomPatches::config_fields();
  return all.first(all.size() - 1);
}

}  // namespace

bool StreamingRandomPatches::check_learned(const Learned& l) const {
  if (l.features.size() != config_.subspace(width_)) return false;
  for (std::size_t j = 0; j < l.features.size(); ++j)
    if (l.features[j] >= width_ || (j > 0 && l.features[j] <= l.features[j - 1])) return false;
  const Vfdt& t = l.tree;
  const std::size_t k = context_.task == Task::kClassification ? context_.n_classes : 0;
  return t.task() == context_.task && t.n_classes() == k && t.n_features() == l.features.size() &&
         t.subspace() == l.features.size();
}

void StreamingRandomPatches::encode(ByteWriter& out) const {
  out.u8(kSrpCodecVersion);
  encode_config(srp_stored_fields(), config_, out);
  encode_context(context_, out);
  out.u64(width_);
  out.u64(seen_);
  out.u64(skipped_);
  out.u64(n_warnings_);
  out.u64(n_drifts_);
  out.u64(members_.size());
  auto put = [&](const Learned& l) {
    out.u64(l.features.size());
    for (std::uint32_t f : l.features) out.u32(f);
    l.tree.encode(out);
  };
  for (const Member& m : members_) {
    out.u64(m.rng.state());
    put(m);
    out.boolean(m.background.has_value());
    if (m.background.has_value()) put(*m.background);
    m.warning.encode(out);
    m.drift.encode(out);
    out.f64(m.correct);
    out.f64(m.seen);
  }
}

Status StreamingRandomPatches::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("srp version");
  if (!in.ok()) return in.status();
  if (version < kSrpFormatV1 || version > kSrpCodecVersion) return Status::corruption("srp: unknown record version " + std::to_string(version));
  Config config;
  // All rows: a `threads` record (never written) would still be in range.
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  config.threads = 1;
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  StreamingRandomPatches s;
  if (Status st = s.init(config, context); !st) return Status::corruption("srp: checkpoint: " + st.message());
  const std::uint64_t width = in.u64("srp width");
  const bool one_stream = version == kSrpFormatV1;
  const std::uint64_t shared_rng = one_stream ? Xorshift64(in.u64("srp rng")).state() : 0;
  s.seen_ = in.u64("srp seen");
  s.skipped_ = in.u64("srp skipped");
  s.n_warnings_ = in.u64("srp warnings");
  s.n_drifts_ = in.u64("srp drifts");
  const std::uint64_t n_members = in.u64("srp members");
  if (!in.ok()) return in.status();
  if (width > (1u << 20) || (context.n_features != 0 && width != context.n_features))
    return Status::corruption("srp: bad feature count");
  s.width_ = width;
  if (n_members != (width > 0 ? config.n_models : 0)) return Status::corruption("srp: member count does not match");
  s.members_.clear();
  auto get = [&](Learned& l) -> Status {
    const std::size_t n = in.read_count(4, "srp subspace");
    if (!in.ok()) return in.status();
    if (n != s.config_.subspace(width)) return Status::corruption("srp: subspace size does not match");
    l.features.resize(n);
    for (std::uint32_t& f : l.features) f = in.u32("srp feature");
    IRITHYLL_RETURN_IF_ERROR(version > kSrpFormatV2 ? l.tree.decode(in, s.member_tree_config(l.features))
                                                    : l.tree.decode_with_config(in));
    if (!s.check_learned(l)) return Status::corruption("srp: member subspace or tree shape does not match");
    return Status::ok();
  };
  for (std::uint64_t i = 0; i < n_members; ++i) {
    Member m;
    m.rng = Xorshift64(one_stream ? derive_seed(shared_rng, i) : in.u64("srp member rng"));
    IRITHYLL_RETURN_IF_ERROR(get(m));
    const bool has_bg = in.boolean("srp has_background");
    if (!in.ok()) return in.status();
    if (has_bg) {
      Learned bg;
      IRITHYLL_RETURN_IF_ERROR(get(bg));
      m.background.emplace(std::move(bg));
    }
    IRITHYLL_RETURN_IF_ERROR(m.warning.decode(in));
    IRITHYLL_RETURN_IF_ERROR(m.drift.decode(in));
    m.correct = in.f64("srp correct");
    m.seen = in.f64("srp seen");
    if (!in.ok()) return in.status();
    // The vote weight is correct / seen: a share of the member's weight.
    if (!(m.correct >= 0.0 && m.correct <= m.seen && std::isfinite(m.seen)))
      return Status::corruption("srp: bad member accuracy");
    s.members_.push_back(std::move(m));
  }
  s.size_buffers();
  *this = std::move(s);
  return Status::ok();
}

}  // namespace irithyll
