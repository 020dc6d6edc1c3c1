#include "irithyll/ensemble/moe_sgbt.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ensemble/sgbt_family.hpp"
#include "moe_rows.hpp"

namespace irithyll {

namespace {

constexpr std::uint32_t kMoeSgbtFormatVersion = 3;
constexpr std::uint64_t kMoeSgbtGateStream = 0x6A7E0000ull;  // the gate's seed index, apart from any expert's

using MoeSgbtRow = ConfigField<MoESGBTConfig>;

const std::vector<MoeSgbtRow>& moe_sgbt_table() {
  static const std::vector<MoeSgbtRow> rows = moe_gate_rows<MoESGBTConfig>();
  return rows;
}

}  // namespace

std::span<const ConfigField<MoESGBTConfig>> moe_sgbt_config_fields() { return moe_sgbt_table(); }

Status MoESGBTConfig::validate() const {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<MoESGBTConfig>("moe_sgbt", moe_sgbt_table(), *this));
  return base.validate().with_context("moe_sgbt");
}

Status MoESGBTConfig::decode(ByteReader& in) {
  MoESGBTConfig c;
  c.n_experts = in.u32("n_experts");
  c.gate_lr = in.f64("gate_lr");
  const std::uint8_t routing = in.u8("routing");
  c.top_k = in.u32("top_k");
  if (!in.ok()) return in.status();
  if (routing > 1) return Status::corruption("moe_sgbt: bad routing");
  c.routing = static_cast<MoERouting>(routing);
  IRITHYLL_RETURN_IF_ERROR(c.base.decode(in));
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("moe_sgbt config"));
  *this = c;
  return Status::ok();
}

MoESGBT::MoESGBT() : MoESGBT(MoESGBTConfig{}, LearnerContext{.seed = SGBTConfig{}.seed}) {}

MoESGBT::MoESGBT(const MoESGBTConfig& config, const LearnerContext& context)
    : config_(config),
      task_(context.task),
      n_classes_(context.task == Task::kClassification ? context.n_classes : 0) {
  config_.base.seed = context.seed;
  reset();
}

std::span<const ConfigField<MoESGBTConfig>> MoESGBT::config_fields() {
  return ensemble_detail::family_table<MoESGBTConfig, &moe_sgbt_config_fields>();
}

Result<std::unique_ptr<MoESGBT>> MoESGBT::make(const Config& config, const LearnerContext& context) {
  Config c = config;
  c.base.seed = context.seed;
  IRITHYLL_RETURN_IF_ERROR(c.validate());
  IRITHYLL_RETURN_IF_ERROR(SGBTLearner::check(c.base, context).with_context(kName));  // the SGBT's own task checks
  return std::make_unique<MoESGBT>(c, context);
}

void MoESGBT::reset() {
  const std::uint64_t seed = config_.base.seed;
  gate_ = MoEGate(config_.n_experts, derive_seed(seed, kMoeSgbtGateStream));
  experts_.clear();
  experts_.reserve(config_.n_experts);
  for (std::uint32_t e = 0; e < config_.n_experts; ++e) {
    SGBTConfig c = config_.base;
    c.seed = derive_seed(seed, e);
    experts_.emplace_back(c, LearnerContext{.task = task_, .n_classes = n_classes_, .seed = c.seed});
  }
  probs_.assign(config_.n_experts, 0.0);
  route_.assign(config_.n_experts, 0.0);
  proba_.assign(n_classes(), 0.0);
  mix_.assign(n_classes(), 0.0);
  samples_seen_ = skipped_ = 0;
}

void MoESGBT::routing_weights(std::span<const double> x, std::span<double> out) const {
  gate_.route_at(x, config_.routing, config_.top_k, probs_, out);
}

double MoESGBT::expert_loss(std::size_t k, std::span<const double> x, double y) const {
  if (task_ == Task::kRegression) {
    const double r = experts_[k].predict_one(x) - y;
    return r * r;
  }
  experts_[k].predict_proba_one(x, proba_);
  return -std::log(std::max(proba_[static_cast<std::size_t>(y)], 1e-300));
}

void MoESGBT::learn_one(std::span<const double> x, double y, double weight) {
  if (!sample_admissible(x, y, weight, gate_.n_features(), task_, n_classes_)) {
    ++skipped_;
    return;
  }
  if (gate_.n_features() == 0) gate_.resize(x.size());  // the first sample fixes the width
  gate_.route_at(x, config_.routing, config_.top_k, probs_, route_);
  std::size_t best = 0;
  double best_loss = 0.0;
  for (std::size_t k = 0; k < experts_.size(); ++k) {
    const double loss = expert_loss(k, x, y);
    if (k == 0 || loss < best_loss) best = k, best_loss = loss;
  }
  const double n_routed = static_cast<double>(MoEGate::n_routed(config_.routing, config_.top_k, experts_.size()));
  for (std::size_t k = 0; k < experts_.size(); ++k) {
    const double w = weight * n_routed * route_[k];
    if (w > 0.0) experts_[k].learn_one(x, y, w);
  }
  gate_.learn(x, probs_, best, config_.gate_lr, weight);
  ++samples_seen_;
}

double MoESGBT::predict_one(std::span<const double> x) const {
  if (task_ == Task::kClassification) {
    predict_proba_one(x, mix_);  // proba_ is the experts' scratch; the mixture has its own
    return static_cast<double>(std::max_element(mix_.begin(), mix_.end()) - mix_.begin());
  }
  routing_weights(x, route_);
  double s = 0.0;
  for (std::size_t k = 0; k < experts_.size(); ++k)
    if (route_[k] > 0.0) s += route_[k] * experts_[k].predict_one(x);
  return s;
}

void MoESGBT::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (task_ != Task::kClassification || proba.size() != n_classes_) return;
  routing_weights(x, route_);
  std::fill(proba.begin(), proba.end(), 0.0);
  for (std::size_t k = 0; k < experts_.size(); ++k) {
    if (!(route_[k] > 0.0)) continue;
    experts_[k].predict_proba_one(x, proba_);
    for (std::size_t c = 0; c < n_classes_; ++c) proba[c] += route_[k] * proba_[c];
  }
}

std::size_t MoESGBT::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + gate_.memory_bytes() +
                      (probs_.capacity() + route_.capacity() + proba_.capacity() + mix_.capacity()) * sizeof(double) +
                      (experts_.capacity() - experts_.size()) * sizeof(SGBTLearner);
  for (const SGBTLearner& e : experts_) bytes += e.memory_bytes();
  return bytes;
}

// Version 1 wrote the binary config (and every expert its own); version 2
// the settings by name once and the experts' states alone, whose trees still
// carried their binary configs; version 3 derives the trees' settings from
// the named ones.
void MoESGBT::encode(ByteWriter& out) const {
  out.u32(kMoeSgbtFormatVersion);
  ensemble_detail::encode_settings<MoESGBT>(
      config_, LearnerContext{.task = task_, .n_classes = n_classes(), .seed = config_.base.seed}, out);
  out.u64(gate_.n_features());
  out.u64(samples_seen_);
  out.u64(skipped_);
  gate_.encode(out);
  for (const SGBTLearner& e : experts_) e.encode_state(out);
}

Status MoESGBT::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("moe_sgbt version");
  if (!in.ok()) return in.status();
  if (version < 1 || version > kMoeSgbtFormatVersion)
    return Status::corruption("moe_sgbt: unknown record version " + std::to_string(version));
  if (version >= 2) {
    const TreeSettings trees = version == 2 ? TreeSettings::kInRecord : TreeSettings::kDerived;
    auto made = ensemble_detail::decode_settings<MoESGBT>(in);
    if (!made) return made.status();
    MoESGBT& m = **made;
    const std::uint64_t d = in.u64("n_features");
    m.samples_seen_ = in.u64("samples_seen");
    m.skipped_ = in.u64("skipped");
    if (!in.ok()) return in.status();
    IRITHYLL_RETURN_IF_ERROR(m.gate_.decode(in).with_context("moe_sgbt gate"));
    if (m.gate_.n_experts() != m.config_.n_experts || m.gate_.n_features() != d)
      return Status::corruption("moe_sgbt: gate sizes differ from the model's");
    for (SGBTLearner& e : m.experts_) {
      IRITHYLL_RETURN_IF_ERROR(e.decode_state(in, trees).with_context("moe_sgbt expert"));
      if (e.n_features() != 0 && e.n_features() != d) return Status::corruption("moe_sgbt: an expert's feature count differs");
    }
    *this = std::move(m);
    return Status::ok();
  }
  MoESGBTConfig config;
  IRITHYLL_RETURN_IF_ERROR(config.decode(in));
  const std::uint8_t task = in.u8("task");
  const std::uint64_t k = in.u64("n_classes"), d = in.u64("n_features");
  const std::uint64_t seen = in.u64("samples_seen"), skipped = in.u64("skipped");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("moe_sgbt: bad task");
  const Task t = static_cast<Task>(task);
  if (t == Task::kClassification ? (k < 2 || k > 4096) : k != 0) return Status::corruption("moe_sgbt: bad class count");
  IRITHYLL_RETURN_IF_ERROR(
      ensemble_detail::check_slots_fit<MoESGBT>(config, {.task = t, .n_classes = static_cast<std::size_t>(k)}, in));
  MoEGate gate;
  IRITHYLL_RETURN_IF_ERROR(gate.decode(in).with_context("moe_sgbt gate"));
  if (gate.n_experts() != config.n_experts || gate.n_features() != d)
    return Status::corruption("moe_sgbt: gate sizes differ from the model's");
  std::vector<SGBTLearner> experts(config.n_experts);
  for (std::uint32_t e = 0; e < config.n_experts; ++e) {
    IRITHYLL_RETURN_IF_ERROR(experts[e].decode(in).with_context("moe_sgbt expert"));
    if (experts[e].task() != t || experts[e].n_classes() != k) return Status::corruption("moe_sgbt: expert task or classes differ");
    // An expert never routed a sample has no width yet (0).
    if (experts[e].n_features() != 0 && experts[e].n_features() != d)
      return Status::corruption("moe_sgbt: an expert's feature count differs");
  }
  config_ = config;
  task_ = t;
  n_classes_ = k;
  samples_seen_ = seen;
  skipped_ = skipped;
  gate_ = std::move(gate);
  experts_ = std::move(experts);
  probs_.assign(config_.n_experts, 0.0);
  route_.assign(config_.n_experts, 0.0);
  proba_.assign(n_classes(), 0.0);
  mix_.assign(n_classes(), 0.0);
  return Status::ok();
}

}  // namespace irithyll
