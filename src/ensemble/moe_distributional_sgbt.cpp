#include "irithyll/ensemble/moe_distributional_sgbt.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ensemble/sgbt_family.hpp"
#include "moe_rows.hpp"

namespace irithyll {

namespace {

constexpr std::uint32_t kMoeDistributionalSgbtFormatVersion = 3;
constexpr std::uint64_t kMoeDistributionalSgbtGateStream = 0x6A7E0000ull;     // the gate's seed index
constexpr std::uint64_t kShadowStream = 0x5AAD0000ull;   // shadow g's seed index: kShadowStream + g
constexpr double kSigmaFloor = 1e-9;
constexpr double kMinEffectiveSamples = 30.0;  // the Hoeffding test needs a few samples to mean anything

using Config = MoEDistributionalSGBTConfig;
using MoeDistributionalSgbtRow = ConfigField<Config>;

template <std::size_t I>
Status set_expert(Config& c, std::string_view v) {
  return distributional_sgbt_config_fields()[I].set(c.expert, v);
}
template <std::size_t I>
std::string get_expert(const Config& c) {
  return distributional_sgbt_config_fields()[I].get(c.expert);
}
constexpr std::size_t kMaxExpertRows = 8;

template <std::size_t... I>
std::vector<MoeDistributionalSgbtRow> build_rows(std::index_sequence<I...>) {
  std::vector<MoeDistributionalSgbtRow> rows = moe_gate_rows<Config>();
  rows.push_back(MoeDistributionalSgbtRow{FieldInfo::real("shadow-delta", "0.001", "Hoeffding confidence for swapping a shadow in").in(0, 0.5, true),
                     IRITHYLL_FIELD_REAL(Config, shadow_delta)});
  rows.push_back(MoeDistributionalSgbtRow{FieldInfo::integer("shadow-warmup", "500", "routed samples a shadow learns before it is tested").in(10, 1e8),
                     IRITHYLL_FIELD_UINT(Config, shadow_warmup)});
  rows.push_back(MoeDistributionalSgbtRow{FieldInfo::integer("shadow-window", "2000", "routed samples a shadow is tested for before it restarts").in(10, 1e8),
                     IRITHYLL_FIELD_UINT(Config, shadow_window)});
  const auto inner = distributional_sgbt_config_fields();
  ((I < inner.size() ? rows.push_back(MoeDistributionalSgbtRow{inner[I].info, &set_expert<I>, &get_expert<I>}) : void()), ...);
  return rows;
}

const std::vector<MoeDistributionalSgbtRow>& moe_distributional_sgbt_table() {
  static const std::vector<MoeDistributionalSgbtRow> rows = build_rows(std::make_index_sequence<kMaxExpertRows>{});
  return rows;
}

double gaussian_nll(double y, double mu, double sigma) {
  const double s = std::max(sigma, kSigmaFloor);
  const double z = (y - mu) / s;
  return std::log(s) + 0.5 * z * z;
}

}  // namespace

std::span<const ConfigField<Config>> moe_distributional_sgbt_config_fields() { return moe_distributional_sgbt_table(); }

DistributionalSGBTConfig Config::expert_config(std::uint64_t seed) const {
  DistributionalSGBTConfig c = expert;
  c.base = base;
  c.base.seed = seed;
  return c;
}

Status Config::validate() const {
  if (distributional_sgbt_config_fields().size() > kMaxExpertRows)
    return Status::invalid_argument("moe_distributional_sgbt: the expert moe_distributional_sgbt_table outgrew its adapter");
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>("moe_distributional_sgbt", moe_distributional_sgbt_table(), *this));
  return expert_config(base.seed).validate().with_context("moe_distributional_sgbt");
}

Status Config::decode(ByteReader& in) {
  Config c;
  c.n_experts = in.u32("n_experts");
  c.gate_lr = in.f64("gate_lr");
  const std::uint8_t routing = in.u8("routing");
  c.top_k = in.u32("top_k");
  c.shadow_delta = in.f64("shadow_delta");
  c.shadow_warmup = in.u32("shadow_warmup");
  c.shadow_window = in.u32("shadow_window");
  if (!in.ok()) return in.status();
  if (routing > 1) return Status::corruption("moe_distributional_sgbt: bad routing");
  c.routing = static_cast<MoERouting>(routing);
  IRITHYLL_RETURN_IF_ERROR(c.expert.decode(in));
  c.base = c.expert.base;
  IRITHYLL_RETURN_IF_ERROR(c.validate().with_context("moe_distributional_sgbt config"));
  *this = c;
  return Status::ok();
}

MoEDistributionalSGBT::MoEDistributionalSGBT() : MoEDistributionalSGBT(Config{}) {}

MoEDistributionalSGBT::MoEDistributionalSGBT(const Config& config) : config_(config) { reset(); }

std::span<const ConfigField<MoEDistributionalSGBTConfig>> MoEDistributionalSGBT::config_fields() {
  return ensemble_detail::family_table<MoEDistributionalSGBTConfig, &moe_distributional_sgbt_config_fields>();
}

Result<std::unique_ptr<MoEDistributionalSGBT>> MoEDistributionalSGBT::make(const Config& config, const LearnerContext& context) {
  return ensemble_detail::make_regressor<MoEDistributionalSGBT>(config, context);
}

void MoEDistributionalSGBT::reset() {
  const std::uint64_t seed = config_.base.seed;
  gate_ = MoEGate(config_.n_experts, derive_seed(seed, kMoeDistributionalSgbtGateStream));
  generation_ = swaps_ = 0;
  // Each slot is built from its two models: resize() would first build two
  // default-configured experts per slot only to replace them.
  experts_.clear();
  experts_.reserve(config_.n_experts);
  for (std::uint32_t e = 0; e < config_.n_experts; ++e) {
    DistributionalSGBT active(config_.expert_config(derive_seed(seed, e)));
    experts_.push_back(Slot{std::move(active), next_shadow()});
  }
  probs_.assign(config_.n_experts, 0.0);
  route_.assign(config_.n_experts, 0.0);
  mu_.assign(config_.n_experts, 0.0);
  samples_seen_ = skipped_ = 0;
}

DistributionalSGBT MoEDistributionalSGBT::next_shadow() {
  return DistributionalSGBT(config_.expert_config(derive_seed(config_.base.seed, kShadowStream + generation_++)));
}

void MoEDistributionalSGBT::restart_shadow(Slot& s) {
  s.shadow = next_shadow();
  s.shadow_age = 0;
  s.sum_w = s.sum_w2 = s.sum_wd = s.range = 0.0;
}

void MoEDistributionalSGBT::test_shadow(Slot& s, double w, double nll_active, double nll_shadow) {
  ++s.shadow_age;
  if (s.shadow_age <= config_.shadow_warmup) return;
  const double d = nll_active - nll_shadow;  // > 0: the shadow explains the sample better
  if (!std::isfinite(d)) return;
  s.sum_w += w;
  s.sum_w2 += w * w;
  s.sum_wd += w * d;
  s.range = std::max(s.range, std::abs(d));
  const double n_eff = s.sum_w * s.sum_w / s.sum_w2;
  if (n_eff >= kMinEffectiveSamples) {
    const double mean = s.sum_wd / s.sum_w;
    const double bound = s.range * std::sqrt(2.0 * std::log(1.0 / config_.shadow_delta) / n_eff);
    if (mean > bound) {
      s.active = std::move(s.shadow);
      ++swaps_;
      restart_shadow(s);
      return;
    }
  }
  if (s.shadow_age >= std::uint64_t{config_.shadow_warmup} + config_.shadow_window) {
    restart_shadow(s);
  }
}

void MoEDistributionalSGBT::learn_one(std::span<const double> x, double y, double weight) {
  if (!sample_admissible(x, y, weight, gate_.n_features(), Task::kRegression, 0)) {
    ++skipped_;
    return;
  }
  if (gate_.n_features() == 0) gate_.resize(x.size());  // the first sample fixes the width
  gate_.route_at(x, config_.routing, config_.top_k, probs_, route_);
  const double n_routed = static_cast<double>(MoEGate::n_routed(config_.routing, config_.top_k, experts_.size()));
  std::size_t best = 0;
  double best_nll = 0.0;
  for (std::size_t k = 0; k < experts_.size(); ++k) {
    Slot& s = experts_[k];
    const double nll = gaussian_nll(y, s.active.predict_one(x), s.active.predict_sigma(x));
    if (k == 0 || nll < best_nll) best = k, best_nll = nll;
    const double w = weight * n_routed * route_[k];
    if (!(w > 0.0)) continue;
    const double nll_shadow = gaussian_nll(y, s.shadow.predict_one(x), s.shadow.predict_sigma(x));
    s.active.learn_one(x, y, w);
    s.shadow.learn_one(x, y, w);
    test_shadow(s, route_[k], nll, nll_shadow);
  }
  gate_.learn(x, probs_, best, config_.gate_lr, weight);
  ++samples_seen_;
}

std::pair<double, double> MoEDistributionalSGBT::predict_mu_sigma(std::span<const double> x) const {
  gate_.route_at(x, config_.routing, config_.top_k, probs_, route_);
  // Two passes over the routed experts: the mean, then the total variance
  // around it (no cancellation of sum r (sigma^2 + mu^2) - mu^2).
  double mu = 0.0;
  for (std::size_t k = 0; k < experts_.size(); ++k)
    if (route_[k] > 0.0) mu += route_[k] * (mu_[k] = experts_[k].active.predict_one(x));
  double var = 0.0;
  for (std::size_t k = 0; k < experts_.size(); ++k) {
    if (!(route_[k] > 0.0)) continue;
    const double dm = mu_[k] - mu, s = experts_[k].active.predict_sigma(x);
    var += route_[k] * (s * s + dm * dm);
  }
  return {mu, std::sqrt(var)};
}

double MoEDistributionalSGBT::predict_one(std::span<const double> x) const {
  gate_.route_at(x, config_.routing, config_.top_k, probs_, route_);
  double mu = 0.0;
  for (std::size_t k = 0; k < experts_.size(); ++k)
    if (route_[k] > 0.0) mu += route_[k] * experts_[k].active.predict_one(x);
  return mu;
}

Interval MoEDistributionalSGBT::predict_interval(std::span<const double> x, double level) const {
  if (level != last_level_) {
    last_level_ = level;
    last_z_ = normal_quantile(0.5 * (1.0 + level));
  }
  const auto [mu, sigma] = predict_mu_sigma(x);
  return Interval{mu - last_z_ * sigma, mu + last_z_ * sigma};
}

std::size_t MoEDistributionalSGBT::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + gate_.memory_bytes() + (probs_.capacity() + route_.capacity() + mu_.capacity()) * sizeof(double) +
                      (experts_.capacity() - experts_.size()) * sizeof(Slot);
  for (const Slot& s : experts_) bytes += s.active.memory_bytes() + s.shadow.memory_bytes() + sizeof(Slot) - 2 * sizeof(DistributionalSGBT);
  return bytes;
}

// Version 1 wrote the binary config, and every expert and shadow its own;
// version 2 the settings by name once, then each slot's two seeds (the
// experts' settings are `expert_config(seed)`) and the states alone, whose
// trees still carried their binary configs; version 3 derives the trees'
// settings too.
void MoEDistributionalSGBT::encode(ByteWriter& out) const {
  out.u32(kMoeDistributionalSgbtFormatVersion);
  ensemble_detail::encode_settings<MoEDistributionalSGBT>(config_, LearnerContext{.seed = config_.base.seed}, out);
  out.u64(gate_.n_features());
  out.u64(samples_seen_);
  out.u64(skipped_);
  out.u64(generation_);
  out.u64(swaps_);
  gate_.encode(out);
  for (const Slot& s : experts_) {
    out.u64(s.active.config().base.seed);
    out.u64(s.shadow.config().base.seed);
    s.active.encode_state(out);
    s.shadow.encode_state(out);
    out.u64(s.shadow_age);
    out.f64(s.sum_w);
    out.f64(s.sum_w2);
    out.f64(s.sum_wd);
    out.f64(s.range);
  }
}

Status MoEDistributionalSGBT::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("moe_distributional_sgbt version");
  if (!in.ok()) return in.status();
  if (version < 1 || version > kMoeDistributionalSgbtFormatVersion)
    return Status::corruption("moe_distributional_sgbt: unknown record version " + std::to_string(version));
  const bool states = version >= 2;  // settings by name, the experts' derived from them
  const TreeSettings trees = version == 2 ? TreeSettings::kInRecord : TreeSettings::kDerived;
  // The scratch model is built once, from the record's settings (a default
  // mixture built first would be thrown away whole).
  std::unique_ptr<MoEDistributionalSGBT> scratch;
  if (states) {
    auto made = ensemble_detail::decode_settings<MoEDistributionalSGBT>(in);
    if (!made) return made.status();
    scratch = std::move(*made);
  } else {
    Config legacy;
    IRITHYLL_RETURN_IF_ERROR(legacy.decode(in));
    IRITHYLL_RETURN_IF_ERROR(ensemble_detail::check_slots_fit<MoEDistributionalSGBT>(legacy, {}, in));
    scratch = std::make_unique<MoEDistributionalSGBT>(legacy);
  }
  MoEDistributionalSGBT& next = *scratch;
  const std::uint64_t d = in.u64("n_features");
  next.samples_seen_ = in.u64("samples_seen");
  next.skipped_ = in.u64("skipped");
  next.generation_ = in.u64("generation");
  next.swaps_ = in.u64("swaps");
  if (!in.ok()) return in.status();
  IRITHYLL_RETURN_IF_ERROR(next.gate_.decode(in).with_context("moe_distributional_sgbt gate"));
  if (next.gate_.n_experts() != next.config_.n_experts || next.gate_.n_features() != d)
    return Status::corruption("moe_distributional_sgbt: gate sizes differ from the model's");
  for (Slot& s : next.experts_) {
    if (states) {
      const std::uint64_t active_seed = in.u64("expert seed"), shadow_seed = in.u64("shadow seed");
      if (!in.ok()) return in.status();
      s.active = DistributionalSGBT(next.config_.expert_config(active_seed));
      s.shadow = DistributionalSGBT(next.config_.expert_config(shadow_seed));
      // Both were built just above: read in place (the scratch is dropped on an error).
      IRITHYLL_RETURN_IF_ERROR(s.active.read_state(in, trees).with_context("moe_distributional_sgbt expert"));
      IRITHYLL_RETURN_IF_ERROR(s.shadow.read_state(in, trees).with_context("moe_distributional_sgbt shadow"));
    } else {
      IRITHYLL_RETURN_IF_ERROR(s.active.decode(in).with_context("moe_distributional_sgbt expert"));
      IRITHYLL_RETURN_IF_ERROR(s.shadow.decode(in).with_context("moe_distributional_sgbt shadow"));
    }
    s.shadow_age = in.u64("shadow age");
    s.sum_w = in.f64("shadow weight sum");
    s.sum_w2 = in.f64("shadow squared weight sum");
    s.sum_wd = in.f64("shadow difference sum");
    s.range = in.f64("shadow range");
    if (!in.ok()) return in.status();
    for (const DistributionalSGBT* e : {&s.active, &s.shadow})
      if (e->n_features() != 0 && e->n_features() != d)
        return Status::corruption("moe_distributional_sgbt: an expert's feature count differs");
  }
  *this = std::move(next);
  return Status::ok();
}

}  // namespace irithyll
