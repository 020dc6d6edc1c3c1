#include "irithyll/nn/rnn/slstm_learner.hpp"

#include <algorithm>
#include <cmath>

#include "nn/rnn/slstm_core.hpp"
#include "nn/boxed_learner_impl.hpp"
#include "nn/sanitize_input.hpp"

namespace irithyll::nn {

Status SlstmLearner::validate(const SlstmLearnerConfig& c) {
  IRITHYLL_RETURN_IF_ERROR(check_shared_task(kName, c));
  if (c.d_hidden == 0 || c.d_hidden > 1024 || c.n_heads == 0 || c.d_hidden % c.n_heads != 0)
    return Status::invalid_argument("slstm: d_hidden in 1..1024 and n_heads dividing it");
  if (c.n_features > 4096) return Status::invalid_argument("slstm: too many features");
  if (!std::isfinite(c.forget_bias_start) || !std::isfinite(c.forget_bias_stop))
    return Status::invalid_argument("slstm: forget bias must be finite");
  return check_shared_readout(kName, c, "cell");
}

SlstmCore::SlstmCore(const SlstmLearnerConfig& config) : UnitRegenLearner(config) {
  if (cfg_.n_features > 0) (void)build(cfg_.n_features);
}

Status SlstmCore::build(std::size_t n_features) {
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
  return finish_build(n_features, c.d_hidden + n_features + 1, c.d_hidden);
}

template <bool kLearn>
void SlstmCore::featurize(std::span<const double> x) const {
  const std::size_t hd = cfg_.d_hidden;
  sanitize_input(x, xin_);
  std::copy(xin_.begin(), xin_.end(), features_.begin() + static_cast<std::ptrdiff_t>(hd));
  features_.back() = 1.0;
  if constexpr (kLearn) {
    const_cast<SlstmCell&>(cell_).forward(xin_, {features_.data(), hd});
  } else {
    cell_.forward_predict(xin_, {features_.data(), hd});
  }
}

// Explicit: RlsReadoutLearner's inline flow calls both from other translation units.
template void SlstmCore::featurize<true>(std::span<const double>) const;
template void SlstmCore::featurize<false>(std::span<const double>) const;

std::size_t SlstmCore::extractor_memory_bytes() const {
  return cell_.memory_bytes() + scratch_and_guard_bytes();
}

void SlstmCore::encode(ByteWriter& out) const {
  encode_shared_head(cfg_, out);
  out.u64(cfg_.d_hidden);
  out.u64(cfg_.n_heads);
  out.f64(cfg_.forget_bias_start);
  out.f64(cfg_.forget_bias_stop);
  encode_shared_tail(cfg_, out);
  encode_state(out);
}

Status SlstmCore::decode(ByteReader& in) {
  SlstmLearnerConfig c;
  SharedRecord r;
  IRITHYLL_RETURN_IF_ERROR(decode_shared_head(kName, c, in, r));
  c.d_hidden = in.u64("slstm d_hidden");
  c.n_heads = in.u64("slstm n_heads");
  c.forget_bias_start = in.f64("slstm forget bias start");
  c.forget_bias_stop = in.f64("slstm forget bias stop");
  IRITHYLL_RETURN_IF_ERROR(decode_shared_tail(kName, c, in, r));
  if (r.task > 1) return Status::corruption("slstm: bad task");
  c.task = static_cast<Task>(r.task);
  if (Status s = validate(c); !s.is_ok()) return bad_decoded_config(kName, s);
  return decode_state(c, r.n_seen, r.built, in);
}

Status SlstmCore::decode_extractor(ByteReader& in) {
  IRITHYLL_RETURN_IF_ERROR(cell_.decode(in));
  if (cell_.d_in() != cfg_.n_features || cell_.d_hidden() != cfg_.d_hidden)
    return Status::corruption("slstm: cell does not match the configuration");
  return Status::ok();
}


}  // namespace irithyll::nn

namespace irithyll {
template class BoxedLearner<nn::SlstmCore, nn::SlstmLearnerConfig>;
}  // namespace irithyll
