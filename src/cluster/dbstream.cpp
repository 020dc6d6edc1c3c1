#include "irithyll/cluster/dbstream.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "cluster/weighted_kmeans.hpp"
#include "core/field_rows.hpp"

namespace irithyll {
namespace {

using Row = ConfigField<DBStreamConfig>;
const std::array kFields = {
    Row{FieldInfo::real("clustering-threshold", "1", "micro-cluster radius r, in feature units").above(0),
        IRITHYLL_FIELD_REAL(DBStreamConfig, clustering_threshold)},
    Row{FieldInfo::real("fading-factor", "0.01", "lambda: weights halve every 1/lambda samples").in(0, 1, true),
        IRITHYLL_FIELD_REAL(DBStreamConfig, fading_factor)},
    Row{FieldInfo::integer("cleanup-interval", "100", "samples between removals of weak micro-clusters and macro rebuilds").in(1, 1e15),
        IRITHYLL_FIELD_UINT(DBStreamConfig, cleanup_interval)},
    Row{FieldInfo::real("intersection-factor", "0.3", "alpha: shared density / mean weight needed to join two micro-clusters").in(0, 1, true),
        IRITHYLL_FIELD_REAL(DBStreamConfig, intersection_factor)},
    Row{FieldInfo::real("minimum-weight", "1", "weight of a strong micro-cluster (weaker ones are noise)").at_least(0),
        IRITHYLL_FIELD_REAL(DBStreamConfig, minimum_weight)},
    Row{FieldInfo::real("minimum-share", "0.05", "share of the total weight a macro cluster needs (smaller ones are noise)").in(0, 1, false, true),
        IRITHYLL_FIELD_REAL(DBStreamConfig, minimum_share)},
};

constexpr std::uint64_t kMaxMicro = std::uint64_t{1} << 24;

std::size_t find_root(std::vector<std::size_t>& parent, std::size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

std::span<const ConfigField<DBStreamConfig>> dbstream_config_fields() { return kFields; }

Status DBStreamConfig::validate() const { return validate_fields<DBStreamConfig>("dbstream", kFields, *this); }

DBStream::DBStream(DBStreamConfig config, std::uint64_t seed) : config_(config), seed_(seed) {}

Result<std::unique_ptr<DBStream>> DBStream::make(const DBStreamConfig& config, std::uint64_t seed) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  return std::make_unique<DBStream>(config, seed);
}

void DBStream::reset() {
  gate_ = {};
  next_id_ = 0;
  ids_.clear();
  centres_.clear();
  weights_.clear();
  times_.clear();
  shared_.clear();
  labels_.clear();
  macro_.clear();
  macro_weights_.clear();
}

double DBStream::faded(double w, std::uint64_t since) const {
  const std::uint64_t t = gate_.n_seen;
  return since >= t ? w : w * std::exp2(-config_.fading_factor * static_cast<double>(t - since));
}

std::size_t DBStream::index_of(std::uint64_t id) const {
  return static_cast<std::size_t>(std::lower_bound(ids_.begin(), ids_.end(), id) - ids_.begin());
}

Status DBStream::learn_one(std::span<const double> x, double weight) {
  bool learn = false;
  IRITHYLL_RETURN_IF_ERROR(gate_.admit("dbstream", x, weight, learn));
  if (!learn) return Status::ok();
  const std::size_t d = x.size();
  const std::uint64_t t = gate_.n_seen;
  const double r = config_.clustering_threshold, r2 = r * r;
  const double sigma = r / 3.0, inv_two_sigma2 = 1.0 / (2.0 * sigma * sigma);

  near_.clear();
  for (std::size_t i = 0; i < ids_.size(); ++i)
    if (cluster_detail::squared_distance(x.data(), &centres_[i * d], d) <= r2) near_.push_back(i);

  if (near_.empty()) {
    ids_.push_back(next_id_++);
    centres_.insert(centres_.end(), x.begin(), x.end());
    weights_.push_back(weight);
    times_.push_back(t);
  } else {
    moved_.resize(near_.size() * d);
    keep_.assign(near_.size(), 1);
    for (std::size_t a = 0; a < near_.size(); ++a) {
      const std::size_t i = near_[a];
      weights_[i] = faded(weights_[i], times_[i]) + weight;
      times_[i] = t;
      const double* c = &centres_[i * d];
      const double h = std::exp(-cluster_detail::squared_distance(x.data(), c, d) * inv_two_sigma2);
      for (std::size_t f = 0; f < d; ++f) moved_[a * d + f] = c[f] + h * (x[f] - c[f]);
    }
    for (std::size_t a = 0; a < near_.size(); ++a)
      for (std::size_t b = a + 1; b < near_.size(); ++b) {
        Shared& s = shared_[{ids_[near_[a]], ids_[near_[b]]}];
        s.s = faded(s.s, s.t) + weight;
        s.t = t;
        if (cluster_detail::squared_distance(&moved_[a * d], &moved_[b * d], d) < r2) keep_[a] = keep_[b] = 0;
      }
    for (std::size_t a = 0; a < near_.size(); ++a)
      if (keep_[a]) std::copy_n(&moved_[a * d], d, &centres_[near_[a] * d]);
  }
  if (t % config_.cleanup_interval == 0) {
    cleanup();
    recluster();
  } else if (macro_weights_.empty()) {
    recluster();
  }
  return Status::ok();
}

void DBStream::cleanup() {
  const std::size_t d = gate_.n_features;
  const double w_weak = std::exp2(-config_.fading_factor * static_cast<double>(config_.cleanup_interval));
  std::size_t out = 0;
  for (std::size_t i = 0; i < ids_.size(); ++i) {
    if (faded(weights_[i], times_[i]) < w_weak) continue;
    if (out != i) {
      ids_[out] = ids_[i];
      weights_[out] = weights_[i];
      times_[out] = times_[i];
      std::copy_n(&centres_[i * d], d, &centres_[out * d]);
    }
    ++out;
  }
  ids_.resize(out);
  weights_.resize(out);
  times_.resize(out);
  centres_.resize(out * d);
  const double s_weak = config_.intersection_factor * w_weak;
  for (auto it = shared_.begin(); it != shared_.end();) {
    const bool alive = std::binary_search(ids_.begin(), ids_.end(), it->first.first) &&
                       std::binary_search(ids_.begin(), ids_.end(), it->first.second);
    if (!alive || faded(it->second.s, it->second.t) < s_weak) it = shared_.erase(it);
    else ++it;
  }
}

void DBStream::recluster() {
  const std::size_t d = gate_.n_features, m = ids_.size();
  std::vector<double> w(m);
  std::vector<std::size_t> parent(m);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  for (std::size_t i = 0; i < m; ++i) w[i] = faded(weights_[i], times_[i]);
  auto strong = [&](std::size_t i) { return w[i] > config_.minimum_weight; };
  for (const auto& [key, s] : shared_) {
    const std::size_t i = index_of(key.first), j = index_of(key.second);
    if (i >= m || j >= m || ids_[i] != key.first || ids_[j] != key.second) continue;
    if (!strong(i) || !strong(j)) continue;
    if (faded(s.s, s.t) / ((w[i] + w[j]) / 2.0) >= config_.intersection_factor)
      parent[find_root(parent, j)] = find_root(parent, i);
  }
  // Components in the order of their oldest micro-cluster, with their weight.
  std::vector<std::int64_t> component(m, -1);
  std::vector<double> component_weight;
  double total = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    total += w[i];
    if (!strong(i)) continue;
    const std::size_t root = find_root(parent, i);
    if (component[root] < 0) {
      component[root] = static_cast<std::int64_t>(component_weight.size());
      component_weight.push_back(0.0);
    }
    component_weight[static_cast<std::size_t>(component[root])] += w[i];
  }
  // Components lighter than minimum-share of the total are noise.
  std::vector<std::int64_t> label_of(component_weight.size(), -1);
  std::int64_t k = 0;
  for (std::size_t c = 0; c < component_weight.size(); ++c)
    if (component_weight[c] >= config_.minimum_share * total) label_of[c] = k++;
  labels_.assign(m, -1);
  macro_.assign(static_cast<std::size_t>(k) * d, 0.0);
  macro_weights_.assign(static_cast<std::size_t>(k), 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    if (!strong(i)) continue;
    const std::int64_t label = label_of[static_cast<std::size_t>(component[find_root(parent, i)])];
    labels_[i] = label;
    if (label < 0) continue;
    const auto l = static_cast<std::size_t>(label);
    macro_weights_[l] += w[i];
    for (std::size_t f = 0; f < d; ++f) macro_[l * d + f] += w[i] * centres_[i * d + f];
  }
  for (std::size_t c = 0; c < macro_weights_.size(); ++c)
    for (std::size_t f = 0; f < d; ++f) macro_[c * d + f] /= macro_weights_[c];
}

std::int64_t DBStream::predict_one(std::span<const double> x) const {
  if (macro_weights_.empty() || !gate_.can_predict(x)) return -1;
  const std::size_t d = x.size();
  std::int64_t best = -1;
  double bd = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < labels_.size() && i < ids_.size(); ++i) {
    if (labels_[i] < 0) continue;
    const double dd = cluster_detail::squared_distance(x.data(), &centres_[i * d], d);
    if (dd < bd) bd = dd, best = labels_[i];
  }
  return best;
}

std::vector<double> DBStream::micro_weights() const {
  std::vector<double> w(ids_.size());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = faded(weights_[i], times_[i]);
  return w;
}

std::size_t DBStream::memory_bytes() const {
  // A std::map node holds the key, the value and about four pointers.
  return sizeof(*this) + (centres_.capacity() + weights_.capacity() + macro_.capacity() + macro_weights_.capacity() +
                          moved_.capacity()) * sizeof(double) +
         (ids_.capacity() + times_.capacity() + labels_.capacity() + near_.capacity()) * 8 + keep_.capacity() +
         shared_.size() * (sizeof(std::pair<std::uint64_t, std::uint64_t>) + sizeof(Shared) + 4 * sizeof(void*));
}

ModelSettings DBStream::settings() const { return settings_of<DBStreamConfig>(kFields, config_); }

void DBStream::encode(ByteWriter& out) const {
  out.f64(config_.clustering_threshold);
  out.f64(config_.fading_factor);
  out.u64(config_.cleanup_interval);
  out.f64(config_.intersection_factor);
  out.f64(config_.minimum_weight);
  out.f64(config_.minimum_share);
  out.u64(seed_);
  gate_.encode(out);
  out.u64(next_id_);
  out.u64s(ids_);
  out.f64s(centres_);
  out.f64s(weights_);
  out.u64s(times_);
  out.u64(shared_.size());
  for (const auto& [key, s] : shared_) {
    out.u64(key.first);
    out.u64(key.second);
    out.f64(s.s);
    out.u64(s.t);
  }
  out.u64(labels_.size());
  for (const std::int64_t l : labels_) out.i64(l);
  out.f64s(macro_);
  out.f64s(macro_weights_);
}

Status DBStream::decode(ByteReader& in) {
  DBStreamConfig c;
  c.clustering_threshold = in.f64("clustering_threshold");
  c.fading_factor = in.f64("fading_factor");
  c.cleanup_interval = in.u64("cleanup_interval");
  c.intersection_factor = in.f64("intersection_factor");
  c.minimum_weight = in.f64("minimum_weight");
  c.minimum_share = in.f64("minimum_share");
  const std::uint64_t seed = in.u64("seed");
  if (!in.ok()) return in.status();
  if (Status s = c.validate(); !s) return Status::corruption("dbstream checkpoint: " + s.message());
  config_ = c;
  seed_ = seed;
  reset();
  gate_.decode(in);
  next_id_ = in.u64("next id");
  ids_ = in.u64s("ids");
  centres_ = in.f64s("centres");
  weights_ = in.f64s("weights");
  times_ = in.u64s("times");
  const std::size_t d = gate_.n_features, m = ids_.size();
  if (in.ok()) {
    in.expect(m <= kMaxMicro && (m == 0 || d > 0), "micro-cluster count");
    in.expect(centres_.size() == m * d && weights_.size() == m && times_.size() == m, "micro-cluster arrays");
    bool valid = true;
    for (std::size_t i = 0; i < m && valid && in.ok(); ++i) {
      valid = ids_[i] < next_id_ && (i == 0 || ids_[i - 1] < ids_[i]) && times_[i] <= gate_.n_seen &&
              std::isfinite(weights_[i]) && weights_[i] >= 0.0;
    }
    for (const double v : centres_) valid = valid && std::isfinite(v);
    in.expect(valid, "increasing ids, past times, finite centres and weights");
  }
  const std::size_t n_shared = in.read_count(32, "shared densities");
  for (std::size_t e = 0; e < n_shared && in.ok(); ++e) {
    const std::uint64_t a = in.u64("edge id"), b = in.u64("edge id");
    Shared s;
    s.s = in.f64("shared density");
    s.t = in.u64("edge time");
    const bool ok = a < b && std::binary_search(ids_.begin(), ids_.end(), a) &&
                    std::binary_search(ids_.begin(), ids_.end(), b) && std::isfinite(s.s) && s.s >= 0.0 &&
                    s.t <= gate_.n_seen;
    if (in.expect(ok, "shared density between two live micro-clusters")) shared_[{a, b}] = s;
  }
  in.expect(shared_.size() == n_shared, "distinct shared-density edges");
  const std::size_t n_labels = in.read_count(8, "labels");
  in.expect(n_labels <= m, "labels <= micro-clusters");
  labels_.resize(in.ok() ? n_labels : 0);
  for (std::int64_t& l : labels_) l = in.i64("label");
  macro_ = in.f64s("macro centres");
  macro_weights_ = in.f64s("macro weights");
  if (in.ok()) {
    const std::size_t k = macro_weights_.size();
    in.expect(macro_.size() == k * d, "macro centres = k x n_features");
    in.expect(d > 0 || k == 0, "no macro clusters before the width is known");
    bool valid = true;
    for (const std::int64_t l : labels_) valid = valid && l >= -1 && l < static_cast<std::int64_t>(k);
    for (const double v : macro_) valid = valid && std::isfinite(v);
    in.expect(valid, "labels name macro clusters; finite macro centres");
  }
  if (!in.ok()) {
    const Status s = in.status();
    reset();
    return Status::corruption("dbstream checkpoint: " + s.message());
  }
  return Status::ok();
}

}  // namespace irithyll
