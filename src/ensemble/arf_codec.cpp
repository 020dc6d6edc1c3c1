// AdaptiveRandomForest checkpoint. Layout (little-endian, ByteWriter):
//   version u32 (4) | settings by name (encode_config, all but `threads`) | context (encode_context)
//   samples_seen, skipped, n_warnings, n_drifts u64 | n_members u64
//   per member: rng u64 | tree | has_background bool [+ tree] | warning ADWIN | drift ADWIN | correct f64 | seen f64
// The trees' records hold no settings: every member's tree config is
// member_tree_config(), derived from the forest's named settings. Version 3
// wrote each tree with its binary config first; decode() still reads it.
// `threads` is left out so a forest trained on any number of threads writes
// the same bytes; a decoded forest trains on one.
// Version 2 held one forest-wide rng u64 after the context and no member
// streams; decode() still reads it and seeds member i's stream
// derive_seed(that state, i), so an old checkpoint keeps learning
// deterministically (not as the old code did: its one stream is gone).
// Version 1 held the settings as a fixed binary record and then task u8,
// n_classes, n_features, seed u64 (and the v2 rng); decode() still reads it.
// decode() checks the member count against the config and every tree's shape
// against the forest's, on top of each component's own checks.
#include <cmath>
#include <string>

#include "irithyll/core/config_codec.hpp"
#include "irithyll/ensemble/arf.hpp"

namespace irithyll {

namespace {
constexpr std::uint32_t kFormatV1 = 1;
constexpr std::uint32_t kFormatV2 = 2;
constexpr std::uint32_t kFormatV3 = 3;
constexpr std::uint32_t kArfCodecFormatVersion = 4;

// Every settings row but the last (`threads`, a run-time setting).
std::span<const ConfigField<ARFConfig>> arf_stored_fields() {
  const auto all = AdaptiveRandomForest::config_fields();
  return all.first(all.size() - 1);
}
}  // namespace

void AdaptiveRandomForest::encode(ByteWriter& out) const {
  out.u32(kArfCodecFormatVersion);
  encode_config(arf_stored_fields(), config_, out);
  encode_context(LearnerContext{task_, n_classes_, n_features_, seed_}, out);
  out.u64(samples_seen_);
  out.u64(skipped_);
  out.u64(n_warnings_);
  out.u64(n_drifts_);
  out.u64(members_.size());
  for (const Member& m : members_) {
    out.u64(m.rng.state());
    m.tree.encode(out);
    out.boolean(m.background.has_value());
    if (m.background.has_value()) m.background->encode(out);
    m.warning.encode(out);
    m.drift.encode(out);
    out.f64(m.correct);
    out.f64(m.seen);
  }
}

Status AdaptiveRandomForest::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("arf version");
  if (!in.ok()) return in.status();
  if (version < kFormatV1 || version > kArfCodecFormatVersion)
    return Status::corruption("arf: unknown record version " + std::to_string(version));
  AdaptiveRandomForest f;
  std::uint8_t task = 0;
  if (version == kFormatV1) {
    IRITHYLL_RETURN_IF_ERROR(f.config_.decode(in));
    task = in.u8("task");
    f.n_classes_ = in.u64("n_classes");
    f.n_features_ = in.u64("n_features");
    f.seed_ = in.u64("seed");
  } else {
    // All rows: a `threads` record (never written) would still be in range.
    IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, f.config_));
    f.config_.threads = 1;
    IRITHYLL_RETURN_IF_ERROR(f.config_.validate());
    LearnerContext context;
    IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
    task = static_cast<std::uint8_t>(context.task);
    f.n_classes_ = context.n_classes;
    f.n_features_ = context.n_features;
    f.seed_ = context.seed;
  }
  const bool one_stream = version < kFormatV3;
  const std::uint64_t forest_rng = one_stream ? Xorshift64(in.u64("rng")).state() : 0;
  f.samples_seen_ = in.u64("samples_seen");
  f.skipped_ = in.u64("skipped");
  f.n_warnings_ = in.u64("n_warnings");
  f.n_drifts_ = in.u64("n_drifts");
  const std::uint64_t n_members = in.u64("n_members");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("arf: bad task");
  f.task_ = static_cast<Task>(task);
  const bool cls = f.task_ == Task::kClassification;
  if (cls ? (f.n_classes_ < 2 || f.n_classes_ > 65536) : f.n_classes_ != 0) return Status::corruption("arf: bad class count");
  if (f.n_features_ > (1u << 20)) return Status::corruption("arf: bad feature count");
  if (n_members != (f.n_features_ > 0 ? f.config_.n_trees : 0)) return Status::corruption("arf: member count does not match");
  const std::size_t m = f.n_features_ > 0 ? f.config_.subspace(f.n_features_) : 0;
  const HoeffdingTreeConfig tree_config = f.member_tree_config();
  auto read_tree = [&](Vfdt& t) { return version > kFormatV3 ? t.decode(in, tree_config) : t.decode_with_config(in); };
  auto check = [&](const Vfdt& t) {
    return t.task() == f.task_ && t.n_classes() == f.n_classes_ && t.n_features() == f.n_features_ && t.subspace() == m;
  };
  for (std::uint64_t i = 0; i < n_members; ++i) {
    Member mem{Vfdt(), std::nullopt, Adwin(), Adwin(), 0.0, 0.0, Xorshift64()};
    mem.rng = Xorshift64(one_stream ? derive_seed(forest_rng, i) : in.u64("member rng"));
    IRITHYLL_RETURN_IF_ERROR(read_tree(mem.tree));
    if (!check(mem.tree)) return Status::corruption("arf: member tree shape does not match the forest");
    const bool has_bg = in.boolean("has_background");
    if (!in.ok()) return in.status();
    if (has_bg) {
      Vfdt bg;
      IRITHYLL_RETURN_IF_ERROR(read_tree(bg));
      if (!check(bg)) return Status::corruption("arf: background tree shape does not match the forest");
      mem.background.emplace(std::move(bg));
    }
    IRITHYLL_RETURN_IF_ERROR(mem.warning.decode(in));
    IRITHYLL_RETURN_IF_ERROR(mem.drift.decode(in));
    mem.correct = in.f64("correct");
    mem.seen = in.f64("seen");
    if (!in.ok()) return in.status();
    // The vote weight is correct / seen: a share of the member's weight.
    if (!(mem.correct >= 0.0 && mem.correct <= mem.seen && std::isfinite(mem.seen)))
      return Status::corruption("arf: bad member accuracy");
    f.members_.push_back(std::move(mem));
  }
  f.poisson_limit_ = std::exp(-f.config_.lambda);
  f.start_pool();  // threads = 1: no pool
  if (f.n_features_ > 0) f.size_scratch();
  *this = std::move(f);
  return Status::ok();
}

}  // namespace irithyll
