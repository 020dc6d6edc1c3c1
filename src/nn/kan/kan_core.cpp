#include "nn/kan/kan_core.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "irithyll/core/config_codec.hpp"
#include "core/finite.hpp"

namespace irithyll::nn {

namespace {
constexpr double kStdFloor = 1e-8;      // a constant feature or target divides by this, not 0
constexpr double kHiddenLimit = 5.0;    // hidden vectors rescaled so that max |h| <= 5
constexpr double kRollingKeep = 0.999;  // memory of the squared-error average
constexpr std::uint64_t kAdaptiveAfter = 500;  // trained samples before the step follows the error
constexpr std::uint64_t kDecayAfter = 2000;    // trained samples before the decay starts
}  // namespace

KanCore::KanCore(const KanConfig& config, const LearnerContext& context) : config_(config), context_(context) {
  if (context.n_features > 0) build(context.n_features);
}

void KanCore::build(std::size_t d) {
  width_ = d;
  sizes_.assign(1, d);
  for (std::size_t l = 0; l < config_.hidden_layers; ++l) sizes_.push_back(config_.hidden);
  sizes_.push_back(KolmogorovArnoldNetwork::n_outputs(context_));
  // Drawn from the seed alone, so reset() and a fresh model agree.
  Xorshift64 rng(context_.seed);
  layers_.clear();
  scratch_.assign(sizes_.size() - 1, {});
  acts_.assign(sizes_.size(), {});
  std::size_t widest = 0;
  for (std::size_t l = 0; l + 1 < sizes_.size(); ++l) {
    layers_.emplace_back(sizes_[l], sizes_[l + 1], config_.spline_order, config_.grid_size, rng);
    scratch_[l].resize(sizes_[l], config_.spline_order);
    widest = std::max(widest, sizes_[l]);
  }
  for (std::size_t l = 0; l < sizes_.size(); ++l) acts_[l].assign(sizes_[l], 0.0);
  widest = std::max(widest, sizes_.back());
  scales_.assign(sizes_.size() - 2, 1.0);
  grad_a_.assign(std::max<std::size_t>(widest, 1), 0.0);
  grad_b_.assign(grad_a_.size(), 0.0);
  inputs_.assign(d, Welford{});
  target_ = Welford{};
  rolling_ = 0.0;
  n_trained_ = 0;
}

void KanCore::standardise(std::span<const double> x) const noexcept {
  std::vector<double>& z = acts_[0];
  for (std::size_t i = 0; i < width_; ++i) {
    const Welford& w = inputs_[i];
    double v = 0.0;  // a missing feature, or one without a spread yet, sits at its mean
    if (finite_value(x[i]) && w.count >= 2.0) v = (x[i] - w.mean) / w.stddev(kStdFloor);
    // tanh(z / 2) maps the whole line into the spline grid one to one: a
    // clamp of z itself would send every input beyond the clamp to the same
    // grid end (a third of a normal feature's mass beyond +-0.95 sd).
    z[i] = v == v ? std::tanh(0.5 * v) : 0.0;
  }
}

void KanCore::forward(bool with_derivs) const noexcept {
  const std::size_t n = layers_.size();
  for (std::size_t l = 0; l < n; ++l) {
    layers_[l].forward(acts_[l], acts_[l + 1], scratch_[l], with_derivs);
    if (l + 1 == n) break;
    // Keeps a deep stack's hidden values in a range the next layer's clamp
    // to [-1, 1] does not flatten entirely.
    double peak = 0.0;
    for (double h : acts_[l + 1]) peak = std::max(peak, std::fabs(h));
    scales_[l] = peak > kHiddenLimit ? kHiddenLimit / peak : 1.0;
    if (scales_[l] != 1.0)
      for (double& h : acts_[l + 1]) h *= scales_[l];
  }
}

void KanCore::softmax(std::span<double> p) const noexcept {
  const std::vector<double>& logits = acts_.back();
  double top = logits[0];
  for (double v : logits) top = std::max(top, v);
  double sum = 0.0;
  for (std::size_t c = 0; c < p.size(); ++c) sum += p[c] = std::exp(logits[c] - top);
  for (double& v : p) v /= sum;
}

void KanCore::learn_one(std::span<const double> x, double y, double weight) {
  ++n_seen_;
  const bool classify = context_.task == Task::kClassification;
  if (!sample_admissible(x, y, weight, width_, context_.task, context_.n_classes)) return;
  if (width_ == 0) {
    if (KolmogorovArnoldNetwork::n_edges(config_, x.size(), KolmogorovArnoldNetwork::n_outputs(context_)) >
        KolmogorovArnoldNetwork::kMaxEdges)
      return;
    build(x.size());
  }
  for (std::size_t i = 0; i < width_; ++i)
    if (finite_value(x[i])) inputs_[i].add(x[i]);
  target_.add(y);
  // Standardising needs two samples: the first one only seeds the statistics.
  if (target_.count < 2.0) return;

  standardise(x);
  forward(true);
  // dLoss/doutputs into grad_a_: 2e for the squared error of the
  // standardised target, p - onehot(y) for the softmax cross-entropy.
  const std::size_t n_out = sizes_.back();
  std::span<double> delta(grad_a_.data(), n_out);
  double e2 = 0.0;
  if (classify) {
    softmax(delta);
    delta[static_cast<std::size_t>(y)] -= 1.0;
    for (double d : delta) e2 += d * d;
  } else {
    const double z = (y - target_.mean) / target_.stddev(kStdFloor);
    const double e = acts_.back()[0] - z;
    e2 = e * e;
    delta[0] = 2.0 * e;
  }
  if (!finite_value(e2)) return;
  rolling_ = kRollingKeep * rolling_ + (1.0 - kRollingKeep) * e2;
  double lr = config_.lr;
  // A surprise (error above its running level) takes a larger step, a
  // familiar error a smaller one.
  if (n_trained_ > kAdaptiveAfter && rolling_ > 1e-10) lr *= std::clamp(e2 / rolling_, 0.5, 2.0);
  lr *= weight;

  // Backward, layer by layer.
  bool in_range = true;
  for (std::size_t l = layers_.size(); l-- > 0;) {
    std::span<double> below(grad_b_.data(), sizes_[l]);
    in_range &= layers_[l].backward(delta, lr, config_.momentum, scratch_[l], below);
    if (l > 0 && scales_[l - 1] != 1.0)
      for (double& g : below) g *= scales_[l - 1];
    std::swap(grad_a_, grad_b_);
    delta = std::span<double>(grad_a_.data(), sizes_[l]);
  }

  if (config_.coefficient_decay > 0.0 && n_trained_ > kDecayAfter) {
    const double ratio = rolling_ > 1e-10 ? std::clamp(e2 / rolling_, 0.5, 3.0) : 1.0;
    const double keep = 1.0 - std::clamp(config_.coefficient_decay * ratio, 0.0, 0.01);
    for (KanLayer& layer : layers_) layer.scale_coefficients(keep);
  }
  if (!in_range)
    for (KanLayer& layer : layers_) layer.repair_coefficients();
  ++n_trained_;
}

double KanCore::predict_one(std::span<const double> x) const {
  if (context_.task == Task::kClassification) {
    if (n_trained_ == 0 || x.size() != width_) return 0.0;
    standardise(x);
    forward(false);
    const std::vector<double>& logits = acts_.back();
    // Ties go to the lowest class index.
    return static_cast<double>(std::max_element(logits.begin(), logits.end()) - logits.begin());
  }
  const double fallback = finite_value(target_.mean) ? target_.mean : 0.0;
  if (n_trained_ == 0 || x.size() != width_) return fallback;
  standardise(x);
  forward(false);
  const double out = acts_.back()[0] * target_.stddev(kStdFloor) + target_.mean;
  return finite_value(out) ? out : fallback;
}

void KanCore::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (context_.task != Task::kClassification || proba.size() != context_.n_classes) return;
  if (n_trained_ == 0 || x.size() != width_) {
    std::fill(proba.begin(), proba.end(), 1.0 / static_cast<double>(proba.size()));
    return;
  }
  standardise(x);
  forward(false);
  softmax(proba);
}

void KanCore::predict_batch(std::span<const double> rows, std::size_t n_features, std::span<double> out) const {
  for (std::size_t r = 0; r < out.size(); ++r) out[r] = predict_one(rows.subspan(r * n_features, n_features));
}

void KanCore::reset() {
  n_seen_ = 0;
  if (context_.n_features > 0) {
    build(context_.n_features);
    return;
  }
  width_ = 0;
  sizes_.clear();
  layers_.clear();
  inputs_.clear();
  acts_.clear();
  scales_.clear();
  scratch_.clear();
  grad_a_.clear();
  grad_b_.clear();
  target_ = Welford{};
  rolling_ = 0.0;
  n_trained_ = 0;
}

std::size_t KanCore::n_params() const noexcept {
  std::size_t n = 0;
  for (const KanLayer& layer : layers_) n += layer.n_params();
  return n;
}

std::size_t KanCore::memory_bytes() const noexcept {
  std::size_t bytes = sizeof(*this) + sizes_.capacity() * sizeof(std::size_t) +
                      inputs_.capacity() * sizeof(Welford) + scales_.capacity() * sizeof(double) +
                      (grad_a_.capacity() + grad_b_.capacity()) * sizeof(double) +
                      layers_.capacity() * sizeof(KanLayer) + acts_.capacity() * sizeof(std::vector<double>) +
                      scratch_.capacity() * sizeof(KanLayerScratch);
  for (const KanLayer& layer : layers_) bytes += layer.memory_bytes();
  for (const auto& a : acts_) bytes += a.capacity() * sizeof(double);
  for (const auto& s : scratch_) bytes += s.memory_bytes();
  return bytes;
}

void KanCore::encode(ByteWriter& out) const {
  out.u8(1);  // record version
  encode_config(KolmogorovArnoldNetwork::config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(width_);
  for (const KanLayer& layer : layers_) layer.encode(out);
  for (const Welford& w : inputs_) w.encode(out);
  target_.encode(out);
  out.f64(rolling_);
  out.u64(n_trained_);
  out.u64(n_seen_);
}

Status KanCore::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("kan version");
  if (!in.ok()) return in.status();
  if (version != 1) return Status::corruption("kan: unknown record version " + std::to_string(version));
  KanConfig config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(KolmogorovArnoldNetwork::kName, KolmogorovArnoldNetwork::config_fields(), in, config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  IRITHYLL_RETURN_IF_ERROR(
      validate_fields<KanConfig>(KolmogorovArnoldNetwork::kName, KolmogorovArnoldNetwork::config_fields(), config));
  IRITHYLL_RETURN_IF_ERROR(KolmogorovArnoldNetwork::validate(config, context).with_context("kan model"));
  const std::uint64_t width = in.u64("kan width");
  if (!in.ok()) return in.status();
  if ((context.n_features != 0 && width != context.n_features) || width > (std::uint64_t{1} << 24) ||
      KolmogorovArnoldNetwork::n_edges(config, static_cast<std::size_t>(width),
                                       KolmogorovArnoldNetwork::n_outputs(context)) >
          KolmogorovArnoldNetwork::kMaxEdges)
    return Status::corruption("kan: feature count does not match the configuration");
  KanCore fresh(config, context);
  if (width > 0) {
    if (fresh.width_ == 0) fresh.build(static_cast<std::size_t>(width));
    for (std::size_t l = 0; l < fresh.layers_.size(); ++l)
      IRITHYLL_RETURN_IF_ERROR(fresh.layers_[l].decode(in, fresh.sizes_[l], fresh.sizes_[l + 1],
                                                       config.spline_order, config.grid_size));
    for (Welford& w : fresh.inputs_)
      if (!w.decode(in) && in.ok()) return Status::corruption("kan: feature statistics out of range");
  }
  const bool target_ok = fresh.target_.decode(in);
  fresh.rolling_ = in.f64("kan rolling error");
  fresh.n_trained_ = in.u64("kan trained");
  fresh.n_seen_ = in.u64("kan seen");
  if (!in.ok()) return in.status();
  if (!target_ok || !(fresh.rolling_ >= 0.0) || fresh.n_trained_ > fresh.n_seen_ ||
      static_cast<double>(fresh.n_trained_) > fresh.target_.count || (width == 0 && fresh.target_.count > 0.0))
    return Status::corruption("kan: training state out of range");
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn
