#include "irithyll/ensemble/sgbt_learner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "ensemble/sgbt_family.hpp"

namespace irithyll {

namespace {
constexpr std::uint32_t kSgbtLearnerStateVersion = 6;
constexpr std::size_t kMaxFeatures = std::size_t{1} << 24;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Loss committee_loss(const SGBTConfig& c, Task task, std::size_t n_classes) {
  if (task == Task::kRegression) return c.make_loss();
  return Loss(n_classes > 2 ? LossKind::kSoftmax : LossKind::kLogistic);
}
}  // namespace

// The settings each committee trains with: softmax committees (k > 1)
// clamp their leaves to softmax-leaf-bound, or to max-leaf-output where that
// is set and smaller.
static SGBTConfig committee_config(const SGBTConfig& config, std::size_t k) {
  SGBTConfig c = config;
  if (k > 1 && config.softmax_leaf_bound > 0.0)
    c.tree.max_leaf_output = c.tree.max_leaf_output > 0.0 ? std::min(c.tree.max_leaf_output, config.softmax_leaf_bound)
                                                          : config.softmax_leaf_bound;
  return c;
}

SGBTLearner::SGBTLearner() : SGBTLearner(SGBTConfig{}, LearnerContext{.seed = SGBTConfig{}.seed}) {}

SGBTLearner::SGBTLearner(const SGBTConfig& config, const LearnerContext& context)
    : config_(config),
      task_(context.task),
      n_classes_(context.task == Task::kClassification ? std::max<std::size_t>(context.n_classes, 2) : 0) {
  config_.seed = context.seed;
  const std::size_t k = n_classes_ > 2 ? n_classes_ : 1;
  committees_.reserve(k);
  const SGBTConfig committee = committee_config(config_, k);
  for (std::size_t c = 0; c < k; ++c) committees_.emplace_back(committee, committee_loss(config_, task_, n_classes_));
  raw_.assign(k, 0.0);
  fixed_features_ = context.n_features;
  start_counters();  // the committees are fresh: reset() would reset every tree just built
}

Status SGBTLearner::check(const SGBTConfig& config, const LearnerContext& context) {
  SGBTConfig c = config;
  c.seed = context.seed;
  IRITHYLL_RETURN_IF_ERROR(c.validate());
  if (context.task == Task::kClassification && context.n_classes < 2)
    return Status::invalid_argument("sgbt classification needs n_classes >= 2");
  if (context.task == Task::kClassification && context.n_classes > 4096)
    return Status::invalid_argument("sgbt classification supports at most 4096 classes");
  if (context.n_features > kMaxFeatures)
    return Status::invalid_argument("sgbt: at most " + std::to_string(kMaxFeatures) + " features");
  return Status::ok();
}

Result<std::unique_ptr<SGBTLearner>> SGBTLearner::make(const SGBTConfig& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(check(config, context));
  SGBTConfig c = config;
  c.seed = context.seed;
  return std::make_unique<SGBTLearner>(c, context);
}

std::span<const double> SGBTLearner::sanitize(std::span<const double> x) const {
  if (x.size() == n_features_) {
    bool finite = true;
    for (double v : x) finite &= std::isfinite(v);
    if (finite) return x;
  }
  for (std::size_t i = 0; i < n_features_; ++i) clean_x_[i] = i < x.size() && std::isfinite(x[i]) ? x[i] : kNaN;
  return clean_x_;
}

void SGBTLearner::learn_one(std::span<const double> x, double y, double weight) {
  ++samples_seen_;
  if (n_features_ == 0 && !x.empty()) {
    n_features_ = x.size();
    clean_x_.assign(n_features_, kNaN);
  }
  if (!sample_admissible(x, y, weight, n_features_, task_, n_classes_)) {
    ++skipped_;
    return;
  }
  const std::span<const double> xs = sanitize(x);
  if (task_ == Task::kRegression) {
    committees_[0].train_one(xs, y, weight);
    return;
  }
  if (committees_.size() == 1) {
    committees_[0].train_one(xs, y == 1.0 ? 1.0 : 0.0, weight);
    return;
  }
  // Softmax: committee c descends p_c - y_c with p_c = sigma(F_c - L_c), where
  // L_c = log sum_{k != c} exp(F_k) uses the other committees' scores before
  // this sample (all committees update "simultaneously").
  const std::size_t k = committees_.size();
  double mx = -std::numeric_limits<double>::infinity();
  for (std::size_t c = 0; c < k; ++c) {
    raw_[c] = committees_[c].predict_raw(xs);
    mx = std::max(mx, raw_[c]);
  }
  double total = 0.0;
  for (std::size_t c = 0; c < k; ++c) total += std::exp(raw_[c] - mx);
  for (std::size_t c = 0; c < k; ++c) {
    const double others = std::max(total - std::exp(raw_[c] - mx), 1e-300);
    committees_[c].train_one(xs, static_cast<std::size_t>(y) == c ? 1.0 : 0.0, weight, mx + std::log(others));
  }
}

void SGBTLearner::predict_raw(std::span<const double> x, std::span<double> out) const {
  const std::span<const double> xs = sanitize(x);
  for (std::size_t c = 0; c < committees_.size() && c < out.size(); ++c) out[c] = committees_[c].predict_raw(xs);
}

double SGBTLearner::predict_one(std::span<const double> x) const {
  predict_raw(x, raw_);
  if (task_ == Task::kRegression) return committees_[0].loss().transform(raw_[0]);
  if (committees_.size() == 1) return raw_[0] > 0.0 ? 1.0 : 0.0;
  return static_cast<double>(std::max_element(raw_.begin(), raw_.end()) - raw_.begin());
}

void SGBTLearner::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (task_ != Task::kClassification || proba.size() != n_classes_) return;
  predict_raw(x, raw_);
  if (committees_.size() == 1) {
    const double p = sigmoid(raw_[0]);
    proba[0] = 1.0 - p;
    proba[1] = p;
    return;
  }
  const double mx = *std::max_element(raw_.begin(), raw_.end());
  double total = 0.0;
  for (std::size_t c = 0; c < raw_.size(); ++c) total += (proba[c] = std::exp(raw_[c] - mx));
  for (double& p : proba) p /= total;
}

void SGBTLearner::predict_batch(std::span<const double> rows, std::size_t n_features, std::span<double> out) const {
  bool fast = n_features == n_features_ && n_features > 0 && rows.size() >= out.size() * n_features;
  for (std::size_t i = 0; fast && i < out.size() * n_features; ++i) fast = std::isfinite(rows[i]);
  if (!fast) {
    Learner::predict_batch(rows, n_features, out);
    return;
  }
  if (committees_.size() == 1) {
    committees_[0].predict_raw_batch(rows, n_features, out);
    if (task_ == Task::kRegression) {
      for (double& v : out) v = committees_[0].loss().transform(v);
    } else {
      for (double& v : out) v = v > 0.0 ? 1.0 : 0.0;
    }
    return;
  }
  // Softmax: each committee tree-major over a block of rows (its trees stay
  // in cache across the block), then predict_one's arg-max per row. Blocks
  // bound the scratch to kBlock x classes scores.
  constexpr std::size_t kBlock = 256;
  const std::size_t k = committees_.size(), n = out.size();
  std::vector<double> scores(std::min(n, kBlock) * k);
  for (std::size_t start = 0; start < n; start += kBlock) {
    const std::size_t m = std::min(kBlock, n - start);
    const std::span<const double> block = rows.subspan(start * n_features, m * n_features);
    for (std::size_t c = 0; c < k; ++c)
      committees_[c].predict_raw_batch(block, n_features, std::span<double>(scores).subspan(c * m, m));
    for (std::size_t i = 0; i < m; ++i) {
      std::size_t best = 0;  // the first maximum, as std::max_element
      for (std::size_t c = 1; c < k; ++c)
        if (scores[best * m + i] < scores[c * m + i]) best = c;
      out[start + i] = static_cast<double>(best);
    }
  }
}

std::pair<double, double> SGBTLearner::predict_with_confidence(std::span<const double> x) const {
  const std::span<const double> xs = sanitize(x);
  double inv2 = 0.0;  // sum of the committees' variances
  for (const SGBT& c : committees_) {
    const double conf = c.predict_raw_with_confidence(xs).second;
    if (!(conf > 0.0)) return {predict_one(x), 0.0};
    inv2 += 1.0 / (conf * conf);
  }
  return {predict_one(x), inv2 > 0.0 ? 1.0 / std::sqrt(inv2) : 0.0};
}

std::vector<std::uint64_t> SGBTLearner::feature_split_counts() const {
  std::vector<std::uint64_t> counts(n_features_, 0);
  for (const SGBT& c : committees_) {
    const auto v = c.feature_split_counts();
    for (std::size_t f = 0; f < v.size() && f < counts.size(); ++f) counts[f] += v[f];
  }
  return counts;
}

std::vector<double> SGBTLearner::feature_importances() const {
  std::vector<double> imp(n_features_, 0.0);
  std::size_t used = 0;
  for (const SGBT& c : committees_) {
    const auto v = c.feature_importances();
    if (v.size() != imp.size()) continue;
    ++used;
    for (std::size_t f = 0; f < v.size(); ++f) imp[f] += v[f];
  }
  if (used == 0) return {};
  for (double& v : imp) v /= static_cast<double>(used);
  return imp;
}

Status SGBTLearner::set_threads(std::uint32_t threads) {
  IRITHYLL_RETURN_IF_ERROR(check_threads(kName, threads));
  config_.threads = threads;
  for (SGBT& c : committees_) c.set_threads(threads);
  return Status::ok();
}

void SGBTLearner::reset() {
  for (SGBT& c : committees_) c.reset();
  start_counters();
}

void SGBTLearner::start_counters() {
  n_features_ = fixed_features_;
  clean_x_.assign(n_features_, kNaN);
  samples_seen_ = 0;
  skipped_ = 0;
}

std::size_t SGBTLearner::memory_bytes() const {
  std::size_t b = sizeof(*this) + (clean_x_.capacity() + raw_.capacity()) * sizeof(double);
  for (const SGBT& c : committees_) b += c.memory_bytes();
  return b;
}

LearnerContext SGBTLearner::context() const {
  return LearnerContext{.task = task_, .n_classes = n_classes(), .n_features = fixed_features_, .seed = config_.seed};
}

void SGBTLearner::encode(ByteWriter& out) const {
  // Record versions 1 to 4 carried the binary config once for the learner and
  // again in every committee and tree (2 added each committee's target
  // spread, 3 and 4 the option blocks). Version 5 writes the settings once,
  // by name (core/config_codec.hpp), the context, then the state, whose trees
  // still carried their binary configs. Version 6 drops those: every tree's
  // settings are derived from the named ones, so a new setting changes no
  // record layout.
  out.u32(kSgbtLearnerStateVersion);
  ensemble_detail::encode_settings<SGBTLearner>(config_, context(), out);
  encode_state(out);
}

void SGBTLearner::encode_state(ByteWriter& out) const {
  out.u64(n_features_);
  out.u64(samples_seen_);
  out.u64(skipped_);
  for (const SGBT& c : committees_) c.encode_state(out);
}

Status SGBTLearner::decode_state(ByteReader& in, TreeSettings trees) {
  SGBTLearner m(config_, {.task = task_, .n_classes = n_classes_, .n_features = fixed_features_, .seed = config_.seed});
  IRITHYLL_RETURN_IF_ERROR(m.read_state(in, trees));
  *this = std::move(m);
  return Status::ok();
}

Status SGBTLearner::read_state(ByteReader& in, TreeSettings trees) {
  const std::uint64_t n_features = in.u64("n_features");
  const std::uint64_t seen = in.u64("samples seen");
  const std::uint64_t skipped = in.u64("skipped");
  if (!in.ok()) return in.status();
  if (n_features > in.remaining() || (fixed_features_ != 0 && n_features != fixed_features_))
    return Status::corruption("sgbt: feature count " + std::to_string(n_features) + " does not fit the record");
  return read_committees([&](SGBT& c) { return c.decode_body(in, true, trees); }, n_features, seen, skipped);
}

Status SGBTLearner::read_committees(const std::function<Status(SGBT&)>& read, std::uint64_t n_features,
                                    std::uint64_t seen, std::uint64_t skipped) {
  for (SGBT& c : committees_) {
    IRITHYLL_RETURN_IF_ERROR(read(c));
    if (c.n_features() != 0 && c.n_features() != n_features)
      return Status::corruption("committee feature count differs from the learner's");
  }
  n_features_ = static_cast<std::size_t>(n_features);
  clean_x_.assign(n_features_, kNaN);
  samples_seen_ = seen;
  skipped_ = skipped;
  return Status::ok();
}

Status SGBTLearner::decode(ByteReader& in) {
  const std::uint32_t version = in.u32("sgbt state version");
  if (!in.ok()) return in.status();
  if (version < 1 || version > kSgbtLearnerStateVersion)
    return Status::not_supported("sgbt state version " + std::to_string(version));
  if (version >= 5) {
    auto made = ensemble_detail::decode_settings<SGBTLearner>(in);
    if (!made) return made.status();
    IRITHYLL_RETURN_IF_ERROR((*made)->read_state(in, version == 5 ? TreeSettings::kInRecord : TreeSettings::kDerived));
    *this = std::move(**made);
    return Status::ok();
  }
  SGBTConfig cfg;
  IRITHYLL_RETURN_IF_ERROR(cfg.decode(in));
  const std::uint8_t task = in.u8("task");
  const std::uint64_t n_classes = in.u64("n_classes");
  const std::uint64_t n_features = in.u64("n_features");
  const std::uint64_t seen = in.u64("samples seen");
  const std::uint64_t skipped = in.u64("skipped");
  const std::uint64_t k = in.u64("n committees");
  if (!in.ok()) return in.status();
  if (task > 1) return Status::corruption("unknown task");
  const Task t = static_cast<Task>(task);
  if (t == Task::kClassification ? (n_classes < 2 || n_classes > 4096) : n_classes != 0)
    return Status::corruption("bad class count");
  const std::uint64_t want_k = n_classes > 2 ? n_classes : 1;
  if (k != want_k) return Status::corruption("committee count does not match the task");
  if (n_features > in.remaining()) return Status::corruption("feature count exceeds the bytes left");
  IRITHYLL_RETURN_IF_ERROR(ensemble_detail::check_slots_fit<SGBTLearner>(
      cfg, {.task = t, .n_classes = static_cast<std::size_t>(n_classes)}, in));
  SGBTLearner m(cfg, {.task = t, .n_classes = static_cast<std::size_t>(n_classes), .seed = cfg.seed});
  IRITHYLL_RETURN_IF_ERROR(m.read_committees(
      [&](SGBT& c) { return c.decode_with_config(in, version >= 2); }, n_features, seen, skipped));
  *this = std::move(m);
  return Status::ok();
}

}  // namespace irithyll
