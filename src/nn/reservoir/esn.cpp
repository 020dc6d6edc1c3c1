#include "irithyll/nn/reservoir/esn.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace irithyll::nn {

namespace {
CycleReservoirConfig reservoir_config(const EsnConfig& c, std::size_t d) {
  CycleReservoirConfig r;
  r.n_neurons = c.n_neurons;
  r.n_inputs = d;
  r.spectral_radius = c.spectral_radius;
  r.input_scaling = c.input_scaling;
  r.leak = c.leak;
  r.bias_scaling = c.bias_scaling;
  r.seed = c.seed;
  return r;
}
constexpr std::size_t kMaxReadoutInputs = 4096;
}  // namespace

Status EsnConfig::validate() const {
  if (task == Task::kClassification && (n_classes < 2 || n_classes > 1024))
    return Status::invalid_argument("esn: classification needs n_classes in [2, 1024]");
  if (task != Task::kClassification && task != Task::kRegression) return Status::invalid_argument("esn: unknown task");
  IRITHYLL_RETURN_IF_ERROR(reservoir_config(*this, std::max<std::size_t>(n_features, 1)).validate().with_context("esn"));
  if (n_neurons + n_features + 1 > kMaxReadoutInputs)
    return Status::invalid_argument("esn: n_neurons + n_features must stay below 4096 (the readout is O(m^2))");
  if (!(rls.forgetting_factor > 0.0 && rls.forgetting_factor <= 1.0))
    return Status::invalid_argument("esn: RLS forgetting factor must be in (0, 1]");
  if (!(rls.delta > 0.0) || !std::isfinite(rls.delta)) return Status::invalid_argument("esn: RLS delta must be > 0");
  return Status::ok();
}

EchoStateNetwork::EchoStateNetwork(const EsnConfig& config) : config_(config) {
  if (config.n_features > 0) init(config.n_features);
}

Result<std::unique_ptr<EchoStateNetwork>> EchoStateNetwork::make(const EsnConfig& config) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  return std::make_unique<EchoStateNetwork>(config);
}

void EchoStateNetwork::init(std::size_t d) {
  n_features_ = d;
  reservoir_ = CycleReservoir(reservoir_config(config_, d));
  const std::size_t m = config_.n_neurons + (config_.include_input ? d : 0) + 1;
  readout_ = ReadoutBank(config_.task, config_.n_classes, m, config_.rls);
  u_.assign(d, 0.0);
  next_state_.assign(config_.n_neurons, 0.0);
  feat_.assign(m, 0.0);
  cache_valid_ = false;
}

bool EchoStateNetwork::prepare(std::span<const double> x) const noexcept {
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

void EchoStateNetwork::learn_one(std::span<const double> x, double y, double weight) {
  if (n_features_ == 0) {
    if (x.empty() || config_.n_neurons + x.size() + 1 > kMaxReadoutInputs) return;
    init(x.size());
  }
  if (!prepare(x)) return;
  std::copy(next_state_.begin(), next_state_.end(), reservoir_.mutable_state().begin());
  cache_valid_ = false;
  ++n_seen_;
  if (n_seen_ <= config_.washout || !(weight > 0.0) || !std::isfinite(weight)) return;
  readout_.update(feat_, y);
}

double EchoStateNetwork::predict_one(std::span<const double> x) const {
  if (!prepare(x)) return 0.0;
  return readout_.predict(feat_);
}

void EchoStateNetwork::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (config_.task != Task::kClassification) return;
  if (!prepare(x)) {
    std::fill(proba.begin(), proba.end(), proba.empty() ? 0.0 : 1.0 / static_cast<double>(proba.size()));
    return;
  }
  readout_.predict_proba(feat_, proba);
}

void EchoStateNetwork::reset() {
  n_seen_ = 0;
  cache_valid_ = false;
  if (config_.n_features == 0) {
    *this = EchoStateNetwork(config_);
    return;
  }
  reservoir_.reset();
  readout_.reset();
}

std::size_t EchoStateNetwork::memory_bytes() const {
  return sizeof(*this) + reservoir_.memory_bytes() + readout_.memory_bytes() +
         (u_.capacity() + next_state_.capacity() + feat_.capacity()) * sizeof(double);
}

void EchoStateNetwork::encode(ByteWriter& out) const {
  out.u8(static_cast<std::uint8_t>(config_.task));
  out.u64(config_.n_classes);
  out.u64(config_.n_features);
  out.u64(config_.n_neurons);
  out.f64(config_.spectral_radius);
  out.f64(config_.input_scaling);
  out.f64(config_.leak);
  out.f64(config_.bias_scaling);
  out.boolean(config_.include_input);
  out.u64(config_.washout);
  out.f64(config_.rls.forgetting_factor);
  out.f64(config_.rls.delta);
  out.u64(config_.seed);
  out.u64(n_features_);
  out.u64(n_seen_);
  if (n_features_ == 0) return;
  reservoir_.encode(out);
  readout_.encode(out);
}

Status EchoStateNetwork::decode(ByteReader& in) {
  EsnConfig c;
  const std::uint8_t task = in.u8("task");
  c.task = task == 1 ? Task::kClassification : Task::kRegression;
  c.n_classes = in.u64("n_classes");
  c.n_features = in.u64("n_features");
  c.n_neurons = in.u64("n_neurons");
  c.spectral_radius = in.f64("spectral_radius");
  c.input_scaling = in.f64("input_scaling");
  c.leak = in.f64("leak");
  c.bias_scaling = in.f64("bias_scaling");
  c.include_input = in.boolean("include_input");
  c.washout = in.u64("washout");
  c.rls.forgetting_factor = in.f64("rls forgetting");
  c.rls.delta = in.f64("rls delta");
  c.seed = in.u64("seed");
  const std::uint64_t d = in.u64("active n_features");
  const std::uint64_t seen = in.u64("n_samples_seen");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("esn: unknown task code");
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("esn model"));
  if (d > 4096 || (c.n_features != 0 && d != c.n_features) || c.n_neurons + d + 1 > kMaxReadoutInputs)
    return Status::corruption("esn: feature count does not match the configuration");
  EchoStateNetwork fresh(c);
  if (d > 0) {
    if (fresh.n_features_ == 0) fresh.init(d);
    IRITHYLL_RETURN_IF_ERROR(fresh.reservoir_.decode(in));
    if (fresh.reservoir_.n_neurons() != c.n_neurons || fresh.reservoir_.n_inputs() != d)
      return Status::corruption("esn: reservoir shape does not match the configuration");
    IRITHYLL_RETURN_IF_ERROR(fresh.readout_.decode(in));
  }
  fresh.n_seen_ = seen;
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn
