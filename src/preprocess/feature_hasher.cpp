#include "irithyll/preprocess/feature_hasher.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "common.hpp"
#include "core/field_rows.hpp"

namespace irithyll {
namespace {

using FeatureHasherRow = ConfigField<FeatureHasherConfig>;
constexpr std::uint8_t kFeatureHasherVersion = 1;
constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;

const std::array kFeatureHasherFields = {
    FeatureHasherRow{FieldInfo::integer("n-buckets", "64", "output columns").in(1, 1 << 22), IRITHYLL_FIELD_UINT(FeatureHasherConfig, n_buckets)},
    FeatureHasherRow{FieldInfo::text("columns", "", "columns hashed as name=value (categories), by name or index; empty: the text "
                                       "and --categorical columns; the others are hashed by name, times their value"),
        [](FeatureHasherConfig& c, std::string_view v) {
          c.columns = std::string(v);
          return Status::ok();
        },
        [](const FeatureHasherConfig& c) { return c.columns; }},
    FeatureHasherRow{FieldInfo::integer("seed", "0", "hash seed (not the run's seed: the hashing stays the same across runs)")
            .at_least(0),
        IRITHYLL_FIELD_UINT(FeatureHasherConfig, seed)},
};

std::uint64_t fnv(std::uint64_t h, std::string_view text) {
  for (const char ch : text) {
    h ^= static_cast<unsigned char>(ch);
    h *= kFnvPrime;
  }
  return h;
}

// SplitMix64's finaliser (Steele et al. 2014): spreads FNV's weak low bits.
std::uint64_t finish(std::uint64_t h, std::uint64_t seed) {
  h ^= seed + 0x9e3779b97f4a7c15ULL;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

}  // namespace

std::span<const ConfigField<FeatureHasherConfig>> FeatureHasher::config_fields() { return kFeatureHasherFields; }

std::uint64_t FeatureHasher::hash(std::string_view text, std::uint64_t seed) {
  return finish(fnv(kFnvOffset, text), seed);
}

Result<std::unique_ptr<FeatureHasher>> FeatureHasher::make(const Config& config, const TransformerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields(kName, config_fields(), config));
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::check_input_width(kName, context.n_features));
  auto cols = preprocess_detail::resolve_columns(kName, config.columns, context);
  if (!cols) return cols.status();
  auto t = std::make_unique<FeatureHasher>();
  t->config_ = config;
  t->n_in_ = context.n_features;
  t->columns_ = std::move(cols).value();
  std::vector<std::string> names;
  for (std::size_t i = 0; i < context.n_features; ++i) names.push_back(preprocess_detail::column_name(context, i));
  IRITHYLL_RETURN_IF_ERROR(t->build(std::move(names)));
  return t;
}

Status FeatureHasher::build(std::vector<std::string> names) {
  names_ = std::move(names);
  is_categorical_.assign(n_in_, 0);
  for (const std::uint32_t c : columns_) is_categorical_[c] = 1;
  prefix_.resize(n_in_);
  for (std::size_t i = 0; i < n_in_; ++i) {
    prefix_[i] = fnv(kFnvOffset, names_[i]);
    if (is_categorical_[i]) prefix_[i] = fnv(prefix_[i], "=");
  }
  return Status::ok();
}

void FeatureHasher::transform_one(std::span<const double> x, std::span<double> out) const {
  for (double& o : out) o = 0.0;
  if (out.empty()) return;
  const std::uint64_t n = out.size();
  const std::size_t d = x.size() < n_in_ ? x.size() : n_in_;
  for (std::size_t i = 0; i < d; ++i) {
    const double v = x[i];
    if (!std::isfinite(v)) continue;
    std::uint64_t h;
    double amount = v;
    if (is_categorical_[i]) {
      // Integers print as integers ("3", not "3.0"); others shortest round trip.
      char buf[32];
      const double r = std::nearbyint(v);
      const auto res = (r == v && std::fabs(v) < 9e15) ? std::to_chars(buf, buf + sizeof buf, static_cast<long long>(v))
                                                       : std::to_chars(buf, buf + sizeof buf, v);
      h = finish(fnv(prefix_[i], std::string_view(buf, static_cast<std::size_t>(res.ptr - buf))), config_.seed);
      amount = 1.0;
    } else {
      if (v == 0.0) continue;
      h = finish(prefix_[i], config_.seed);
    }
    const std::uint64_t bucket = (h >> 32) % n;
    out[bucket] += (h & 1) ? -amount : amount;
  }
}

std::size_t FeatureHasher::memory_bytes() const {
  std::size_t b = sizeof(*this) + columns_.capacity() * 4 + prefix_.capacity() * 8 + is_categorical_.capacity();
  for (const auto& s : names_) b += sizeof(s) + s.capacity();
  return b;
}

void FeatureHasher::encode(ByteWriter& out) const {
  preprocess_detail::encode_header(kFeatureHasherVersion, config_fields(), config_, n_in_, columns_, out);
  for (const auto& s : names_) out.str(s);
}

Status FeatureHasher::decode(ByteReader& in) {
  FeatureHasher t;
  IRITHYLL_RETURN_IF_ERROR(
      preprocess_detail::decode_header(kName, kFeatureHasherVersion, config_fields(), in, t.config_, t.n_in_, t.columns_));
  // Each name is at least its length prefix: a width beyond the record is corrupt.
  if (t.n_in_ > in.remaining() / 8) return Status::corruption("feature_hasher: names exceed the record");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < t.n_in_ && in.ok(); ++i) names.push_back(in.str("feature_hasher name"));
  if (!in.ok()) return in.status();
  IRITHYLL_RETURN_IF_ERROR(t.build(std::move(names)));
  *this = std::move(t);
  return Status::ok();
}

}  // namespace irithyll
