#include "irithyll/selection/auto_learner.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "core/field_rows.hpp"
#include "irithyll/core/config_codec.hpp"

namespace irithyll {
namespace {

constexpr std::uint8_t kAutoLearnerVersion = 1;
constexpr std::size_t kMaxEntries = 64;
constexpr std::size_t kHistory = 64;
constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;

Result<AutoMode> parse_mode(std::string_view v) {
  if (v == "select") return AutoMode::kSelect;
  if (v == "stack") return AutoMode::kStack;
  return Status::invalid_argument("mode must be select or stack, not '" + std::string(v) + "'");
}
std::string_view mode_name(AutoMode m) { return m == AutoMode::kStack ? "stack" : "select"; }

using AutoLearnerRow = ConfigField<AutoConfig>;
const std::array kAutoLearnerFields = {
    AutoLearnerRow{FieldInfo::text("pool", kDefaultAutoPool,
                        "configurations raced: catalogue models separated by ';', each with optional "
                        ":key=value,key=value settings (models absent or not for the task are skipped)"),
        [](AutoConfig& c, std::string_view v) {
          c.pool = std::string(v);
          return Status::ok();
        },
        [](const AutoConfig& c) { return c.pool; }},
    AutoLearnerRow{FieldInfo::choice("mode", "stack", "select|stack",
                          "select: predict with the leader; stack: softmax-weighted mix of the members"),
        IRITHYLL_FIELD_ENUM(AutoConfig, mode, parse_mode, mode_name)},
    AutoLearnerRow{FieldInfo::integer("max-members", "8", "members alive at once (CPU budget); the rest of the pool waits")
            .in(1, 64),
        IRITHYLL_FIELD_UINT(AutoConfig, max_members)},
    AutoLearnerRow{FieldInfo::integer("window", "2000", "recent samples the race compares members on").in(10, 100000),
        IRITHYLL_FIELD_UINT(AutoConfig, window)},
    AutoLearnerRow{FieldInfo::real("half-life", "500", "samples after which a reward counts half when choosing the leader")
            .in(1, 1e9),
        IRITHYLL_FIELD_REAL(AutoConfig, half_life)},
    AutoLearnerRow{FieldInfo::real("delta", "0.05", "chance of ever dropping a member as good as the leader (stationary)")
            .in(0, 0.5, true),
        IRITHYLL_FIELD_REAL(AutoConfig, delta)},
    AutoLearnerRow{FieldInfo::integer("race-every", "100", "samples between race checks").in(1, 1000000),
        IRITHYLL_FIELD_UINT(AutoConfig, race_every)},
    AutoLearnerRow{FieldInfo::integer("grace", "200", "samples a new member learns before it may lead or be dropped")
            .in(0, 1000000),
        IRITHYLL_FIELD_UINT(AutoConfig, grace)},
    AutoLearnerRow{FieldInfo::integer("revive-after", "5000",
                           "samples after a slot frees until a waiting configuration starts afresh (0: never)")
            .in(0, 1000000000),
        IRITHYLL_FIELD_UINT(AutoConfig, revive_after)},
    AutoLearnerRow{FieldInfo::real("sharpness", "50", "stack: softmax factor on the members' decayed mean rewards").in(0, 10000),
        IRITHYLL_FIELD_REAL(AutoConfig, sharpness)},
};

std::string json_escape(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::span<const ConfigField<AutoConfig>> AutoLearner::config_fields() { return kAutoLearnerFields; }

Result<std::unique_ptr<AutoLearner>> AutoLearner::make(const Config& config, const LearnerContext& context,
                                                       const MemberFactory& factory) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, kAutoLearnerFields, config));
  if (!factory.complete()) return Status::invalid_argument("auto: no member factory");
  if (context.task == Task::kClassification && context.n_classes < 2)
    return Status::invalid_argument("auto: classification needs at least 2 classes");
  if (context.n_targets != 1) return Status::invalid_argument("auto: one target only");
  auto out = std::make_unique<AutoLearner>(factory);
  out->config_ = config;
  out->context_ = context;
  IRITHYLL_RETURN_IF_ERROR(out->build());
  return out;
}

Status AutoLearner::build_entries(std::vector<Entry>& entries) const {
  auto specs = parse_member_specs(config_.pool);
  if (!specs) return specs.status().with_context("auto: pool");
  if (specs->size() > kMaxEntries)
    return Status::invalid_argument("auto: pool lists " + std::to_string(specs->size()) + " entries (at most " +
                                    std::to_string(kMaxEntries) + ")");
  entries.clear();
  for (MemberSpec& s : *specs) {
    if (s.name == kName) return Status::invalid_argument("auto: the pool cannot hold 'auto' itself");
    if (!factory_.available(s.name, context_.task)) continue;
    entries.push_back(Entry{std::move(s)});
  }
  if (entries.empty())
    return Status::invalid_argument("auto: no pool entry is a model for " +
                                    std::string(context_.task == Task::kClassification ? "classification"
                                                                                       : "regression") +
                                    " (pool '" + config_.pool + "')");
  return Status::ok();
}

Result<AutoLearner::Member> AutoLearner::spawn(std::uint32_t entry) {
  Member m;
  m.entry = entry;
  m.seed = context_.seed + kGolden * ++instances_;
  LearnerContext ctx = context_;
  ctx.n_features = width_;
  ctx.seed = m.seed;
  auto made = factory_.make(entries_[entry].spec.name, entries_[entry].spec.settings, ctx);
  if (!made) return made.status().with_context("auto: pool entry '" + entries_[entry].spec.label + "'");
  m.model = std::move(made).value();
  m.rewards = RewardWindow(config_.window);
  ++entries_[entry].started;
  return m;
}

Status AutoLearner::build() {
  IRITHYLL_RETURN_IF_ERROR(build_entries(entries_));
  width_ = context_.n_features;
  keep_ = std::exp2(-1.0 / config_.half_life);
  members_.clear();
  waiting_.clear();
  history_.clear();
  seen_ = skipped_ = checks_ = instances_ = next_revival_ = 0;
  y_weight_ = y_mean_ = y_var_ = 0.0;
  leader_ = 0;
  cache_valid_ = false;
  for (std::uint32_t e = 0; e < entries_.size(); ++e) {
    if (members_.size() >= config_.max_members) {
      waiting_.push_back(e);
      continue;
    }
    auto m = spawn(e);
    if (!m) return m.status();  // bad settings in the pool are the user's to fix
    members_.push_back(std::move(m).value());
  }
  proba_.assign(n_classes(), 0.0);
  mix_.assign(n_classes(), 0.0);
  update_weights();
  return Status::ok();
}

void AutoLearner::reset() {
  if (!factory_.complete() || entries_.empty()) return;
  (void)build();  // the settings were accepted once; rebuilding them cannot fail
}

const double* AutoLearner::cached(std::size_t member, std::span<const double> x) const {
  if (!cache_valid_ || member >= cache_has_.size() || !cache_has_[member] || x.size() != cache_x_.size() ||
      (!x.empty() && std::memcmp(x.data(), cache_x_.data(), x.size() * sizeof(double)) != 0))
    return nullptr;
  return cache_out_.data() + member * std::max<std::size_t>(n_classes(), 1);
}

double* AutoLearner::cache_slot(std::size_t member, std::span<const double> x) const {
  const std::size_t stride = std::max<std::size_t>(n_classes(), 1);
  if (!cache_valid_ || x.size() != cache_x_.size() ||
      (!x.empty() && std::memcmp(x.data(), cache_x_.data(), x.size() * sizeof(double)) != 0)) {
    cache_x_.assign(x.begin(), x.end());
    cache_has_.assign(members_.size(), 0);
    cache_valid_ = true;
  }
  cache_out_.resize(members_.size() * stride);
  cache_has_[member] = 1;
  return cache_out_.data() + member * stride;
}

double AutoLearner::reward(std::size_t member, std::span<const double> x, double y) const {
  const Learner& m = *members_[member].model;
  const double* hit = cached(member, x);
  if (context_.task == Task::kClassification) {
    // The arg-max of the probabilities (ties to the lowest class), as the
    // evaluation scores accuracy.
    std::span<const double> p = proba_;
    if (hit != nullptr) {
      p = std::span<const double>(hit, n_classes());
    } else {
      m.predict_proba_one(x, proba_);
    }
    const auto top = static_cast<double>(std::max_element(p.begin(), p.end()) - p.begin());
    return top == y ? 1.0 : 0.0;
  }
  const double p = hit != nullptr ? *hit : m.predict_one(x);
  if (!std::isfinite(p)) return 0.0;
  const double e = y - p;
  const double scale = std::max(y_weight_ > 0.0 ? y_var_ / y_weight_ : 0.0, 1e-12);
  return 1.0 / (1.0 + e * e / scale);
}

void AutoLearner::learn_one(std::span<const double> x, double y, double weight) {
  ++seen_;
  if (!sample_admissible(x, y, weight, width_, context_.task, context_.n_classes) || members_.empty()) {
    ++skipped_;
    return;
  }
  if (width_ == 0) width_ = x.size();
  for (std::size_t i = 0; i < members_.size(); ++i) {
    Member& m = members_[i];
    const double r = reward(i, x, y);
    m.rewards.push(r);
    m.ew_sum = keep_ * m.ew_sum + r;
    m.ew_weight = keep_ * m.ew_weight + 1.0;
    ++m.age;
  }
  if (context_.task == Task::kRegression) {
    // Decayed mean and sum of squared deviations of the target (West 1979),
    // on the window's time scale: the regression reward's yardstick.
    const double k = std::exp2(-1.0 / static_cast<double>(config_.window));
    y_weight_ = k * y_weight_ + 1.0;
    const double d = y - y_mean_;
    y_mean_ += d / y_weight_;
    y_var_ = k * y_var_ + d * (y - y_mean_);
  }
  cache_valid_ = false;  // the members change from here on
  for (Member& m : members_) m.model->learn_one(x, y, weight);
  if (config_.race_every > 0 && learned() % config_.race_every == 0) race();
  revive();
  update_leader();
  update_weights();
  ++entries_[members_[leader_].entry].led;
}

std::uint64_t AutoLearner::oldest_age() const {
  std::uint64_t oldest = 0;
  for (const Member& m : members_) oldest = std::max(oldest, m.age);
  return oldest;
}

void AutoLearner::update_leader() {
  // Eligible: past grace, or, while nobody is, as old as the oldest member.
  // At the start every member has scored the same samples, so their decayed
  // means compare like with like; leading with a fixed member instead cost
  // up to `grace` samples of a weak start (e.g. 57 of 200 on rbf4 behind kNN).
  const std::uint64_t bar = std::min<std::uint64_t>(config_.grace, oldest_age());
  std::size_t best = members_.size();
  for (std::size_t i = 0; i < members_.size(); ++i) {
    const Member& m = members_[i];
    if (m.age < bar) continue;
    if (best == members_.size() || m.ew_mean() > members_[best].ew_mean()) best = i;
  }
  const bool changed = history_.empty() || members_[best].entry != history_.back().entry;
  leader_ = best;
  if (changed) {
    if (history_.size() == kHistory) history_.erase(history_.begin());
    history_.push_back(Change{learned(), members_[best].entry});
  }
}

void AutoLearner::update_weights() {
  weights_.assign(members_.size(), 0.0);
  if (members_.empty()) return;
  if (config_.mode == AutoMode::kSelect) {
    weights_[leader_] = 1.0;
    return;
  }
  // Exponential weights on the decayed mean rewards; the leader has the
  // largest among those weighed, so every weight is at most 1 before
  // normalising. (Weights on the mean log-probability of the truth, a
  // tempered Bayesian mixture, measured 0.0004-0.0013 lower on elec and SEA.)
  const double top = members_[leader_].ew_mean();
  const std::uint64_t bar = std::min<std::uint64_t>(config_.grace, oldest_age());
  double total = 0.0;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (members_[i].age < bar && i != leader_) continue;
    weights_[i] = std::exp(config_.sharpness * (members_[i].ew_mean() - top));
    total += weights_[i];
  }
  for (double& w : weights_) w /= total;
}

void AutoLearner::race() {
  ++checks_;
  if (members_.size() < 2) return;
  const double d = race_check_delta(config_.delta, config_.max_members, checks_);
  const Member& lead = members_[leader_];
  std::vector<bool> drop(members_.size(), false);
  bool any = false;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (i == leader_ || members_[i].age < config_.grace || lead.age < config_.grace) continue;
    drop[i] = race_drops(paired_difference(lead.rewards, members_[i].rewards), d);
    any = any || drop[i];
  }
  if (!any) return;
  std::vector<Member> kept;
  kept.reserve(members_.size());
  std::size_t new_leader = 0;
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (drop[i]) {
      ++entries_[members_[i].entry].eliminated;
      waiting_.push_back(members_[i].entry);
      continue;
    }
    if (i == leader_) new_leader = kept.size();
    kept.push_back(std::move(members_[i]));
  }
  members_ = std::move(kept);
  leader_ = new_leader;
  if (next_revival_ == 0 && config_.revive_after > 0) next_revival_ = learned() + config_.revive_after;
}

void AutoLearner::revive() {
  if (next_revival_ == 0 || learned() < next_revival_) return;
  next_revival_ = 0;
  if (members_.size() >= config_.max_members || waiting_.empty()) return;
  const std::uint32_t e = waiting_.front();
  waiting_.erase(waiting_.begin());
  auto m = spawn(e);
  if (m) members_.push_back(std::move(m).value());
  if (members_.size() < config_.max_members && !waiting_.empty()) next_revival_ = learned() + config_.revive_after;
}

double AutoLearner::predict_one(std::span<const double> x) const {
  if (members_.empty()) return 0.0;
  if (context_.task == Task::kClassification) {
    if (config_.mode == AutoMode::kSelect) return members_[leader_].model->predict_one(x);
    predict_proba_one(x, mix_);
    return static_cast<double>(std::max_element(mix_.begin(), mix_.end()) - mix_.begin());
  }
  const auto value = [&](std::size_t i) {
    if (const double* hit = cached(i, x)) return *hit;
    double* slot = cache_slot(i, x);
    *slot = members_[i].model->predict_one(x);
    return *slot;
  };
  if (config_.mode == AutoMode::kSelect) return value(leader_);
  double out = 0.0;
  for (std::size_t i = 0; i < members_.size(); ++i)
    if (weights_[i] > 0.0) out += weights_[i] * value(i);
  return out;
}

void AutoLearner::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (context_.task != Task::kClassification || proba.size() != context_.n_classes || members_.empty()) return;
  const std::size_t k_classes = proba.size();
  const auto member_proba = [&](std::size_t i) {
    if (const double* hit = cached(i, x)) return hit;
    double* slot = cache_slot(i, x);
    members_[i].model->predict_proba_one(x, std::span<double>(slot, k_classes));
    return static_cast<const double*>(slot);
  };
  if (config_.mode == AutoMode::kSelect) {
    const double* p = member_proba(leader_);
    std::copy(p, p + k_classes, proba.begin());
    return;
  }
  std::fill(proba.begin(), proba.end(), 0.0);
  for (std::size_t i = 0; i < members_.size(); ++i) {
    if (!(weights_[i] > 0.0)) continue;
    const double* p = member_proba(i);
    for (std::size_t k = 0; k < k_classes; ++k) proba[k] += weights_[i] * p[k];
  }
}

std::size_t AutoLearner::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + entries_.capacity() * sizeof(Entry) + waiting_.capacity() * 4 +
                      history_.capacity() * sizeof(Change) + (weights_.capacity() + proba_.capacity() + mix_.capacity()) * 8;
  for (const Entry& e : entries_) bytes += e.spec.label.capacity() + e.spec.name.capacity();
  for (const Member& m : members_) bytes += sizeof(Member) + m.rewards.capacity() * 8 + m.model->memory_bytes();
  return bytes;
}

std::size_t AutoLearner::leader_entry() const {
  return members_.empty() ? entries_.size() : members_[leader_].entry;
}

std::uint64_t AutoLearner::eliminations() const {
  std::uint64_t n = 0;
  for (const Entry& e : entries_) n += e.eliminated;
  return n;
}

void AutoLearner::encode(ByteWriter& out) const {
  out.u8(kAutoLearnerVersion);
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(width_);
  out.u64(seen_), out.u64(skipped_), out.u64(checks_), out.u64(instances_), out.u64(next_revival_);
  out.f64(y_weight_), out.f64(y_mean_), out.f64(y_var_);
  out.u64(entries_.size());
  for (const Entry& e : entries_) out.u64(e.led), out.u64(e.eliminated), out.u64(e.started);
  out.u64(waiting_.size());
  for (std::uint32_t w : waiting_) out.u32(w);
  out.u64(history_.size());
  for (const Change& c : history_) out.u64(c.sample), out.u32(c.entry);
  out.u64(leader_);
  out.u64(members_.size());
  for (const Member& m : members_) {
    out.u32(m.entry);
    out.u64(m.seed);
    out.u64(m.age);
    out.f64(m.ew_sum), out.f64(m.ew_weight);
    m.rewards.encode(out);
    // Each member as its kind's name and a length-prefixed state, so a
    // decoder can check it consumed exactly its own bytes.
    out.str(m.model->name());
    ByteWriter inner;
    m.model->encode(inner);
    out.u64(inner.data().size());
    out.bytes(inner.data());
  }
}

Status AutoLearner::decode(ByteReader& in) {
  if (!factory_.complete()) return Status::invalid_argument("auto: this instance has no member factory to decode with");
  const std::uint8_t version = in.u8("auto version");
  if (in.ok() && version != kAutoLearnerVersion) return Status::corruption("auto: unknown record version " + std::to_string(version));
  AutoLearner fresh(factory_);
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, fresh.config_));
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, fresh.context_));
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, kAutoLearnerFields, fresh.config_));
  if (fresh.context_.n_targets != 1) return Status::corruption("auto: one target only");
  IRITHYLL_RETURN_IF_ERROR(fresh.build_entries(fresh.entries_).with_context("auto checkpoint"));
  fresh.keep_ = std::exp2(-1.0 / fresh.config_.half_life);
  const std::uint64_t width = in.u64("auto width");
  fresh.seen_ = in.u64("auto seen"), fresh.skipped_ = in.u64("auto skipped"), fresh.checks_ = in.u64("auto checks");
  fresh.instances_ = in.u64("auto instances"), fresh.next_revival_ = in.u64("auto next revival");
  fresh.y_weight_ = in.f64("auto target weight"), fresh.y_mean_ = in.f64("auto target mean");
  fresh.y_var_ = in.f64("auto target variance");
  if (!in.ok()) return in.status();
  if (fresh.skipped_ > fresh.seen_) return Status::corruption("auto: more samples skipped than seen");
  if (width > (1u << 24) || (fresh.context_.n_features != 0 && width != fresh.context_.n_features))
    return Status::corruption("auto: width out of range");
  if (!std::isfinite(fresh.y_weight_) || !std::isfinite(fresh.y_mean_) || !(fresh.y_var_ >= 0.0) ||
      !std::isfinite(fresh.y_var_))
    return Status::corruption("auto: target moments out of range");
  fresh.width_ = width;
  const std::size_t n_entries = in.read_count(24, "auto entries");
  if (in.ok() && n_entries != fresh.entries_.size())
    return Status::corruption("auto: checkpoint has " + std::to_string(n_entries) + " pool entries, the pool gives " +
                              std::to_string(fresh.entries_.size()));
  for (Entry& e : fresh.entries_) e.led = in.u64(), e.eliminated = in.u64(), e.started = in.u64();
  const std::size_t n_waiting = in.read_count(4, "auto waiting");
  if (in.ok() && n_waiting > n_entries * 1024) return Status::corruption("auto: waiting queue too long");
  for (std::size_t i = 0; in.ok() && i < n_waiting; ++i) {
    const std::uint32_t w = in.u32("auto waiting entry");
    if (in.ok() && w >= n_entries) return Status::corruption("auto: waiting entry out of range");
    fresh.waiting_.push_back(w);
  }
  const std::size_t n_history = in.read_count(12, "auto history");
  if (in.ok() && n_history > kHistory) return Status::corruption("auto: history too long");
  for (std::size_t i = 0; in.ok() && i < n_history; ++i) {
    Change c;
    c.sample = in.u64("auto change sample");
    c.entry = in.u32("auto change entry");
    if (in.ok() && c.entry >= n_entries) return Status::corruption("auto: history entry out of range");
    fresh.history_.push_back(c);
  }
  const std::uint64_t leader = in.u64("auto leader");
  const std::size_t n_members = in.read_count(40, "auto members");
  if (!in.ok()) return in.status();
  if (n_members > fresh.config_.max_members || (n_members > 0 && leader >= n_members) || (n_members == 0 && leader != 0))
    return Status::corruption("auto: member count or leader out of range");
  fresh.leader_ = leader;
  for (std::size_t i = 0; i < n_members; ++i) {
    Member m;
    m.entry = in.u32("auto member entry");
    m.seed = in.u64("auto member seed");
    m.age = in.u64("auto member age");
    m.ew_sum = in.f64("auto member reward sum");
    m.ew_weight = in.f64("auto member reward weight");
    if (!in.ok()) return in.status();
    if (m.entry >= n_entries || !(m.ew_sum >= 0.0 && m.ew_sum <= m.ew_weight) || !std::isfinite(m.ew_weight))
      return Status::corruption("auto: member " + std::to_string(i) + " out of range");
    IRITHYLL_RETURN_IF_ERROR(m.rewards.decode(in, fresh.config_.window).with_context("auto member"));
    const std::string kind = in.str("auto member kind");
    const std::size_t size = in.read_count(1, "auto member state");
    if (!in.ok()) return in.status();
    if (kind != fresh.entries_[m.entry].spec.name)
      return Status::corruption("auto: member " + std::to_string(i) + " is a '" + kind + "', its pool entry a '" +
                                fresh.entries_[m.entry].spec.name + "'");
    m.model = factory_.blank(kind);
    if (m.model == nullptr) return Status::corruption("auto: unknown member kind '" + kind + "'");
    ByteReader inner(in.bytes(size, "auto member state"));
    if (!in.ok()) return in.status();
    IRITHYLL_RETURN_IF_ERROR(m.model->decode(inner).with_context("auto member '" + kind + "'"));
    if (!inner.at_end()) return Status::corruption("auto: member '" + kind + "' left bytes unread");
    if (m.model->task() != fresh.context_.task || m.model->n_classes() != fresh.n_classes())
      return Status::corruption("auto: member '" + kind + "' is for another task");
    fresh.members_.push_back(std::move(m));
  }
  fresh.proba_.assign(fresh.n_classes(), 0.0);
  fresh.mix_.assign(fresh.n_classes(), 0.0);
  fresh.update_weights();
  *this = std::move(fresh);
  return Status::ok();
}

std::string AutoLearner::report_text() const {
  std::string out;
  char buf[512];
  const double total = seen_ > skipped_ ? static_cast<double>(seen_ - skipped_) : 1.0;
  std::snprintf(buf, sizeof buf, "auto: %s mode, %zu of %zu configurations alive; race dropped %llu, revived %llu\n",
                std::string(mode_name(config_.mode)).c_str(), members_.size(), entries_.size(),
                static_cast<unsigned long long>(eliminations()),
                static_cast<unsigned long long>(instances_ > entries_.size() ? instances_ - entries_.size() : 0));
  out += buf;
  out += "  configuration                                   led      alive  dropped\n";
  for (std::size_t e = 0; e < entries_.size(); ++e) {
    bool alive = false;
    for (const Member& m : members_) alive = alive || m.entry == e;
    const bool lead = e == leader_entry();
    std::snprintf(buf, sizeof buf, "%s %-46s  %6.2f%%  %-5s  %llu\n", lead ? "*" : " ", entries_[e].spec.label.c_str(),
                  100.0 * static_cast<double>(entries_[e].led) / total, alive ? "yes" : "no",
                  static_cast<unsigned long long>(entries_[e].eliminated));
    out += buf;
  }
  out += "  leader from sample:";
  for (const Change& c : history_) out += " " + std::to_string(c.sample) + " " + entries_[c.entry].spec.label + ";";
  if (!history_.empty()) out.pop_back();
  return out + "\n";
}

std::string AutoLearner::report_json() const {
  std::string out = "{\"mode\":\"" + std::string(mode_name(config_.mode)) + "\",\"leader\":";
  out += leader_entry() < entries_.size() ? json_escape(entries_[leader_entry()].spec.label) : "null";
  out += ",\"configurations\":[";
  for (std::size_t e = 0; e < entries_.size(); ++e) {
    bool alive = false;
    for (const Member& m : members_) alive = alive || m.entry == e;
    out += e ? "," : "";
    out += "{\"config\":" + json_escape(entries_[e].spec.label) + ",\"samples_led\":" + std::to_string(entries_[e].led) +
           ",\"alive\":" + (alive ? "true" : "false") + ",\"dropped\":" + std::to_string(entries_[e].eliminated) +
           ",\"started\":" + std::to_string(entries_[e].started) + "}";
  }
  out += "],\"leader_changes\":[";
  for (std::size_t i = 0; i < history_.size(); ++i)
    out += (i ? ",{\"sample\":" : "{\"sample\":") + std::to_string(history_[i].sample) +
           ",\"config\":" + json_escape(entries_[history_[i].entry].spec.label) + "}";
  return out + "]}";
}

}  // namespace irithyll
