#include "irithyll/preprocess/normalizer.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "common.hpp"
#include "core/field_rows.hpp"

namespace irithyll {
namespace {

using NormalizerRow = ConfigField<NormalizerConfig>;
constexpr std::uint8_t kNormalizerVersion = 1;

const std::array kNormalizerFields = {
    NormalizerRow{FieldInfo::real("order", "2", "p of the Lp norm each sample is scaled to (1: sum of magnitudes, 2: Euclidean)")
            .in(1, 64),
        IRITHYLL_FIELD_REAL(NormalizerConfig, order)},
};

}  // namespace

std::span<const ConfigField<NormalizerConfig>> Normalizer::config_fields() { return kNormalizerFields; }

Result<std::unique_ptr<Normalizer>> Normalizer::make(const Config& config, const TransformerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields(kName, config_fields(), config));
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::check_input_width(kName, context.n_features));
  auto t = std::make_unique<Normalizer>();
  t->config_ = config;
  t->n_in_ = context.n_features;
  return t;
}

void Normalizer::transform_one(std::span<const double> x, std::span<double> out) const {
  const double p = config_.order;
  const std::size_t n = out.size() < x.size() ? out.size() : x.size();
  // Scaled by the largest magnitude first, so |x|^p neither overflows nor
  // underflows for large p.
  double scale = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    if (std::isfinite(x[i])) scale = std::fmax(scale, std::fabs(x[i]));
  double norm = 0.0;
  if (scale > 0.0) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(x[i])) continue;
      const double a = std::fabs(x[i]) / scale;
      sum += p == 2.0 ? a * a : p == 1.0 ? a : std::pow(a, p);
    }
    norm = scale * (p == 2.0 ? std::sqrt(sum) : p == 1.0 ? sum : std::pow(sum, 1.0 / p));
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double v = i < x.size() ? x[i] : std::numeric_limits<double>::quiet_NaN();
    out[i] = !std::isfinite(v) ? std::numeric_limits<double>::quiet_NaN() : norm > 0.0 ? v / norm : 0.0;
  }
}

void Normalizer::encode(ByteWriter& out) const {
  preprocess_detail::encode_header(kNormalizerVersion, config_fields(), config_, n_in_, {}, out);
}

Status Normalizer::decode(ByteReader& in) {
  Config c;
  std::size_t n = 0;
  std::vector<std::uint32_t> cols;
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::decode_header(kName, kNormalizerVersion, config_fields(), in, c, n, cols));
  config_ = c;
  n_in_ = n;
  return Status::ok();
}

}  // namespace irithyll
