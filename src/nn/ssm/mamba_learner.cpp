#include "irithyll/nn/ssm/mamba_learner.hpp"

#include <algorithm>
#include <cmath>

#include "nn/ssm/mamba_core.hpp"
#include "nn/boxed_learner_impl.hpp"
#include "nn/kernels.hpp"
#include "nn/sanitize_input.hpp"
#include "nn/ssm/mamba3.hpp"
#include "nn/ssm/selective_ssm.hpp"
#include "nn/ssm/selective_ssm_bd.hpp"

namespace irithyll::nn {

namespace {

std::unique_ptr<SsmLayer> make_layer(const MambaLearnerConfig& c, std::size_t d_in, std::uint64_t seed) {
  if (c.version == MambaVersion::kV1) {
    return std::make_unique<SelectiveSsm>(SelectiveSsmConfig{.d_in = d_in, .n_state = c.n_state, .seed = seed});
  }
  if (c.version == MambaVersion::kBlockDiagonal) {
    return std::make_unique<SelectiveSsmBd>(
        SelectiveSsmBdConfig{.d_in = d_in, .n_state = c.n_state, .block_size = c.block_size, .seed = seed});
  }
  Mamba3Config m;
  m.d_in = d_in;
  m.n_state = c.n_state;
  m.n_groups = c.n_groups;
  m.rank = c.version == MambaVersion::kV3Mimo ? c.rank : 0;
  m.use_bcnorm = c.use_bcnorm;
  m.discretization = c.version == MambaVersion::kV3Tustin ? Mamba3Discretization::kTustin : Mamba3Discretization::kExpTrapezoidal;
  m.seed = seed;
  return std::make_unique<Mamba3>(m);
}

}  // namespace

Status MambaLearner::validate(const Config& c, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(check_shared_task(kName, context));
  const std::size_t n_features = context.n_features;
  if (c.n_state == 0 || c.n_state > 1024) return Status::invalid_argument("mamba: n_state must be in 1..1024");
  if (static_cast<std::uint8_t>(c.version) > 4) return Status::invalid_argument("mamba: unknown version");
  if (c.n_groups == 0) return Status::invalid_argument("mamba: n_groups must be >= 1");
  if (c.version == MambaVersion::kV3Mimo && (c.rank == 0 || c.rank > 16))
    return Status::invalid_argument("mamba: v3-mimo rank must be in 1..16");
  if (n_features > 4096) return Status::invalid_argument("mamba: too many features");
  if (c.version == MambaVersion::kBlockDiagonal &&
      (c.block_size == 0 || c.block_size > 64 || (n_features != 0 && n_features % c.block_size != 0)))
    return Status::invalid_argument("mamba: bd block_size must be in 1..64 and divide the number of features");
  if (n_features != 0 && c.version != MambaVersion::kV1 && c.version != MambaVersion::kBlockDiagonal &&
      n_features % c.n_groups != 0)
    return Status::invalid_argument("mamba: n_groups must divide the number of features");
  IRITHYLL_RETURN_IF_ERROR(check_shared_readout(kName, c, "SSM"));
  if (!(c.bcnorm_lr >= 0.0) || !std::isfinite(c.bcnorm_lr) || c.bcnorm_lr > 1.0)
    return Status::invalid_argument("mamba: bcnorm_lr must be in [0, 1]");
  if (c.continual.enabled() && c.version == MambaVersion::kV1)
    return Status::invalid_argument("mamba: --continual regen needs groups or blocks: --version v3, v3-tustin, v3-mimo or bd");
  return Status::ok();
}

Result<std::unique_ptr<MambaLearner>> MambaLearner::make(const Config& config, const LearnerContext& context) {
  return make_boxed<MambaLearner>(config, context);
}

MambaLearner::MambaLearner(const Config& config, const LearnerContext& context) : BoxedLearner(config, context) {}

MambaCore::MambaCore(const MambaLearnerConfig& config, const LearnerContext& context)
    : RlsReadoutCore(config, context) {
  if (ctx_.n_features > 0) (void)build(ctx_.n_features);
}

Status MambaCore::build(std::size_t n_features) {
  LearnerContext width = ctx_;
  width.n_features = n_features;
  IRITHYLL_RETURN_IF_ERROR(validate(cfg_, width));
  ctx_.n_features = n_features;
  layer_ = make_layer(cfg_, n_features, ctx_.seed);
  if (auto* m3 = dynamic_cast<Mamba3*>(layer_.get()); m3 != nullptr && cfg_.learns_bcnorm())
    m3->set_bcnorm_learnable(true);
  dy_.assign(cfg_.learns_bcnorm() ? n_features : 0, 0.0);
  use_state_ = layer_->state().size() <= cfg_.state_feature_cap;
  const std::size_t nf = layer_->output_dim() + (use_state_ ? layer_->state().size() : 0) + 1;
  head_ = RlsHead(ctx_.task, ctx_.n_classes, nf, cfg_.rls);
  xin_.assign(n_features, 0.0);
  features_.assign(nf, 0.0);
  IRITHYLL_RETURN_IF_ERROR(make_regenerator());
  built_ = true;
  return Status::ok();
}

// Group of each readout feature: output channel q belongs to the group (or
// block) that computes it, state entries to the group whose state they are.
Status MambaCore::make_regenerator() {
  if (!cfg_.continual.enabled()) {
    regen_.reset();
    return Status::ok();
  }
  const std::size_t d = layer_->output_dim(), state = layer_->state().size();
  const bool bd = cfg_.version == MambaVersion::kBlockDiagonal;
  const std::size_t groups = bd ? d / cfg_.block_size : cfg_.n_groups;
  std::vector<std::int32_t> owner(features_.size(), ReadoutRegenerator::kNoGroup);
  for (std::size_t q = 0; q < d; ++q) owner[q] = static_cast<std::int32_t>(q / (d / groups));
  if (use_state_)
    for (std::size_t i = 0; i < state; ++i) owner[d + i] = static_cast<std::int32_t>(i / (state / groups));
  return reset_regenerator(regen_, cfg_.continual, groups, std::move(owner));
}

void MambaCore::update_readout(double y) {
  SsmLayer* layer = layer_.get();
  if (auto* m3 = dynamic_cast<Mamba3*>(layer); m3 != nullptr && m3->bcnorm_learnable()) {
    // dL/dy for L = 1/2 sum_k (w_k . f - target_k)^2 (one-hot targets for classification).
    const std::size_t d = dy_.size();
    std::fill(dy_.begin(), dy_.end(), 0.0);
    for (std::size_t k = 0; k < head_.n_heads(); ++k) {
      const auto w = head_.head(k).weights();
      const double target = ctx_.task == Task::kRegression ? y : (static_cast<double>(k) == y ? 1.0 : 0.0);
      const double err = dot(w.data(), features_.data(), features_.size()) - target;
      for (std::size_t q = 0; q < d; ++q) dy_[q] += err * w[q];
    }
    m3->bcnorm_train(dy_, cfg_.bcnorm_lr);
  }
  update_readout_with(regen_, head_, features_, y, ctx_.task, [layer](std::size_t g, Xorshift64& rng) {
    if (auto* m3 = dynamic_cast<Mamba3*>(layer)) m3->reinitialize_group(g, rng);
    else if (auto* bd = dynamic_cast<SelectiveSsmBd*>(layer)) bd->reinitialize_block(g, rng);
  });
}

template <bool kLearn>
void MambaCore::featurize(std::span<const double> x) const {
  sanitize_input(x, xin_);
  const std::size_t d = layer_->output_dim();
  double* f = features_.data();
  if (use_state_) {
    const auto h = layer_->state();
    std::copy(h.begin(), h.end(), f + d);
  }
  features_.back() = 1.0;
  if constexpr (kLearn) {
    // The layer is logically part of the learner's mutable state here.
    const_cast<SsmLayer*>(layer_.get())->forward(xin_, {f, d});
  } else {
    layer_->forward_predict(xin_, {f, d});
  }
}

// Explicit: RlsReadoutCore's inline flow calls both from other translation units.
template void MambaCore::featurize<true>(std::span<const double>) const;
template void MambaCore::featurize<false>(std::span<const double>) const;

std::size_t MambaCore::extractor_memory_bytes() const {
  return (layer_ ? layer_->memory_bytes() : 0) + xin_.capacity() * sizeof(double) +
         (regen_ ? regen_->memory_bytes() : 0);
}

void MambaCore::encode(ByteWriter& out) const {
  encode_shared_head(config_fields(), cfg_, ctx_, out);
  encode_state(out);
}

Status MambaCore::decode(ByteReader& in) {
  MambaLearnerConfig c;
  LearnerContext context;
  SharedRecord r;
  IRITHYLL_RETURN_IF_ERROR(decode_shared_head(kName, config_fields(), c, context, in, r));
  if (r.version != kReadoutRecordVersion) {
    const std::uint8_t version_byte = in.u8("mamba version");
    const std::uint8_t version = version_byte & 0x7fu;
    c.n_state = in.u64("mamba n_state");
    c.n_groups = in.u64("mamba n_groups");
    c.rank = in.u64("mamba rank");
    c.block_size = in.u64("mamba block size");
    c.use_bcnorm = in.boolean("mamba bcnorm");
    c.state_feature_cap = in.u64("mamba state feature cap");
    // Records without bit 7 were written with gamma fixed.
    c.bcnorm_lr = (version_byte & 0x80u) ? in.f64("mamba bcnorm lr") : 0.0;
    if (version > 4 && in.ok()) return Status::corruption("mamba: bad version");
    c.version = static_cast<MambaVersion>(version);
  }
  IRITHYLL_RETURN_IF_ERROR(decode_shared_tail(kName, c, context, in, r));
  if (Status s = validate(c, context); !s.is_ok()) return bad_decoded_config(kName, s);
  return decode_state(c, context, r.n_seen, r.built, in);
}

void MambaCore::encode_extractor(ByteWriter& out) const {
  layer_->encode(out);
  if (const auto* m3 = dynamic_cast<const Mamba3*>(layer_.get()); m3 != nullptr && m3->bcnorm_learnable())
    out.f64s(m3->bcnorm_gamma());
}

Status MambaCore::decode_extractor(ByteReader& in) {
  const std::size_t state_size = layer_->state().size();
  IRITHYLL_RETURN_IF_ERROR(layer_->decode(in));
  if (layer_->input_dim() != ctx_.n_features || layer_->output_dim() != ctx_.n_features ||
      layer_->state().size() != state_size)
    return Status::corruption("mamba: layer does not match the configuration");
  if (auto* m3 = dynamic_cast<Mamba3*>(layer_.get()); m3 != nullptr && cfg_.learns_bcnorm()) {
    m3->set_bcnorm_learnable(true);
    const auto gamma = in.f64s("mamba bcnorm gamma");
    IRITHYLL_RETURN_IF_ERROR(in.status());
    if (gamma.size() != m3->bcnorm_gamma().size()) return Status::corruption("mamba: wrong BCNorm gamma length");
    std::copy(gamma.begin(), gamma.end(), m3->bcnorm_gamma().begin());
  }
  return Status::ok();
}


}  // namespace irithyll::nn

namespace irithyll {
template class BoxedLearner<nn::MambaCore, nn::MambaLearnerConfig, false>;
}  // namespace irithyll
