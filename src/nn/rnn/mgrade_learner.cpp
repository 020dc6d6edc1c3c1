#include "irithyll/nn/rnn/mgrade_learner.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll::nn {

Status MgradeLearner::validate(const MgradeLearnerConfig& c) {
  if (c.task == Task::kClassification && (c.n_classes < 2 || c.n_classes > 1024))
    return Status::invalid_argument("mgrade: classification needs 2..1024 classes");
  if (c.d_hidden == 0 || c.d_hidden > 1024) return Status::invalid_argument("mgrade: d_hidden must be in 1..1024");
  if (c.taps == 0 || c.taps > 256) return Status::invalid_argument("mgrade: taps must be in 1..256");
  if (c.n_features > 4096) return Status::invalid_argument("mgrade: too many features");
  if (!(c.rls.forgetting_factor > 0.0 && c.rls.forgetting_factor <= 1.0) || !(c.rls.delta > 0.0) ||
      !std::isfinite(c.rls.delta))
    return Status::invalid_argument("mgrade: RLS forgetting factor must be in (0, 1] and delta > 0");
  IRITHYLL_RETURN_IF_ERROR(c.continual.validate());
  if (c.continual.enabled() && c.continual.kind != ContinualKind::kRegen)
    return Status::invalid_argument("mgrade: the cell is not trained by gradient; only --continual regen applies");
  return Status::ok();
}

MgradeLearner::MgradeLearner(const MgradeLearnerConfig& config) : RlsReadoutLearner(config) {
  if (cfg_.n_features > 0) (void)build(cfg_.n_features);
}

Status MgradeLearner::build(std::size_t n_features) {
  MgradeLearnerConfig c = cfg_;
  c.n_features = n_features;
  IRITHYLL_RETURN_IF_ERROR(validate(c));
  cfg_ = c;
  // Distinct seeds for the two stages so their draws are independent.
  conv_ = DelayConv1d(n_features, c.taps, c.seed ^ 0xD1B54A32D192ED03ull);
  cell_ = MinGruCell(MinGruConfig{n_features, c.d_hidden, c.seed});
  const std::size_t nf = c.d_hidden + 2 * n_features + 1;
  head_ = RlsHead(c.task, c.n_classes, nf, c.rls);
  xin_.assign(n_features, 0.0);
  features_.assign(nf, 0.0);
  regen_.reset();
  auto regen = make_unit_regenerator(c.continual, nf, c.d_hidden);
  if (!regen.is_ok()) return regen.status();
  regen_ = std::move(regen).value();
  built_ = true;
  return Status::ok();
}

void MgradeLearner::update_readout(double y) {
  update_readout_with(regen_, head_, features_, y, cfg_.task,
                      [this](std::size_t j, Xorshift64& rng) { cell_.reinitialize_unit(j, rng); });
}

template <bool kLearn>
void MgradeLearner::featurize(std::span<const double> x) const {
  const std::size_t d = cfg_.n_features, hd = cfg_.d_hidden;
  for (std::size_t i = 0; i < d; ++i) xin_[i] = std::isfinite(x[i]) ? x[i] : 0.0;
  const std::span<double> conv_out(features_.data() + hd, d);
  std::copy(xin_.begin(), xin_.end(), features_.begin() + static_cast<std::ptrdiff_t>(hd + d));
  features_.back() = 1.0;
  if constexpr (kLearn) {
    const_cast<DelayConv1d&>(conv_).forward(xin_, conv_out);
    const_cast<MinGruCell&>(cell_).forward(conv_out, {features_.data(), hd});
  } else {
    conv_.forward_predict(xin_, conv_out);
    cell_.forward_predict(conv_out, {features_.data(), hd});
  }
}

// Explicit: RlsReadoutLearner's inline flow calls both from other translation units.
template void MgradeLearner::featurize<true>(std::span<const double>) const;
template void MgradeLearner::featurize<false>(std::span<const double>) const;

std::size_t MgradeLearner::extractor_memory_bytes() const {
  return conv_.memory_bytes() + cell_.memory_bytes() + xin_.capacity() * sizeof(double) +
         (regen_ ? regen_->memory_bytes() : 0);
}

void MgradeLearner::encode(ByteWriter& out) const {
  // Record version 2 adds the continual configuration (and, when built, its
  // state after the readout); without continual learning the bytes are version 1's.
  const bool continual = cfg_.continual.enabled();
  out.u32(continual ? 2 : 1);
  out.u8(static_cast<std::uint8_t>(cfg_.task));
  out.u64(cfg_.n_classes);
  out.u64(cfg_.n_features);
  out.u64(cfg_.d_hidden);
  out.u64(cfg_.taps);
  out.f64(cfg_.rls.forgetting_factor);
  out.f64(cfg_.rls.delta);
  out.u64(cfg_.warmup);
  out.u64(cfg_.seed);
  if (continual) encode_continual_config(cfg_.continual, out);
  encode_state(out);
}

void MgradeLearner::encode_extractor(ByteWriter& out) const {
  conv_.encode(out);
  cell_.encode(out);
}

Status MgradeLearner::decode(ByteReader& in) {
  const std::uint32_t record = in.u32("mgrade record version");
  if ((record != 1 && record != 2) && in.ok()) return Status::corruption("mgrade: unsupported record version");
  MgradeLearnerConfig c;
  const std::uint8_t task = in.u8("mgrade task");
  c.n_classes = in.u64("mgrade n_classes");
  c.n_features = in.u64("mgrade n_features");
  c.d_hidden = in.u64("mgrade d_hidden");
  c.taps = in.u64("mgrade taps");
  c.rls.forgetting_factor = in.f64("mgrade rls lambda");
  c.rls.delta = in.f64("mgrade rls delta");
  c.warmup = in.u64("mgrade warmup");
  c.seed = in.u64("mgrade seed");
  if (record == 2 && in.ok()) {
    auto cc = decode_continual_config(in);
    if (!cc.is_ok()) return cc.status();
    c.continual = *cc;
  }
  const std::uint64_t n_seen = in.u64("mgrade samples seen");
  const bool built = in.boolean("mgrade built");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("mgrade: bad task");
  c.task = static_cast<Task>(task);
  if (Status s = validate(c); !s.is_ok()) return Status::corruption("mgrade: bad configuration: " + s.message());
  return decode_state(c, n_seen, built, in);
}

Status MgradeLearner::decode_extractor(ByteReader& in) {
  IRITHYLL_RETURN_IF_ERROR(conv_.decode(in));
  IRITHYLL_RETURN_IF_ERROR(cell_.decode(in));
  if (conv_.d_in() != cfg_.n_features || conv_.taps() != cfg_.taps || cell_.d_in() != cfg_.n_features ||
      cell_.d_hidden() != cfg_.d_hidden)
    return Status::corruption("mgrade: stages do not match the configuration");
  return Status::ok();
}

}  // namespace irithyll::nn
