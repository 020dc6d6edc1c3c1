#include "irithyll/preprocess/polynomial.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "common.hpp"
#include "core/field_rows.hpp"

namespace irithyll {
namespace {

using PolynomialRow = ConfigField<PolynomialConfig>;
constexpr std::uint8_t kPolynomialVersion = 1;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::array kPolynomialFields = {
    PolynomialRow{FieldInfo::boolean("interaction-only", "off", "products of distinct features only (no squares)"),
        IRITHYLL_FIELD_BOOL(PolynomialConfig, interaction_only)},
    PolynomialRow{FieldInfo::boolean("bias", "off", "a constant 1 as the first output"), IRITHYLL_FIELD_BOOL(PolynomialConfig, bias)},
};

}  // namespace

std::span<const ConfigField<PolynomialConfig>> PolynomialExtender::config_fields() { return kPolynomialFields; }

std::size_t PolynomialExtender::width(const Config& config, std::size_t d) {
  const std::size_t pairs = config.interaction_only ? d * (d - (d > 0 ? 1 : 0)) / 2 : d * (d + 1) / 2;
  return (config.bias ? 1 : 0) + d + pairs;
}

Result<std::unique_ptr<PolynomialExtender>> PolynomialExtender::make(const Config& config,
                                                                     const TransformerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields(kName, config_fields(), config));
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::check_input_width(kName, context.n_features));
  if (context.n_features > 2048 || width(config, context.n_features) > preprocess_detail::kMaxOutputWidth)
    return Status::invalid_argument("polynomial: " + std::to_string(context.n_features) +
                                    " inputs give too many products (at most 2048 inputs)");
  auto t = std::make_unique<PolynomialExtender>();
  t->config_ = config;
  t->n_in_ = context.n_features;
  return t;
}

void PolynomialExtender::transform_one(std::span<const double> x, std::span<double> out) const {
  if (out.size() != width(config_, n_in_)) {
    for (double& o : out) o = kNaN;
    return;
  }
  auto at = [&](std::size_t i) { return i < x.size() && std::isfinite(x[i]) ? x[i] : kNaN; };
  std::size_t o = 0;
  if (config_.bias) out[o++] = 1.0;
  for (std::size_t i = 0; i < n_in_; ++i) out[o++] = at(i);
  const std::size_t first = config_.bias ? 1 : 0;
  for (std::size_t i = 0; i < n_in_; ++i) {
    const double xi = out[first + i];
    for (std::size_t j = config_.interaction_only ? i + 1 : i; j < n_in_; ++j) out[o++] = xi * out[first + j];
  }
}

std::vector<std::string> PolynomialExtender::output_names(std::span<const std::string> in) const {
  auto name = [&](std::size_t i) { return i < in.size() ? in[i] : "f" + std::to_string(i); };
  std::vector<std::string> out;
  if (config_.bias) out.push_back("1");
  for (std::size_t i = 0; i < n_in_; ++i) out.push_back(name(i));
  for (std::size_t i = 0; i < n_in_; ++i)
    for (std::size_t j = config_.interaction_only ? i + 1 : i; j < n_in_; ++j) out.push_back(name(i) + "*" + name(j));
  return out;
}

void PolynomialExtender::encode(ByteWriter& out) const {
  preprocess_detail::encode_header(kPolynomialVersion, config_fields(), config_, n_in_, {}, out);
}

Status PolynomialExtender::decode(ByteReader& in) {
  Config c;
  std::size_t n = 0;
  std::vector<std::uint32_t> cols;
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::decode_header(kName, kPolynomialVersion, config_fields(), in, c, n, cols));
  if (n > 2048) return Status::corruption("polynomial: input width out of range");
  config_ = c;
  n_in_ = n;
  return Status::ok();
}

}  // namespace irithyll
