#include "irithyll/cluster/clusterer.hpp"

#include <cmath>
#include <string>

#include "core/crc32.hpp"
#include "irithyll/cluster/registry.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {
namespace {

constexpr std::uint32_t kMagic = 0x4C435249;  // "IRCL" little-endian
// 1: each model's settings as fixed binary fields; 2: by name.
constexpr std::uint16_t kVersion = 2;
// Rows wider than this are refused by decode (a hostile width would make
// every later allocation huge).
constexpr std::uint64_t kMaxFeatures = std::uint64_t{1} << 20;

}  // namespace

namespace cluster_detail {

Status SampleGate::admit(std::string_view model, std::span<const double> x, double weight, bool& learn) {
  learn = false;
  if (x.empty())
    return Status::invalid_argument(std::string(model) + ": a sample needs at least one feature");
  if (n_features != 0 && x.size() != n_features)
    return Status::invalid_argument(std::string(model) + ": sample has " + std::to_string(x.size()) +
                                    " features, the model learned " + std::to_string(n_features));
  if (x.size() > kMaxFeatures)
    return Status::invalid_argument(std::string(model) + ": more than 2^20 features");
  bool finite = weight_admissible(weight);
  for (const double v : x) finite = finite && std::isfinite(v);
  if (!finite) {
    ++n_ignored;
    return Status::ok();
  }
  n_features = x.size();
  ++n_seen;
  learn = true;
  return Status::ok();
}

bool SampleGate::can_predict(std::span<const double> x) const {
  if (n_features == 0 || x.size() != n_features) return false;
  for (const double v : x)
    if (!std::isfinite(v)) return false;
  return true;
}

void SampleGate::encode(ByteWriter& out) const {
  out.u64(n_features);
  out.u64(n_seen);
  out.u64(n_ignored);
}

void SampleGate::decode(ByteReader& in) {
  const std::uint64_t d = in.u64("n_features");
  n_seen = in.u64("n_samples_seen");
  n_ignored = in.u64("n_ignored");
  in.expect(d <= kMaxFeatures, "n_features <= 2^20");
  in.expect(d > 0 || n_seen == 0, "n_features set once a sample was learned");
  n_features = in.ok() ? static_cast<std::size_t>(d) : 0;
}

}  // namespace cluster_detail

std::vector<std::uint8_t> save_clusterer(const Clusterer& model) {
  ByteWriter out;
  out.u32(kMagic);
  out.u16(kVersion);
  out.str(model.name());
  model.encode(out);
  out.u32(crc32(out.data()));
  return out.take();
}

Result<std::unique_ptr<Clusterer>> load_clusterer(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < 4 + 2 + 8 + 4) return Status::corruption("clusterer checkpoint: too short");
  const std::size_t body = bytes.size() - 4;
  ByteReader tail(bytes.subspan(body));
  if (tail.u32() != crc32(bytes.first(body)))
    return Status::corruption("clusterer checkpoint: checksum mismatch (damaged or not a clusterer checkpoint)");
  ByteReader in(bytes.first(body));
  if (in.u32("magic") != kMagic) return Status::corruption("clusterer checkpoint: bad magic (not a clusterer checkpoint)");
  const std::uint16_t version = in.u16("version");
  if (in.ok() && version != 1 && version != kVersion)
    return Status::corruption("clusterer checkpoint: format version " + std::to_string(version) + ", expected " +
                              std::to_string(kVersion));
  const std::string name = in.str("model name");
  if (!in.ok()) return in.status();
  const ClustererEntry* e = find_clusterer(name);
  if (e == nullptr) return Status::corruption("clusterer checkpoint: unknown model '" + name + "'");
  std::unique_ptr<Clusterer> model = e->make_blank();
  IRITHYLL_RETURN_IF_ERROR(version == 1 ? model->decode_v1(in) : model->decode(in));
  if (!in.at_end())
    return Status::corruption("clusterer checkpoint: " + std::to_string(in.remaining()) + " bytes after the state");
  return model;
}

}  // namespace irithyll
