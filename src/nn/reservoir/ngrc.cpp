#include "irithyll/nn/reservoir/ngrc.hpp"

#include "nn/reservoir/ngrc_core.hpp"
#include "nn/boxed_learner_impl.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll::nn {

namespace {
NgrcConfig feature_config(const NgrcLearnerConfig& c, std::size_t d) {
  NgrcConfig f;
  f.n_inputs = d;
  f.k = c.k;
  f.s = c.s;
  f.degree = c.degree;
  f.constant = true;
  return f;
}
constexpr std::size_t kNgrcMaxReadoutInputs = 4096;
}  // namespace

Status NextGenReservoir::validate(const Config& c, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(check_reservoir_task(kName, context.task, context.n_classes, 1024));
  const NgrcConfig f = feature_config(c, std::max<std::size_t>(context.n_features, 1));
  IRITHYLL_RETURN_IF_ERROR(f.validate());
  if (f.n_features() > kNgrcMaxReadoutInputs)
    return Status::invalid_argument("ngrc: more than 4096 features (the readout is O(m^2)); reduce k or degree");
  return check_rls_config(kName, c.rls);
}

Result<std::unique_ptr<NextGenReservoir>> NextGenReservoir::make(const Config& config, const LearnerContext& context) {
  return make_boxed<NextGenReservoir>(config, context);
}

NextGenReservoir::NextGenReservoir(const Config& config, const LearnerContext& context)
    : BoxedLearner(config, context) {}

NgrcCore::NgrcCore(const NgrcLearnerConfig& config, const LearnerContext& context)
    : ReadoutBankCore(config, context) {
  if (context.n_features > 0) init(context.n_features);
}

bool NgrcCore::accepts_width(std::size_t d) const {
  LearnerContext c = context_;
  c.n_features = d;
  return NextGenReservoir::validate(config_, c).is_ok();
}

void NgrcCore::init(std::size_t d) {
  n_features_ = d;
  features_ = NgrcFeatures(feature_config(config_, d));
  readout_ = RlsHead(context_.task, context_.n_classes, features_.n_features(), config_.rls);
  u_.assign(d, 0.0);
  feat_.assign(features_.n_features(), 0.0);
}

bool NgrcCore::prepare(std::span<const double> x) const noexcept {
  if (n_features_ == 0 || x.size() != n_features_) return false;
  sanitize_input(x, u_);
  features_.features_with(u_, feat_);
  return true;
}

std::size_t NgrcCore::extractor_memory_bytes() const noexcept {
  return features_.memory_bytes() + u_.capacity() * sizeof(double);
}

void NgrcCore::encode(ByteWriter& out) const {
  encode_head(out);
  encode_counts(out);
  if (n_features_ == 0) return;
  features_.buffer().encode(out);
  readout_.encode_heads(out);
}

Status NgrcCore::decode(ByteReader& in) {
  NgrcLearnerConfig c;
  LearnerContext context;
  const std::uint8_t first = in.u8("ngrc record version");
  IRITHYLL_RETURN_IF_ERROR(check_first_byte(first, in));
  if (first == kRecordVersion) {
    IRITHYLL_RETURN_IF_ERROR(decode_settings(in, c, context));
  } else {
    decode_v1_head(first, context, in);
    c.k = in.u64("k");
    c.s = in.u64("s");
    c.degree = in.u64("degree");
    c.rls.forgetting_factor = in.f64("rls forgetting");
    c.rls.delta = in.f64("rls delta");
  }
  const auto [d, seen] = decode_counts(in);
  if (!in.ok()) return in.status();
  IRITHYLL_RETURN_IF_ERROR(NextGenReservoir::validate(c, context).with_context("ngrc model"));
  if (d > 4096 || (context.n_features != 0 && d != context.n_features))
    return Status::corruption("ngrc: feature count does not match the configuration");
  NgrcCore fresh(c, context);
  if (d > 0) {
    LearnerContext cd = context;
    cd.n_features = d;
    IRITHYLL_RETURN_IF_ERROR(NextGenReservoir::validate(c, cd).with_context("ngrc model"));
    if (fresh.n_features_ == 0) fresh.init(d);
    IRITHYLL_RETURN_IF_ERROR(fresh.features_.buffer().decode(in));
    IRITHYLL_RETURN_IF_ERROR(fresh.readout_.decode_heads(in));
  }
  fresh.n_seen_ = seen;
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn

namespace irithyll {
template class BoxedLearner<nn::NgrcCore, nn::NgrcLearnerConfig>;
}  // namespace irithyll
