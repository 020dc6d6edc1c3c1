#include "irithyll/nn/snn/spike_net_learner.hpp"

#include <algorithm>
#include <cmath>

#include "nn/snn/spike_net_core.hpp"
#include "nn/boxed_learner_impl.hpp"
#include "nn/sanitize_input.hpp"
#include "nn/snn/q14.hpp"

namespace irithyll::nn {

Status SpikeNetLearner::validate(const Config& c, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(check_reservoir_task(kName, context.task, context.n_classes, 64));
  if (context.n_features > 256) return Status::invalid_argument("spikenet: at most 256 features");
  if (!(c.input_scale > 0.0) || !std::isfinite(c.input_scale) || !(c.target_scale > 0.0) ||
      !std::isfinite(c.target_scale))
    return Status::invalid_argument("spikenet: input_scale and target_scale must be finite and > 0");
  if (c.readout != SpikeNetReadout::kRls && c.readout != SpikeNetReadout::kEprop)
    return Status::invalid_argument("spikenet: unknown readout");
  IRITHYLL_RETURN_IF_ERROR(check_rls_config(kName, c.rls));
  SpikeNetConfig n = c.net;
  n.n_input = static_cast<std::uint32_t>(std::max<std::size_t>(context.n_features, 1));
  n.n_output = static_cast<std::uint32_t>(context.task == Task::kClassification ? context.n_classes : 1);
  return n.validate();
}

Result<std::unique_ptr<SpikeNetLearner>> SpikeNetLearner::make(const Config& config, const LearnerContext& context) {
  return make_boxed<SpikeNetLearner>(config, context);
}

SpikeNetLearner::SpikeNetLearner(const Config& config, const LearnerContext& context) : BoxedLearner(config, context) {}

SpikeNetCore::SpikeNetCore(const SpikeNetLearnerConfig& config, const LearnerContext& context)
    : ReservoirCoreBase(config, context) {
  config_.net.seed = context.seed;  // the network's draws follow the run's seed
  if (context.n_features > 0) init(context.n_features);
}

void SpikeNetCore::init(std::size_t d) {
  n_features_ = d;
  SpikeNetConfig n = config_.net;
  n.n_input = static_cast<std::uint32_t>(d);
  n.n_output = static_cast<std::uint32_t>(context_.task == Task::kClassification ? context_.n_classes : 1);
  net_ = SpikeNet(n);
  shadow_ = SpikeNet::State{};
  net_.forward_into(shadow_, std::vector<std::int16_t>(d, 0));  // sizes the scratch once
  xq_.assign(d, 0);
  target_q_.assign(n.n_output, 0);
  if (config_.readout == SpikeNetReadout::kRls) {
    const std::size_t m = n.n_hidden + 3 * d + 1;
    rls_ = RlsHead(context_.task, context_.n_classes, m, config_.rls);
    feat_.assign(m, 0.0);
  }
}

void SpikeNetCore::fill_features(const SpikeNet::State& s, std::span<const double> x) const noexcept {
  const std::size_t h = s.z.size(), d = n_features_;
  double* f = feat_.data();
  for (std::size_t j = 0; j < h; ++j) f[j] = 4.0 * q14::from_q14(s.z[j]);
  for (std::size_t c = 0; c < 2 * d; ++c) f[h + c] = static_cast<double>((s.enc_spikes[c >> 6] >> (c & 63)) & 1u);
  sanitize_input(x, {f + h + 2 * d, d});
  f[h + 3 * d] = 1.0;
}

bool SpikeNetCore::convert(std::span<const double> x) const noexcept {
  if (n_features_ == 0 || x.size() != n_features_) return false;
  for (std::size_t j = 0; j < n_features_; ++j) xq_[j] = q14::to_q14(std::isfinite(x[j]) ? x[j] * config_.input_scale : 0.0);
  return true;
}

void SpikeNetCore::learn_one(std::span<const double> x, double y, double weight) {
  if (n_features_ == 0) {
    if (x.empty() || x.size() > 256) return;
    init(x.size());
  }
  if (!convert(x)) return;
  ++n_seen_;
  if (!weight_admissible(weight) || !target_admissible(y, context_.task, context_.n_classes)) {
    net_.forward(xq_);
    return;
  }
  if (context_.task == Task::kRegression) {
    target_q_[0] = q14::to_q14(y * config_.target_scale);
  } else {
    const std::size_t cls = static_cast<std::size_t>(y);
    for (std::size_t k = 0; k < target_q_.size(); ++k) target_q_[k] = k == cls ? static_cast<std::int16_t>(q14::kOne) : 0;
  }
  net_.train_step(xq_, target_q_);
  if (config_.readout == SpikeNetReadout::kRls) {
    fill_features(net_.state(), x);
    rls_.update(feat_, y);
  }
}

double SpikeNetCore::predict_one(std::span<const double> x) const {
  if (!convert(x)) return 0.0;
  net_.forward_into(shadow_, xq_);
  if (config_.readout == SpikeNetReadout::kRls) {
    fill_features(shadow_, x);
    return rls_.predict(feat_);
  }
  if (context_.task == Task::kRegression) return q14::from_q14(net_.output_of(shadow_, 0)) / config_.target_scale;
  std::size_t best = 0;
  for (std::size_t k = 1; k < context_.n_classes; ++k)
    if (net_.output_of(shadow_, k) > net_.output_of(shadow_, best)) best = k;
  return static_cast<double>(best);
}

void SpikeNetCore::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (context_.task != Task::kClassification) return;
  if (!convert(x)) {
    fill_uniform(proba);
    return;
  }
  net_.forward_into(shadow_, xq_);
  if (config_.readout == SpikeNetReadout::kRls) {
    fill_features(shadow_, x);
    if (proba.size() == context_.n_classes) {
      rls_.predict_proba_clipped(feat_, proba);
    } else {
      fill_uniform(proba);
    }
    return;
  }
  double total = 0.0;
  for (std::size_t k = 0; k < proba.size() && k < context_.n_classes; ++k) {
    proba[k] = std::clamp(q14::from_q14(net_.output_of(shadow_, k)), 1e-6, 1.0);
    total += proba[k];
  }
  for (std::size_t k = 0; k < proba.size() && k < context_.n_classes; ++k) proba[k] /= total;
}

void SpikeNetCore::reset() {
  if (reset_to_blank()) return;
  net_.reset();
  rls_.reset();
}

std::size_t SpikeNetCore::memory_bytes() const {
  return sizeof(*this) + net_.memory_bytes() + (xq_.capacity() + target_q_.capacity()) * 2 +
         (shadow_.v.capacity() + shadow_.rate.capacity() + shadow_.drive.capacity() + shadow_.enc_ref.capacity() + shadow_.z.capacity()) * 2 +
         (shadow_.spikes.capacity() + shadow_.prev_spikes.capacity() + shadow_.enc_spikes.capacity()) * 8 +
         shadow_.m.capacity() * 4 + rls_.memory_bytes() + feat_.capacity() * sizeof(double);
}

void SpikeNetCore::encode(ByteWriter& out) const {
  encode_head(out);
  encode_counts(out);
  // The network carries its own configuration; a blank learner stores the template.
  if (n_features_ > 0) {
    net_.encode(out);
    if (config_.readout == SpikeNetReadout::kRls) rls_.encode_heads(out);
  } else {
    SpikeNetConfig n = config_.net;
    n.n_input = 1;
    n.n_output = 1;
    SpikeNet(n).encode(out);
  }
}

Status SpikeNetCore::decode(ByteReader& in) {
  SpikeNetLearnerConfig c;
  LearnerContext context;
  const std::uint8_t first = in.u8("spikenet record version");
  IRITHYLL_RETURN_IF_ERROR(check_first_byte(first, in));
  std::uint8_t readout = 0;
  if (first == kRecordVersion) {
    IRITHYLL_RETURN_IF_ERROR(decode_settings(in, c, context));
    readout = static_cast<std::uint8_t>(c.readout);
  } else {
    decode_v1_head(first, context, in);
    c.input_scale = in.f64("input_scale");
    c.target_scale = in.f64("target_scale");
    readout = in.u8("readout");
    c.rls.forgetting_factor = in.f64("rls forgetting");
    c.rls.delta = in.f64("rls delta");
  }
  const auto [d, seen] = decode_counts(in);
  if (!in.ok()) return in.status();
  if (readout > 1) return Status::corruption("spikenet: unknown readout code");
  c.readout = static_cast<SpikeNetReadout>(readout);
  const std::size_t outputs = context.task == Task::kClassification ? context.n_classes : 1;
  SpikeNet net;
  if (first == kRecordVersion) {
    // The network is built from the named settings as init() builds it (a
    // blank learner's template has one input and one output), and its
    // record's copy of them must agree.
    if (d > 256) return Status::corruption("spikenet: network shape does not match the configuration");
    SpikeNetConfig built = c.net;
    built.seed = context.seed;
    built.n_input = static_cast<std::uint32_t>(d > 0 ? d : 1);
    built.n_output = static_cast<std::uint32_t>(d > 0 ? outputs : 1);
    if (!built.validate().is_ok()) return Status::corruption("spikenet: the settings do not build a network");
    net = SpikeNet(built);
    IRITHYLL_RETURN_IF_ERROR(net.decode(in));
  } else {
    IRITHYLL_RETURN_IF_ERROR(net.decode_with_config(in));
    context.seed = net.config().seed;
  }
  const SpikeNetConfig& nc = net.config();
  c.net = nc;
  IRITHYLL_RETURN_IF_ERROR(SpikeNetLearner::validate(c, context).with_context("spikenet model"));
  if (d > 256 || (context.n_features != 0 && d != context.n_features) ||
      (d > 0 && (nc.n_input != d || nc.n_output != outputs)))
    return Status::corruption("spikenet: network shape does not match the configuration");
  SpikeNetCore fresh(c, context);
  if (d > 0) {
    if (fresh.n_features_ == 0) fresh.init(d);
    fresh.net_ = std::move(net);
    if (c.readout == SpikeNetReadout::kRls) IRITHYLL_RETURN_IF_ERROR(fresh.rls_.decode_heads(in).with_context("spikenet readout"));
  }
  fresh.n_seen_ = seen;
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn

namespace irithyll {
template class BoxedLearner<nn::SpikeNetCore, nn::SpikeNetLearnerConfig>;
}  // namespace irithyll
