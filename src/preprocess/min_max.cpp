#include "irithyll/preprocess/min_max.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "common.hpp"
#include "core/field_rows.hpp"

namespace irithyll {
namespace {

using MinMaxRow = ConfigField<MinMaxConfig>;
constexpr std::uint8_t kMinMaxVersion = 1;
constexpr double kInf = std::numeric_limits<double>::infinity();

const std::array kMinMaxFields = {
    MinMaxRow{FieldInfo::real("lo", "0", "lower end of the output range"), IRITHYLL_FIELD_REAL(MinMaxConfig, lo)},
    MinMaxRow{FieldInfo::real("hi", "1", "upper end of the output range (> lo)"), IRITHYLL_FIELD_REAL(MinMaxConfig, hi)},
    MinMaxRow{FieldInfo::boolean("clip", "on", "clamp values beyond the learned bounds into [lo, hi]"),
        IRITHYLL_FIELD_BOOL(MinMaxConfig, clip)},
};

}  // namespace

std::span<const ConfigField<MinMaxConfig>> MinMaxScaler::config_fields() { return kMinMaxFields; }

Result<std::unique_ptr<MinMaxScaler>> MinMaxScaler::make(const Config& config, const TransformerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields(kName, config_fields(), config));
  if (!(config.lo < config.hi))
    return Status::invalid_argument("min_max: lo = " + format_field_real(config.lo) + " must be below hi = " +
                                    format_field_real(config.hi));
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::check_input_width(kName, context.n_features));
  auto t = std::make_unique<MinMaxScaler>();
  t->config_ = config;
  t->n_in_ = context.n_features;
  t->reset();
  return t;
}

void MinMaxScaler::learn_one(std::span<const double> x) {
  const std::size_t n = std::min(x.size(), n_in_);
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) continue;
    min_[i] = std::min(min_[i], x[i]);
    max_[i] = std::max(max_[i], x[i]);
  }
}

void MinMaxScaler::transform_one(std::span<const double> x, std::span<double> out) const {
  const double lo = config_.lo, hi = config_.hi, mid = lo + 0.5 * (hi - lo);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double v = i < x.size() ? x[i] : std::numeric_limits<double>::quiet_NaN();
    if (!std::isfinite(v)) {
      out[i] = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    const double span = max_[i] - min_[i];  // -inf (or NaN-free -inf - inf) before a value
    if (!(span >= std::numeric_limits<double>::epsilon())) {
      out[i] = mid;
      continue;
    }
    double z = lo + (v - min_[i]) / span * (hi - lo);
    if (config_.clip) z = std::clamp(z, lo, hi);
    out[i] = z;
  }
}

void MinMaxScaler::reset() {
  min_.assign(n_in_, kInf);
  max_.assign(n_in_, -kInf);
}

std::size_t MinMaxScaler::memory_bytes() const {
  return sizeof(*this) + (min_.capacity() + max_.capacity()) * sizeof(double);
}

void MinMaxScaler::encode(ByteWriter& out) const {
  preprocess_detail::encode_header(kMinMaxVersion, config_fields(), config_, n_in_, {}, out);
  out.f64s(min_);
  out.f64s(max_);
}

Status MinMaxScaler::decode(ByteReader& in) {
  Config c;
  std::size_t n = 0;
  std::vector<std::uint32_t> cols;
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::decode_header(kName, kMinMaxVersion, config_fields(), in, c, n, cols));
  std::vector<double> mn, mx;
  if (!preprocess_detail::read_exact(in, n, mn, "min_max minimum") ||
      !preprocess_detail::read_exact(in, n, mx, "min_max maximum"))
    return in.status();
  if (!(c.lo < c.hi)) return Status::corruption("min_max: lo is not below hi");
  for (std::size_t i = 0; i < n; ++i)
    if (std::isnan(mn[i]) || std::isnan(mx[i]) || (mn[i] > mx[i] && !(mn[i] == kInf && mx[i] == -kInf)))
      return Status::corruption("min_max: bounds of feature " + std::to_string(i) + " are inconsistent");
  config_ = c;
  n_in_ = n;
  min_ = std::move(mn);
  max_ = std::move(mx);
  return Status::ok();
}

}  // namespace irithyll
