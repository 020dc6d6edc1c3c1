#include "irithyll/preprocess/ccipca.hpp"

#include <array>
#include <cmath>

#include "common.hpp"
#include "core/field_rows.hpp"

namespace irithyll {
namespace {

using CcipcaRow = ConfigField<CcipcaConfig>;
constexpr std::uint8_t kCcipcaVersion = 1;

const std::array kCcipcaFields = {
    CcipcaRow{FieldInfo::integer("n-components", "2", "principal components k (the output width)").in(1, 256),
        IRITHYLL_FIELD_UINT(CcipcaConfig, n_components)},
    CcipcaRow{FieldInfo::real("amnesic", "0", "amnesic parameter l: > 0 weights recent samples more").in(0, 10),
        IRITHYLL_FIELD_REAL(CcipcaConfig, amnesic)},
};

double norm(const double* v, std::size_t d) {
  double s = 0.0;
  for (std::size_t j = 0; j < d; ++j) s += v[j] * v[j];
  return std::sqrt(s);
}

}  // namespace

std::span<const ConfigField<CcipcaConfig>> Ccipca::config_fields() { return kCcipcaFields; }

Result<std::unique_ptr<Ccipca>> Ccipca::make(const Config& config, const TransformerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields(kName, config_fields(), config));
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::check_input_width(kName, context.n_features));
  if (config.n_components > context.n_features)
    return Status::invalid_argument("ccipca: n-components = " + std::to_string(config.n_components) +
                                    " exceeds the " + std::to_string(context.n_features) + " input features");
  if (static_cast<double>(config.n_components) * static_cast<double>(context.n_features) > 1e8)
    return Status::invalid_argument("ccipca: n-components x features too large");
  auto t = std::make_unique<Ccipca>();
  t->config_ = config;
  t->n_in_ = context.n_features;
  t->reset();
  return t;
}

void Ccipca::reset() {
  n_ = 0.0;
  mean_.assign(n_in_, 0.0);
  v_.assign(static_cast<std::size_t>(config_.n_components) * n_in_, 0.0);
  n_comp_.assign(config_.n_components, 0.0);
  u_.assign(n_in_, 0.0);
}

void Ccipca::learn_one(std::span<const double> x) {
  const std::size_t d = n_in_;
  if (x.size() != d) return;
  for (const double v : x)
    if (!std::isfinite(v)) return;
  n_ += 1.0;
  for (std::size_t j = 0; j < d; ++j) {
    mean_[j] += (x[j] - mean_[j]) / n_;
    u_[j] = x[j] - mean_[j];
  }
  const double l = config_.amnesic;
  for (std::size_t i = 0; i < config_.n_components; ++i) {
    double* v = &v_[i * d];
    const double un = norm(u_.data(), d);
    if (n_comp_[i] == 0.0) {
      // Starts from the first residual that is not zero (see the header).
      if (!(un > 0.0)) return;
      for (std::size_t j = 0; j < d; ++j) v[j] = u_[j];
      n_comp_[i] = 1.0;
    } else {
      n_comp_[i] += 1.0;
      const double n = n_comp_[i];
      const double vn = norm(v, d);
      double uv = 0.0;
      for (std::size_t j = 0; j < d; ++j) uv += u_[j] * v[j];
      const double a = (n - 1.0 - l) / n, b = vn > 0.0 ? (1.0 + l) / n * uv / vn : 0.0;
      for (std::size_t j = 0; j < d; ++j) v[j] = a * v[j] + b * u_[j];
    }
    const double vn = norm(v, d);
    if (!(vn > 0.0)) return;
    double ue = 0.0;
    for (std::size_t j = 0; j < d; ++j) ue += u_[j] * v[j];
    ue /= vn;
    for (std::size_t j = 0; j < d; ++j) u_[j] -= ue * v[j] / vn;
  }
}

void Ccipca::transform_one(std::span<const double> x, std::span<double> out) const {
  const std::size_t d = n_in_;
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = 0.0;
    if (i >= config_.n_components || n_comp_[i] == 0.0) continue;
    const double* v = &v_[i * d];
    const double vn = norm(v, d);
    if (!(vn > 0.0)) continue;
    double s = 0.0;
    for (std::size_t j = 0; j < d && j < x.size(); ++j)
      if (std::isfinite(x[j])) s += (x[j] - mean_[j]) * v[j];
    out[i] = s / vn;
  }
}

double Ccipca::eigenvalue(std::size_t i) const { return i < n_comp_.size() ? norm(&v_[i * n_in_], n_in_) : 0.0; }

std::vector<double> Ccipca::component(std::size_t i) const {
  std::vector<double> e(n_in_, 0.0);
  const double vn = eigenvalue(i);
  if (vn > 0.0)
    for (std::size_t j = 0; j < n_in_; ++j) e[j] = v_[i * n_in_ + j] / vn;
  return e;
}

std::size_t Ccipca::memory_bytes() const {
  return sizeof(*this) + (mean_.capacity() + v_.capacity() + n_comp_.capacity() + u_.capacity()) * sizeof(double);
}

void Ccipca::encode(ByteWriter& out) const {
  preprocess_detail::encode_header(kCcipcaVersion, config_fields(), config_, n_in_, {}, out);
  out.f64(n_);
  out.f64s(mean_);
  out.f64s(v_);
  out.f64s(n_comp_);
}

Status Ccipca::decode(ByteReader& in) {
  Ccipca t;
  std::vector<std::uint32_t> cols;
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::decode_header(kName, kCcipcaVersion, config_fields(), in, t.config_, t.n_in_, cols));
  if (t.config_.n_components > t.n_in_) return Status::corruption("ccipca: more components than features");
  t.n_ = in.f64("ccipca count");
  if (!preprocess_detail::read_exact(in, t.n_in_, t.mean_, "ccipca mean") ||
      !preprocess_detail::read_exact(in, t.n_in_ * t.config_.n_components, t.v_, "ccipca components") ||
      !preprocess_detail::read_exact(in, t.config_.n_components, t.n_comp_, "ccipca component counts"))
    return in.status();
  if (!(t.n_ >= 0.0) || !std::isfinite(t.n_)) return Status::corruption("ccipca: count out of range");
  for (const double c : t.n_comp_)
    if (!(c >= 0.0 && c <= t.n_) || c != std::floor(c)) return Status::corruption("ccipca: component count out of range");
  for (const double v : t.mean_)
    if (!std::isfinite(v)) return Status::corruption("ccipca: mean is not finite");
  for (const double v : t.v_)
    if (!std::isfinite(v)) return Status::corruption("ccipca: a component is not finite");
  t.u_.assign(t.n_in_, 0.0);
  *this = std::move(t);
  return Status::ok();
}

}  // namespace irithyll
