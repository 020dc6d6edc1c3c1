#include "irithyll/nn/reservoir/esn.hpp"

#include "nn/reservoir/esn_core.hpp"
#include "nn/boxed_learner_impl.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace irithyll::nn {

namespace {
CycleReservoirConfig reservoir_config(const EsnConfig& c, std::size_t d, std::uint64_t seed) {
  CycleReservoirConfig r;
  r.n_neurons = c.n_neurons;
  r.n_inputs = d;
  r.spectral_radius = c.spectral_radius;
  r.input_scaling = c.input_scaling;
  r.leak = c.leak;
  r.bias_scaling = c.bias_scaling;
  r.seed = seed;
  return r;
}
constexpr std::size_t kEsnMaxReadoutInputs = 4096;
}  // namespace

Status EchoStateNetwork::validate(const Config& c, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(check_reservoir_task(kName, context.task, context.n_classes, 1024));
  IRITHYLL_RETURN_IF_ERROR(
      reservoir_config(c, std::max<std::size_t>(context.n_features, 1), context.seed).validate().with_context("esn"));
  if (c.n_neurons + context.n_features + 1 > kEsnMaxReadoutInputs)
    return Status::invalid_argument("esn: n_neurons + n_features must stay below 4096 (the readout is O(m^2))");
  return check_rls_config(kName, c.rls);
}

Result<std::unique_ptr<EchoStateNetwork>> EchoStateNetwork::make(const Config& config, const LearnerContext& context) {
  return make_boxed<EchoStateNetwork>(config, context);
}

EchoStateNetwork::EchoStateNetwork(const Config& config, const LearnerContext& context)
    : BoxedLearner(config, context) {}

EsnCore::EsnCore(const EsnConfig& config, const LearnerContext& context) : ReadoutBankCore(config, context) {
  if (context.n_features > 0) init(context.n_features);
}

bool EsnCore::accepts_width(std::size_t d) const noexcept {
  return config_.n_neurons + d + 1 <= kEsnMaxReadoutInputs;
}

void EsnCore::init(std::size_t d) {
  n_features_ = d;
  reservoir_ = CycleReservoir(reservoir_config(config_, d, context_.seed));
  const std::size_t m = config_.n_neurons + (config_.include_input ? d : 0) + 1;
  readout_ = RlsHead(context_.task, context_.n_classes, m, config_.rls);
  u_.assign(d, 0.0);
  next_state_.assign(config_.n_neurons, 0.0);
  feat_.assign(m, 0.0);
  cache_valid_ = false;
}

bool EsnCore::prepare(std::span<const double> x) const noexcept {
  if (n_features_ == 0 || x.size() != n_features_) return false;
  // Compare before overwriting u_: a bitwise-equal sanitised x hits the cache.
  bool same = cache_valid_;
  for (std::size_t j = 0; j < n_features_; ++j) {
    const double v = std::isfinite(x[j]) ? x[j] : 0.0;
    if (same && std::memcmp(&v, &u_[j], sizeof v) != 0) same = false;
    u_[j] = v;
  }
  if (!same) {
    reservoir_.peek(u_, next_state_);
    cache_valid_ = true;
  }
  const std::size_t n = config_.n_neurons;
  std::copy(next_state_.begin(), next_state_.end(), feat_.begin());
  if (config_.include_input) std::copy(u_.begin(), u_.end(), feat_.begin() + static_cast<std::ptrdiff_t>(n));
  feat_.back() = 1.0;
  return true;
}

void EsnCore::commit() noexcept {
  std::copy(next_state_.begin(), next_state_.end(), reservoir_.mutable_state().begin());
  cache_valid_ = false;
}

void EsnCore::reset_extractor() noexcept {
  cache_valid_ = false;
  reservoir_.reset();
}

std::size_t EsnCore::extractor_memory_bytes() const noexcept {
  return reservoir_.memory_bytes() + (u_.capacity() + next_state_.capacity()) * sizeof(double);
}

void EsnCore::encode(ByteWriter& out) const {
  encode_head(out);
  encode_counts(out);
  if (n_features_ == 0) return;
  reservoir_.encode(out);
  readout_.encode_heads(out);
}

Status EsnCore::decode(ByteReader& in) {
  EsnConfig c;
  LearnerContext context;
  const std::uint8_t first = in.u8("esn record version");
  IRITHYLL_RETURN_IF_ERROR(check_first_byte(first, in));
  if (first == kRecordVersion) {
    IRITHYLL_RETURN_IF_ERROR(decode_settings(in, c, context));
  } else {
    decode_v1_head(first, context, in);
    c.n_neurons = in.u64("n_neurons");
    c.spectral_radius = in.f64("spectral_radius");
    c.input_scaling = in.f64("input_scaling");
    c.leak = in.f64("leak");
    c.bias_scaling = in.f64("bias_scaling");
    c.include_input = in.boolean("include_input");
    c.washout = in.u64("washout");
    c.rls.forgetting_factor = in.f64("rls forgetting");
    c.rls.delta = in.f64("rls delta");
    context.seed = in.u64("seed");
  }
  const auto [d, seen] = decode_counts(in);
  if (!in.ok()) return in.status();
  IRITHYLL_RETURN_IF_ERROR(EchoStateNetwork::validate(c, context).with_context("esn model"));
  if (d > 4096 || (context.n_features != 0 && d != context.n_features) || c.n_neurons + d + 1 > kEsnMaxReadoutInputs)
    return Status::corruption("esn: feature count does not match the configuration");
  EsnCore fresh(c, context);
  if (d > 0) {
    if (fresh.n_features_ == 0) fresh.init(d);
    IRITHYLL_RETURN_IF_ERROR(fresh.reservoir_.decode(in));
    if (fresh.reservoir_.n_neurons() != c.n_neurons || fresh.reservoir_.n_inputs() != d)
      return Status::corruption("esn: reservoir shape does not match the configuration");
    IRITHYLL_RETURN_IF_ERROR(fresh.readout_.decode_heads(in));
  }
  fresh.n_seen_ = seen;
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn

namespace irithyll {
template class BoxedLearner<nn::EsnCore, nn::EsnConfig>;
}  // namespace irithyll
