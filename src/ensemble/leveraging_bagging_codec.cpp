// LeveragingBagging checkpoint. Layout (ByteWriter):
//   version u8 | config (encode_config) | context (encode_context)
//   width u64 | rng u64 | seen, skipped, n_resets u64 | poisson_total f64
//   n_codes u64 | code bits u8 ... | n_members u64 | per member: tree | ADWIN
// decode() rebuilds the derived state from config and context, checks the
// codes (0/1, the count the config implies) and every tree's shape.
#include <cmath>
#include <string>

#include "irithyll/core/config_codec.hpp"
#include "irithyll/ensemble/leveraging_bagging.hpp"

namespace irithyll {

namespace {
constexpr std::uint8_t kVersion = 1;
}

void LeveragingBagging::encode(ByteWriter& out) const {
  out.u8(kVersion);
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(width_);
  out.u64(rng_.state());
  out.u64(seen_);
  out.u64(skipped_);
  out.u64(n_resets_);
  out.f64(poisson_total_);
  out.u64(codes_.size());
  for (std::uint8_t b : codes_) out.u8(b);
  out.u64(members_.size());
  for (const Member& m : members_) {
    m.tree.encode(out);
    m.detector.encode(out);
  }
}

Status LeveragingBagging::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("leveraging_bagging version");
  if (!in.ok()) return in.status();
  if (version != kVersion) return Status::corruption("leveraging_bagging: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  LeveragingBagging s;
  if (Status st = s.init(config, context); !st) return Status::corruption("leveraging_bagging: checkpoint: " + st.message());
  const std::uint64_t width = in.u64("width");
  s.rng_.set_state(in.u64("rng"));
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
    IRITHYLL_RETURN_IF_ERROR(m.tree.decode(in));
    if (m.tree.task() != Task::kClassification || m.tree.n_classes() != k || m.tree.n_features() != width ||
        m.tree.subspace() != width)
      return Status::corruption("leveraging_bagging: member tree shape does not match");
    IRITHYLL_RETURN_IF_ERROR(m.detector.decode(in));
    s.members_.push_back(std::move(m));
  }
  *this = std::move(s);
  return Status::ok();
}

}  // namespace irithyll
