#include "irithyll/nn/rnn/slstm_learner.hpp"

#include <cmath>

#include "nn/rnn/slstm_core.hpp"
#include "nn/boxed_learner_impl.hpp"
#include "nn/rnn/cell_codec.hpp"

namespace irithyll::nn {

Status SlstmLearner::validate(const Config& c, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(check_shared_task(kName, context));
  if (c.d_hidden == 0 || c.d_hidden > 1024 || c.n_heads == 0 || c.d_hidden % c.n_heads != 0)
    return Status::invalid_argument("slstm: d_hidden in 1..1024 and n_heads dividing it");
  if (context.n_features > 4096) return Status::invalid_argument("slstm: too many features");
  if (!std::isfinite(c.forget_bias_start) || !std::isfinite(c.forget_bias_stop))
    return Status::invalid_argument("slstm: forget bias must be finite");
  return check_shared_readout(kName, c, "cell");
}

Result<std::unique_ptr<SlstmLearner>> SlstmLearner::make(const Config& config, const LearnerContext& context) {
  return make_boxed<SlstmLearner>(config, context);
}

SlstmLearner::SlstmLearner(const Config& config, const LearnerContext& context) : BoxedLearner(config, context) {}

SlstmCore::SlstmCore(const SlstmLearnerConfig& config, const LearnerContext& context)
    : UnitRegenCore(config, context) {
  if (ctx_.n_features > 0) (void)build(ctx_.n_features);
}

Status SlstmCore::build(std::size_t n_features) {
  const SlstmLearnerConfig& c = cfg_;
  LearnerContext width = ctx_;
  width.n_features = n_features;
  IRITHYLL_RETURN_IF_ERROR(validate(c, width));
  ctx_.n_features = n_features;
  SlstmConfig sc;
  sc.d_in = n_features;
  sc.d_hidden = c.d_hidden;
  sc.n_heads = c.n_heads;
  sc.forget_bias = forget_bias_linspace(c.forget_bias_start, c.forget_bias_stop, c.d_hidden);
  sc.seed = ctx_.seed;
  cell_ = SlstmCell(sc);
  return finish_build(n_features, c.d_hidden + n_features + 1, c.d_hidden);
}

template <bool kLearn>
void SlstmCore::featurize(std::span<const double> x) const {
  detail::cell_readout_features<kLearn>(cell_, x, xin_, features_);
}

// Explicit: RlsReadoutCore's inline flow calls both from other translation units.
template void SlstmCore::featurize<true>(std::span<const double>) const;
template void SlstmCore::featurize<false>(std::span<const double>) const;

std::size_t SlstmCore::extractor_memory_bytes() const {
  return cell_.memory_bytes() + scratch_and_guard_bytes();
}

void SlstmCore::encode(ByteWriter& out) const {
  encode_shared_head(config_fields(), cfg_, ctx_, out);
  encode_state(out);
}

Status SlstmCore::decode(ByteReader& in) {
  SlstmLearnerConfig c;
  LearnerContext context;
  SharedRecord r;
  IRITHYLL_RETURN_IF_ERROR(decode_shared_head(kName, config_fields(), c, context, in, r));
  if (r.version != kReadoutRecordVersion) {
    c.d_hidden = in.u64("slstm d_hidden");
    c.n_heads = in.u64("slstm n_heads");
    c.forget_bias_start = in.f64("slstm forget bias start");
    c.forget_bias_stop = in.f64("slstm forget bias stop");
  }
  IRITHYLL_RETURN_IF_ERROR(decode_shared_tail(kName, c, context, in, r));
  if (Status s = validate(c, context); !s.is_ok()) return bad_decoded_config(kName, s);
  return decode_state(c, context, r.n_seen, r.built, in);
}

Status SlstmCore::decode_extractor(ByteReader& in) {
  IRITHYLL_RETURN_IF_ERROR(cell_.decode(in));
  if (cell_.d_in() != ctx_.n_features || cell_.d_hidden() != cfg_.d_hidden)
    return Status::corruption("slstm: cell does not match the configuration");
  return Status::ok();
}


}  // namespace irithyll::nn

namespace irithyll {
template class BoxedLearner<nn::SlstmCore, nn::SlstmLearnerConfig>;
}  // namespace irithyll
