#include "irithyll/packed/class_bundle.hpp"

#include <algorithm>
#include <cmath>

#include "core/file_io.hpp"
#include "irithyll/packed/format.hpp"
#include "packed/le_bytes.hpp"

namespace irithyll::packed {
namespace {

constexpr std::size_t kMaxClasses = 4096;

using packed_detail::put_u16;
using packed_detail::put_u32;

Status bundle_error(const std::string& why) { return Status::corruption("packed class bundle: " + why); }

}  // namespace

bool is_class_bundle(std::span<const std::uint8_t> bytes) {
  return bytes.size() >= 4 && load_u32(bytes.data()) == kMagicBundle;
}

Result<std::vector<std::uint8_t>> pack_class_bundle(std::span<const std::vector<std::uint8_t>> members) {
  if (members.size() < 2 || members.size() > kMaxClasses)
    return Status::invalid_argument("packed class bundle: needs 2.." + std::to_string(kMaxClasses) + " members");
  std::vector<std::uint8_t> out;
  put_u32(out, kMagicBundle);
  put_u16(out, kBundleVersion);
  put_u16(out, static_cast<std::uint16_t>(members.size()));
  for (const auto& m : members) {
    if (m.size() > 0xFFFFFFFFu) return Status::invalid_argument("packed class bundle: member larger than 4 GiB");
    put_u32(out, static_cast<std::uint32_t>(m.size()));
  }
  for (const auto& m : members) out.insert(out.end(), m.begin(), m.end());
  return out;
}

Result<PackedClassBundle> PackedClassBundle::from_bytes(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < 8) return bundle_error("truncated header");
  if (load_u32(bytes.data()) != kMagicBundle) return bundle_error("bad magic (expected \"IRMC\")");
  const std::uint16_t version = load_u16(bytes.data() + 4);
  if (version != kBundleVersion)
    return Status::not_supported("packed class bundle: version " + std::to_string(version) + " (this build reads 1)");
  const std::size_t k = load_u16(bytes.data() + 6);
  if (k < 2 || k > kMaxClasses) return bundle_error("class count " + std::to_string(k) + " outside 2..4096");
  if (bytes.size() < 8 + 4 * k) return bundle_error("truncated length table");
  PackedClassBundle b;
  std::size_t at = 8 + 4 * k;
  for (std::size_t c = 0; c < k; ++c) {
    const std::size_t len = load_u32(bytes.data() + 8 + 4 * c);
    if (len > bytes.size() - at) return bundle_error("member " + std::to_string(c) + " runs past the end");
    auto m = PackedModel::from_bytes(std::vector<std::uint8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                                                               bytes.begin() + static_cast<std::ptrdiff_t>(at + len)));
    if (!m) return m.status().with_context("class " + std::to_string(c));
    if (c > 0 && m->format() != b.members_.front().format()) return bundle_error("members of mixed formats");
    b.members_.push_back(std::move(m).value());
    at += len;
  }
  if (at != bytes.size()) return bundle_error(std::to_string(bytes.size() - at) + " trailing bytes");
  return b;
}

Result<PackedClassBundle> PackedClassBundle::load(const std::string& path) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return bytes.status();
  auto b = from_bytes(*bytes);
  if (!b) return b.status().with_context(path);
  return b;
}

std::size_t PackedClassBundle::required_features() const {
  std::size_t n = 0;
  for (const PackedModel& m : members_)
    n = std::max<std::size_t>(n, m.info().n_features > 0 ? m.info().n_features : m.required_features());
  return n;
}

void PackedClassBundle::predict_scores(std::span<const float> x, std::span<float> scores) const {
  for (std::size_t c = 0; c < members_.size() && c < scores.size(); ++c) scores[c] = members_[c].predict(x);
}

void PackedClassBundle::predict_proba(std::span<const float> x, std::span<float> proba) const {
  predict_scores(x, proba);
  float top = -INFINITY;
  for (const float s : proba) top = std::max(top, s);
  float sum = 0.0f;
  for (float& p : proba) {
    p = std::exp(p - top);
    sum += p;
  }
  for (float& p : proba) p /= sum;
}

}  // namespace irithyll::packed
