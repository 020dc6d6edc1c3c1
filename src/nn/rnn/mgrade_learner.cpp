#include "irithyll/nn/rnn/mgrade_learner.hpp"

#include <algorithm>

#include "nn/rnn/mgrade_core.hpp"
#include "nn/boxed_learner_impl.hpp"
#include "nn/sanitize_input.hpp"

namespace irithyll::nn {

Status MgradeLearner::validate(const Config& c, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(check_shared_task(kName, context));
  if (c.d_hidden == 0 || c.d_hidden > 1024) return Status::invalid_argument("mgrade: d_hidden must be in 1..1024");
  if (c.taps == 0 || c.taps > 256) return Status::invalid_argument("mgrade: taps must be in 1..256");
  if (context.n_features > 4096) return Status::invalid_argument("mgrade: too many features");
  return check_shared_readout(kName, c, "cell");
}

Result<std::unique_ptr<MgradeLearner>> MgradeLearner::make(const Config& config, const LearnerContext& context) {
  return make_boxed<MgradeLearner>(config, context);
}

MgradeLearner::MgradeLearner(const Config& config, const LearnerContext& context) : BoxedLearner(config, context) {}

MgradeCore::MgradeCore(const MgradeLearnerConfig& config, const LearnerContext& context)
    : UnitRegenCore(config, context) {
  if (ctx_.n_features > 0) (void)build(ctx_.n_features);
}

Status MgradeCore::build(std::size_t n_features) {
  const MgradeLearnerConfig& c = cfg_;
  LearnerContext width = ctx_;
  width.n_features = n_features;
  IRITHYLL_RETURN_IF_ERROR(validate(c, width));
  ctx_.n_features = n_features;
  // Distinct seeds for the two stages so their draws are independent.
  conv_ = DelayConv1d(n_features, c.taps, ctx_.seed ^ 0xD1B54A32D192ED03ull);
  cell_ = MinGruCell(MinGruConfig{n_features, c.d_hidden, ctx_.seed});
  return finish_build(n_features, c.d_hidden + 2 * n_features + 1, c.d_hidden);
}

template <bool kLearn>
void MgradeCore::featurize(std::span<const double> x) const {
  const std::size_t d = ctx_.n_features, hd = cfg_.d_hidden;
  sanitize_input(x, xin_);
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

// Explicit: RlsReadoutCore's inline flow calls both from other translation units.
template void MgradeCore::featurize<true>(std::span<const double>) const;
template void MgradeCore::featurize<false>(std::span<const double>) const;

std::size_t MgradeCore::extractor_memory_bytes() const {
  return conv_.memory_bytes() + cell_.memory_bytes() + scratch_and_guard_bytes();
}

void MgradeCore::encode(ByteWriter& out) const {
  encode_shared_head(config_fields(), cfg_, ctx_, out);
  encode_state(out);
}

void MgradeCore::encode_extractor(ByteWriter& out) const {
  conv_.encode(out);
  cell_.encode(out);
}

Status MgradeCore::decode(ByteReader& in) {
  MgradeLearnerConfig c;
  LearnerContext context;
  SharedRecord r;
  IRITHYLL_RETURN_IF_ERROR(decode_shared_head(kName, config_fields(), c, context, in, r));
  if (r.version != kReadoutRecordVersion) {
    c.d_hidden = in.u64("mgrade d_hidden");
    c.taps = in.u64("mgrade taps");
  }
  IRITHYLL_RETURN_IF_ERROR(decode_shared_tail(kName, c, context, in, r));
  if (Status s = validate(c, context); !s.is_ok()) return bad_decoded_config(kName, s);
  return decode_state(c, context, r.n_seen, r.built, in);
}

Status MgradeCore::decode_extractor(ByteReader& in) {
  IRITHYLL_RETURN_IF_ERROR(conv_.decode(in));
  IRITHYLL_RETURN_IF_ERROR(cell_.decode(in));
  if (conv_.d_in() != ctx_.n_features || conv_.taps() != cfg_.taps || cell_.d_in() != ctx_.n_features ||
      cell_.d_hidden() != cfg_.d_hidden)
    return Status::corruption("mgrade: stages do not match the configuration");
  return Status::ok();
}


}  // namespace irithyll::nn

namespace irithyll {
template class BoxedLearner<nn::MgradeCore, nn::MgradeLearnerConfig>;
}  // namespace irithyll
