#include "irithyll/nn/rnn/slstm_learner.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll::nn {

Status SlstmLearner::validate(const SlstmLearnerConfig& c) {
  if (c.task == Task::kClassification && (c.n_classes < 2 || c.n_classes > 1024))
    return Status::invalid_argument("slstm: classification needs 2..1024 classes");
  if (c.d_hidden == 0 || c.d_hidden > 1024 || c.n_heads == 0 || c.d_hidden % c.n_heads != 0)
    return Status::invalid_argument("slstm: d_hidden in 1..1024 and n_heads dividing it");
  if (c.n_features > 4096) return Status::invalid_argument("slstm: too many features");
  if (!std::isfinite(c.forget_bias_start) || !std::isfinite(c.forget_bias_stop))
    return Status::invalid_argument("slstm: forget bias must be finite");
  if (!(c.rls.forgetting_factor > 0.0 && c.rls.forgetting_factor <= 1.0) || !(c.rls.delta > 0.0) ||
      !std::isfinite(c.rls.delta))
    return Status::invalid_argument("slstm: RLS forgetting factor must be in (0, 1] and delta > 0");
  IRITHYLL_RETURN_IF_ERROR(c.continual.validate());
  if (c.continual.enabled() && c.continual.kind != ContinualKind::kRegen)
    return Status::invalid_argument("slstm: the cell is not trained by gradient; only --continual regen applies");
  return Status::ok();
}

SlstmLearner::SlstmLearner(const SlstmLearnerConfig& config) : RlsReadoutLearner(config) {
  if (cfg_.n_features > 0) (void)build(cfg_.n_features);
}

Status SlstmLearner::build(std::size_t n_features) {
  SlstmLearnerConfig c = cfg_;
  c.n_features = n_features;
  IRITHYLL_RETURN_IF_ERROR(validate(c));
  cfg_ = c;
  SlstmConfig sc;
  sc.d_in = n_features;
  sc.d_hidden = c.d_hidden;
  sc.n_heads = c.n_heads;
  sc.forget_bias = forget_bias_linspace(c.forget_bias_start, c.forget_bias_stop, c.d_hidden);
  sc.seed = c.seed;
  cell_ = SlstmCell(sc);
  const std::size_t nf = c.d_hidden + n_features + 1;
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

void SlstmLearner::update_readout(double y) {
  update_readout_with(regen_, head_, features_, y, cfg_.task,
                      [this](std::size_t j, Xorshift64& rng) { cell_.reinitialize_unit(j, rng); });
}

template <bool kLearn>
void SlstmLearner::featurize(std::span<const double> x) const {
  const std::size_t d = cfg_.n_features, hd = cfg_.d_hidden;
  for (std::size_t i = 0; i < d; ++i) xin_[i] = std::isfinite(x[i]) ? x[i] : 0.0;
  std::copy(xin_.begin(), xin_.end(), features_.begin() + static_cast<std::ptrdiff_t>(hd));
  features_.back() = 1.0;
  if constexpr (kLearn) {
    const_cast<SlstmCell&>(cell_).forward(xin_, {features_.data(), hd});
  } else {
    cell_.forward_predict(xin_, {features_.data(), hd});
  }
}

// Explicit: RlsReadoutLearner's inline flow calls both from other translation units.
template void SlstmLearner::featurize<true>(std::span<const double>) const;
template void SlstmLearner::featurize<false>(std::span<const double>) const;

std::size_t SlstmLearner::extractor_memory_bytes() const {
  return cell_.memory_bytes() + xin_.capacity() * sizeof(double) + (regen_ ? regen_->memory_bytes() : 0);
}

void SlstmLearner::encode(ByteWriter& out) const {
  // Record version 2 adds the continual configuration (and, when built, its
  // state after the readout); without continual learning the bytes are version 1's.
  const bool continual = cfg_.continual.enabled();
  out.u32(continual ? 2 : 1);
  out.u8(static_cast<std::uint8_t>(cfg_.task));
  out.u64(cfg_.n_classes);
  out.u64(cfg_.n_features);
  out.u64(cfg_.d_hidden);
  out.u64(cfg_.n_heads);
  out.f64(cfg_.forget_bias_start);
  out.f64(cfg_.forget_bias_stop);
  out.f64(cfg_.rls.forgetting_factor);
  out.f64(cfg_.rls.delta);
  out.u64(cfg_.warmup);
  out.u64(cfg_.seed);
  if (continual) encode_continual_config(cfg_.continual, out);
  encode_state(out);
}

Status SlstmLearner::decode(ByteReader& in) {
  const std::uint32_t record = in.u32("slstm record version");
  if ((record != 1 && record != 2) && in.ok()) return Status::corruption("slstm: unsupported record version");
  SlstmLearnerConfig c;
  const std::uint8_t task = in.u8("slstm task");
  c.n_classes = in.u64("slstm n_classes");
  c.n_features = in.u64("slstm n_features");
  c.d_hidden = in.u64("slstm d_hidden");
  c.n_heads = in.u64("slstm n_heads");
  c.forget_bias_start = in.f64("slstm forget bias start");
  c.forget_bias_stop = in.f64("slstm forget bias stop");
  c.rls.forgetting_factor = in.f64("slstm rls lambda");
  c.rls.delta = in.f64("slstm rls delta");
  c.warmup = in.u64("slstm warmup");
  c.seed = in.u64("slstm seed");
  if (record == 2 && in.ok()) {
    auto cc = decode_continual_config(in);
    if (!cc.is_ok()) return cc.status();
    c.continual = *cc;
  }
  const std::uint64_t n_seen = in.u64("slstm samples seen");
  const bool built = in.boolean("slstm built");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("slstm: bad task");
  c.task = static_cast<Task>(task);
  if (Status s = validate(c); !s.is_ok()) return Status::corruption("slstm: bad configuration: " + s.message());
  return decode_state(c, n_seen, built, in);
}

Status SlstmLearner::decode_extractor(ByteReader& in) {
  IRITHYLL_RETURN_IF_ERROR(cell_.decode(in));
  if (cell_.d_in() != cfg_.n_features || cell_.d_hidden() != cfg_.d_hidden)
    return Status::corruption("slstm: cell does not match the configuration");
  return Status::ok();
}

}  // namespace irithyll::nn
