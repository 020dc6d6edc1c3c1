#include "irithyll/preprocess/feature_selector.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "common.hpp"
#include "core/field_rows.hpp"

namespace irithyll {
namespace {

using FeatureSelectorRow = ConfigField<FeatureSelectorConfig>;
constexpr std::uint8_t kFeatureSelectorVersion = 1;
constexpr std::size_t kFeatureSelectorMaxClasses = 1024;

const std::array kFeatureSelectorFields = {
    FeatureSelectorRow{FieldInfo::real("keep", "0.5", "fraction of the features kept (at least one)").in(0, 1, true),
        IRITHYLL_FIELD_REAL(FeatureSelectorConfig, keep)},
    FeatureSelectorRow{FieldInfo::real("alpha", "0.01", "rate of the exponentially weighted correlations").in(0, 1, true),
        IRITHYLL_FIELD_REAL(FeatureSelectorConfig, alpha)},
    FeatureSelectorRow{FieldInfo::integer("warmup", "100", "samples before the first selection (all kept until then)").in(0, 1e9),
        IRITHYLL_FIELD_UINT(FeatureSelectorConfig, warmup)},
};

}  // namespace

std::span<const ConfigField<FeatureSelectorConfig>> FeatureSelector::config_fields() { return kFeatureSelectorFields; }

Result<std::unique_ptr<FeatureSelector>> FeatureSelector::make(const Config& config, const TransformerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields(kName, config_fields(), config));
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::check_input_width(kName, context.n_features));
  const bool cls = context.task == Task::kClassification;
  if (cls && (context.n_classes < 2 || context.n_classes > kFeatureSelectorMaxClasses))
    return Status::invalid_argument("feature_selector: classification needs 2 to 1024 classes");
  auto t = std::make_unique<FeatureSelector>();
  t->config_ = config;
  t->task_ = context.task;
  t->n_classes_ = cls ? context.n_classes : 0;
  t->q_ = cls ? context.n_classes - 1 : 1;
  t->n_in_ = context.n_features;
  if (static_cast<double>(t->q_) * static_cast<double>(t->n_in_) > 1e8)
    return Status::invalid_argument("feature_selector: features x classes too large");
  t->reset();
  return t;
}

void FeatureSelector::reset() {
  n_ = 0;
  mx_.assign(n_in_, 0.0);
  vx_.assign(n_in_, 0.0);
  my_.assign(q_, 0.0);
  vy_.assign(q_, 0.0);
  cxy_.assign(n_in_ * q_, 0.0);
  active_.assign(n_in_, 1);
  order_.resize(n_in_);
  yv_.assign(q_, 0.0);
}

double FeatureSelector::importance(std::size_t i) const {
  double s = 0.0;
  for (std::size_t k = 0; k < q_; ++k) {
    const double den = std::sqrt(vx_[i] * vy_[k]);
    if (den > 0.0) s += std::fabs(cxy_[i * q_ + k]) / den;
  }
  return s;
}

void FeatureSelector::learn_supervised(std::span<const double> x, double y) {
  if (x.size() != n_in_ || !std::isfinite(y)) return;
  if (task_ == Task::kClassification) {
    const long c = preprocess_detail::class_of(y, n_classes_);
    if (c < 0) return;
    for (std::size_t k = 0; k < q_; ++k) yv_[k] = static_cast<long>(k) + 1 == c ? 1.0 : 0.0;
  } else {
    yv_[0] = y;
  }
  // Exponentially weighted moments (West 1979, incremental form): the first
  // sample sets the means, so early estimates are not pulled towards 0.
  const double a = n_ == 0 ? 1.0 : config_.alpha;
  for (std::size_t k = 0; k < q_; ++k) {
    const double dy = yv_[k] - my_[k];
    my_[k] += a * dy;
    vy_[k] = (1.0 - a) * (vy_[k] + a * dy * dy);
  }
  for (std::size_t i = 0; i < n_in_; ++i) {
    if (!std::isfinite(x[i])) continue;
    const double dx = x[i] - mx_[i];
    mx_[i] += a * dx;
    vx_[i] = (1.0 - a) * (vx_[i] + a * dx * dx);
    for (std::size_t k = 0; k < q_; ++k) {
      // The target mean already moved: (y - my_new) = (1 - a)·dy.
      const double dy_new = yv_[k] - my_[k];
      cxy_[i * q_ + k] = (1.0 - a) * cxy_[i * q_ + k] + a * dx * dy_new;
    }
  }
  ++n_;
  if (n_ >= config_.warmup) reselect();
}

void FeatureSelector::reselect() {
  const std::size_t k = std::clamp<std::size_t>(
      static_cast<std::size_t>(std::ceil(config_.keep * static_cast<double>(n_in_) - 1e-9)), 1, n_in_);
  for (std::size_t i = 0; i < n_in_; ++i) order_[i] = static_cast<std::uint32_t>(i);
  // Highest importance first; ties to the lower index.
  std::nth_element(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(k - 1), order_.end(),
                   [this](std::uint32_t a, std::uint32_t b) {
                     const double ia = importance(a), ib = importance(b);
                     return ia != ib ? ia > ib : a < b;
                   });
  for (std::size_t i = 0; i < n_in_; ++i) active_[i] = 0;
  for (std::size_t i = 0; i < k; ++i) active_[order_[i]] = 1;
}

void FeatureSelector::transform_one(std::span<const double> x, std::span<double> out) const {
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double v = i < x.size() ? x[i] : std::numeric_limits<double>::quiet_NaN();
    out[i] = i < n_in_ && active_[i] ? v : 0.0;
  }
}

std::size_t FeatureSelector::memory_bytes() const {
  return sizeof(*this) +
         (mx_.capacity() + vx_.capacity() + my_.capacity() + vy_.capacity() + cxy_.capacity() + yv_.capacity()) * 8 +
         active_.capacity() + order_.capacity() * 4;
}

void FeatureSelector::encode(ByteWriter& out) const {
  preprocess_detail::encode_header(kFeatureSelectorVersion, config_fields(), config_, n_in_, {}, out);
  out.u8(task_ == Task::kClassification ? 1 : 0);
  out.u64(n_classes_);
  out.u64(n_);
  out.f64s(mx_);
  out.f64s(vx_);
  out.f64s(my_);
  out.f64s(vy_);
  out.f64s(cxy_);
  for (const std::uint8_t a : active_) out.u8(a);
}

Status FeatureSelector::decode(ByteReader& in) {
  FeatureSelector t;
  std::vector<std::uint32_t> cols;
  IRITHYLL_RETURN_IF_ERROR(preprocess_detail::decode_header(kName, kFeatureSelectorVersion, config_fields(), in, t.config_, t.n_in_, cols));
  const std::uint8_t cls = in.u8("feature_selector task");
  const std::uint64_t k_classes = in.u64("feature_selector classes");
  const std::uint64_t n = in.u64("feature_selector count");
  if (!in.ok()) return in.status();
  if (cls > 1 || (cls == 1 && (k_classes < 2 || k_classes > kFeatureSelectorMaxClasses)) || (cls == 0 && k_classes != 0))
    return Status::corruption("feature_selector: task or classes out of range");
  t.task_ = cls == 1 ? Task::kClassification : Task::kRegression;
  t.n_classes_ = static_cast<std::size_t>(k_classes);
  t.q_ = cls == 1 ? t.n_classes_ - 1 : 1;
  if (static_cast<double>(t.q_) * static_cast<double>(t.n_in_) > 1e8)
    return Status::corruption("feature_selector: features x classes out of range");
  t.reset();
  t.n_ = n;
  if (!preprocess_detail::read_exact(in, t.n_in_, t.mx_, "feature_selector means") ||
      !preprocess_detail::read_exact(in, t.n_in_, t.vx_, "feature_selector variances") ||
      !preprocess_detail::read_exact(in, t.q_, t.my_, "feature_selector target means") ||
      !preprocess_detail::read_exact(in, t.q_, t.vy_, "feature_selector target variances") ||
      !preprocess_detail::read_exact(in, t.n_in_ * t.q_, t.cxy_, "feature_selector covariances"))
    return in.status();
  std::size_t n_active = 0;
  for (std::size_t i = 0; i < t.n_in_ && in.ok(); ++i) {
    t.active_[i] = in.u8("feature_selector mask");
    n_active += t.active_[i];
    if (in.ok() && t.active_[i] > 1) return Status::corruption("feature_selector: mask is not 0/1");
  }
  if (!in.ok()) return in.status();
  if (n_active == 0) return Status::corruption("feature_selector: no feature selected");
  for (const auto* v : {&t.mx_, &t.vx_, &t.my_, &t.vy_, &t.cxy_})
    for (const double e : *v)
      if (!std::isfinite(e)) return Status::corruption("feature_selector: a statistic is not finite");
  *this = std::move(t);
  return Status::ok();
}

}  // namespace irithyll
