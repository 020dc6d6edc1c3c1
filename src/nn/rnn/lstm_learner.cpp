#include "irithyll/nn/rnn/lstm_learner.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "nn/boxed_learner_impl.hpp"
#include "nn/rnn/lstm_core.hpp"

namespace irithyll::nn {

Status LstmLearner::validate(const Config& c, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(check_shared_task(kName, context));
  if (c.d_hidden == 0 || c.d_hidden > 1024) return Status::invalid_argument("lstm: d_hidden must be in 1..1024");
  if (context.n_features > 4096) return Status::invalid_argument("lstm: too many features");
  if (!std::isfinite(c.forget_bias)) return Status::invalid_argument("lstm: forget bias must be finite");
  // The read-out keeps one (d_hidden + n_features + 1)^2 RLS matrix per class
  // (one in regression): refuse more than 2^25 doubles (256 MiB) in all, so a
  // setting or a checkpoint cannot ask for gigabytes at the first sample.
  const std::size_t inputs = c.d_hidden + context.n_features + 1;
  const std::size_t heads = context.task == Task::kClassification ? std::max<std::size_t>(context.n_classes, 1) : 1;
  if (heads * inputs * inputs > (std::size_t{1} << 25))
    return Status::invalid_argument("lstm: the read-out would hold " + std::to_string(heads) + " x " +
                                    std::to_string(inputs) + "^2 doubles (more than 256 MiB): fewer hidden units, " +
                                    "features or classes");
  return check_shared_readout(kName, c, "cell");
}

Result<std::unique_ptr<LstmLearner>> LstmLearner::make(const Config& config, const LearnerContext& context) {
  return make_boxed<LstmLearner>(config, context);
}

LstmLearner::LstmLearner(const Config& config, const LearnerContext& context) : BoxedLearner(config, context) {}

LstmCore::LstmCore(const LstmLearnerConfig& config, const LearnerContext& context) : UnitRegenCore(config, context) {
  if (ctx_.n_features > 0) (void)build(ctx_.n_features);
}

Status LstmCore::build(std::size_t n_features) {
  LearnerContext width = ctx_;
  width.n_features = n_features;
  IRITHYLL_RETURN_IF_ERROR(validate(cfg_, width));
  ctx_.n_features = n_features;
  cell_ = LstmCell(LstmConfig{n_features, cfg_.d_hidden, cfg_.forget_bias, ctx_.seed});
  return finish_build(n_features, cfg_.d_hidden + n_features + 1, cfg_.d_hidden);
}

void LstmCore::encode(ByteWriter& out) const {
  encode_shared_head(config_fields(), cfg_, ctx_, out);
  encode_state(out);
}

Status LstmCore::decode(ByteReader& in) {
  LstmLearnerConfig c;
  LearnerContext context;
  SharedRecord r;
  IRITHYLL_RETURN_IF_ERROR(decode_shared_head(kName, config_fields(), c, context, in, r));
  // "lstm" only ever wrote the settings-by-name record.
  if (r.version != kReadoutRecordVersion) return Status::corruption("lstm: unsupported record version");
  IRITHYLL_RETURN_IF_ERROR(decode_shared_tail(kName, c, context, in, r));
  if (Status s = validate(c, context); !s.is_ok()) return bad_decoded_config(kName, s);
  return decode_state(c, context, r.n_seen, r.built, in);
}

Status LstmCore::decode_extractor(ByteReader& in) {
  IRITHYLL_RETURN_IF_ERROR(cell_.decode(in));
  if (cell_.d_in() != ctx_.n_features || cell_.d_hidden() != cfg_.d_hidden || cell_.forget_bias() != cfg_.forget_bias)
    return Status::corruption("lstm: cell does not match the configuration");
  return Status::ok();
}

}  // namespace irithyll::nn

namespace irithyll {
template class BoxedLearner<nn::LstmCore, nn::LstmLearnerConfig>;
}  // namespace irithyll
