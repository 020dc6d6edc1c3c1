#include "irithyll/nn/reservoir/ngrc.hpp"

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
constexpr std::size_t kMaxReadoutInputs = 4096;
}  // namespace

Status NgrcLearnerConfig::validate() const {
  if (task == Task::kClassification && (n_classes < 2 || n_classes > 1024))
    return Status::invalid_argument("ngrc: classification needs n_classes in [2, 1024]");
  if (task != Task::kClassification && task != Task::kRegression) return Status::invalid_argument("ngrc: unknown task");
  const NgrcConfig f = feature_config(*this, std::max<std::size_t>(n_features, 1));
  IRITHYLL_RETURN_IF_ERROR(f.validate());
  if (f.n_features() > kMaxReadoutInputs)
    return Status::invalid_argument("ngrc: more than 4096 features (the readout is O(m^2)); reduce k or degree");
  if (!(rls.forgetting_factor > 0.0 && rls.forgetting_factor <= 1.0))
    return Status::invalid_argument("ngrc: RLS forgetting factor must be in (0, 1]");
  if (!(rls.delta > 0.0) || !std::isfinite(rls.delta)) return Status::invalid_argument("ngrc: RLS delta must be > 0");
  return Status::ok();
}

NextGenReservoir::NextGenReservoir(const NgrcLearnerConfig& config) : config_(config) {
  if (config.n_features > 0) init(config.n_features);
}

Result<std::unique_ptr<NextGenReservoir>> NextGenReservoir::make(const NgrcLearnerConfig& config) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  return std::make_unique<NextGenReservoir>(config);
}

void NextGenReservoir::init(std::size_t d) {
  n_features_ = d;
  features_ = NgrcFeatures(feature_config(config_, d));
  readout_ = ReadoutBank(config_.task, config_.n_classes, features_.n_features(), config_.rls);
  u_.assign(d, 0.0);
  feat_.assign(features_.n_features(), 0.0);
}

bool NextGenReservoir::prepare(std::span<const double> x) const noexcept {
  if (n_features_ == 0 || x.size() != n_features_) return false;
  sanitize_input(x, u_);
  features_.features_with(u_, feat_);
  return true;
}

void NextGenReservoir::learn_one(std::span<const double> x, double y, double weight) {
  if (n_features_ == 0) {
    if (x.empty()) return;
    NgrcLearnerConfig c = config_;
    c.n_features = x.size();
    if (!c.validate().is_ok()) return;
    init(x.size());
  }
  if (!prepare(x)) return;
  features_.push(u_);
  ++n_seen_;
  if (!features_.is_ready() || !(weight > 0.0) || !std::isfinite(weight)) return;
  readout_.update(feat_, y);
}

double NextGenReservoir::predict_one(std::span<const double> x) const {
  if (!prepare(x)) return 0.0;
  return readout_.predict(feat_);
}

void NextGenReservoir::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (config_.task != Task::kClassification) return;
  if (!prepare(x)) {
    std::fill(proba.begin(), proba.end(), proba.empty() ? 0.0 : 1.0 / static_cast<double>(proba.size()));
    return;
  }
  readout_.predict_proba(feat_, proba);
}

void NextGenReservoir::reset() {
  n_seen_ = 0;
  if (config_.n_features == 0) {
    *this = NextGenReservoir(config_);
    return;
  }
  features_.reset();
  readout_.reset();
}

std::size_t NextGenReservoir::memory_bytes() const {
  return sizeof(*this) + features_.memory_bytes() + readout_.memory_bytes() +
         (u_.capacity() + feat_.capacity()) * sizeof(double);
}

void NextGenReservoir::encode(ByteWriter& out) const {
  out.u8(static_cast<std::uint8_t>(config_.task));
  out.u64(config_.n_classes);
  out.u64(config_.n_features);
  out.u64(config_.k);
  out.u64(config_.s);
  out.u64(config_.degree);
  out.f64(config_.rls.forgetting_factor);
  out.f64(config_.rls.delta);
  out.u64(n_features_);
  out.u64(n_seen_);
  if (n_features_ == 0) return;
  features_.buffer().encode(out);
  readout_.encode(out);
}

Status NextGenReservoir::decode(ByteReader& in) {
  NgrcLearnerConfig c;
  const std::uint8_t task = in.u8("task");
  c.task = task == 1 ? Task::kClassification : Task::kRegression;
  c.n_classes = in.u64("n_classes");
  c.n_features = in.u64("n_features");
  c.k = in.u64("k");
  c.s = in.u64("s");
  c.degree = in.u64("degree");
  c.rls.forgetting_factor = in.f64("rls forgetting");
  c.rls.delta = in.f64("rls delta");
  const std::uint64_t d = in.u64("active n_features");
  const std::uint64_t seen = in.u64("n_samples_seen");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("ngrc: unknown task code");
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("ngrc model"));
  if (d > 4096 || (c.n_features != 0 && d != c.n_features))
    return Status::corruption("ngrc: feature count does not match the configuration");
  NextGenReservoir fresh(c);
  if (d > 0) {
    NgrcLearnerConfig cd = c;
    cd.n_features = d;
    IRITHYLL_RETURN_IF_ERROR(cd.validate().with_context("ngrc model"));
    if (fresh.n_features_ == 0) fresh.init(d);
    IRITHYLL_RETURN_IF_ERROR(fresh.features_.buffer().decode(in));
    IRITHYLL_RETURN_IF_ERROR(fresh.readout_.decode(in));
  }
  fresh.n_seen_ = seen;
  *this = std::move(fresh);
  return Status::ok();
}

}  // namespace irithyll::nn
