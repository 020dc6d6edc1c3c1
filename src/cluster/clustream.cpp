#include "irithyll/cluster/clustream.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "irithyll/core/config_codec.hpp"
#include "cluster/distance_kernels.hpp"
#include "cluster/tail_quantile.hpp"
#include "cluster/weighted_kmeans.hpp"
#include "core/field_rows.hpp"

namespace irithyll {
namespace {

using ClustreamRow = ConfigField<CluStreamConfig>;
const std::array kClustreamFields = {
    ClustreamRow{FieldInfo::integer("n-macro-clusters", "5", "macro clusters of the offline weighted k-means").in(1, 4096),
        IRITHYLL_FIELD_UINT(CluStreamConfig, n_macro_clusters)},
    ClustreamRow{FieldInfo::integer("max-micro-clusters", "100", "micro-clusters kept online (finer summary, slower)").in(2, 100000),
        IRITHYLL_FIELD_UINT(CluStreamConfig, max_micro_clusters)},
    ClustreamRow{FieldInfo::real("micro-cluster-r-factor", "2", "a point joins a micro-cluster within this many RMS deviations").above(0),
        IRITHYLL_FIELD_REAL(CluStreamConfig, micro_cluster_r_factor)},
    ClustreamRow{FieldInfo::integer("time-window", "1000", "samples after which an idle micro-cluster may be dropped; macro horizon").in(1, 1e15),
        IRITHYLL_FIELD_UINT(CluStreamConfig, time_window)},
    ClustreamRow{FieldInfo::integer("time-gap", "100", "samples between offline macro clusterings").in(1, 1e15),
        IRITHYLL_FIELD_UINT(CluStreamConfig, time_gap)},
};

// The paper's m: the relevance stamp estimates the mean arrival time of the
// last m points of a micro-cluster.
constexpr double kRelevanceM = 10.0;
constexpr int kMacroRestarts = 3;
constexpr int kMacroIterations = 100;
constexpr std::uint64_t kClustreamMaxMicro = 100000;

}  // namespace

std::span<const ConfigField<CluStreamConfig>> clustream_config_fields() { return kClustreamFields; }

Status CluStreamConfig::validate() const { return validate_fields<CluStreamConfig>("clustream", kClustreamFields, *this); }

void ClusterFeature::absorb(std::span<const double> x, double w, double t) {
  n += w;
  for (std::size_t f = 0; f < x.size(); ++f) {
    ls[f] += w * x[f];
    ss[f] += w * x[f] * x[f];
  }
  lst += w * t;
  sst += w * t * t;
}

void ClusterFeature::merge(const ClusterFeature& o) {
  n += o.n;
  for (std::size_t f = 0; f < ls.size(); ++f) {
    ls[f] += o.ls[f];
    ss[f] += o.ss[f];
  }
  lst += o.lst;
  sst += o.sst;
}

double ClusterFeature::rms_deviation() const {
  double v = 0.0;
  for (std::size_t f = 0; f < ls.size(); ++f) {
    const double m = ls[f] / n;
    v += std::max(0.0, ss[f] / n - m * m);
  }
  return std::sqrt(v);
}

double ClusterFeature::relevance_stamp(double m) const {
  const double mu = lst / n;
  if (n < 2.0 * m) return mu;
  const double sigma = std::sqrt(std::max(0.0, sst / n - mu * mu));
  return mu + sigma * cluster_detail::upper_tail_quantile(m / (2.0 * n));
}

CluStream::CluStream(CluStreamConfig config, std::uint64_t seed) : config_(config), seed_(seed), rng_(seed) {}

Result<std::unique_ptr<CluStream>> CluStream::make(const CluStreamConfig& config, std::uint64_t seed) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  return std::make_unique<CluStream>(config, seed);
}

void CluStream::reset() {
  rng_ = Xorshift64(seed_);
  gate_ = {};
  micro_.clear();
  macro_.clear();
  macro_weights_.clear();
  centres_.clear();
  centre_cols_.clear();
  dist_.clear();
  nn_.clear();
  nn_d2_.clear();
  nn_stale_.clear();
  stamps_.clear();
}

void CluStream::write_centre(std::size_t i) {
  const std::size_t d = gate_.n_features, q = config_.max_micro_clusters;
  if (centre_cols_.size() != q * d) {  // first centre since reset() or decode()
    centre_cols_.assign(q * d, 0.0);
    dist_.assign(q, 0.0);
  }
  const ClusterFeature& m = micro_[i];
  for (std::size_t f = 0; f < d; ++f) centre_cols_[f * q + i] = centres_[i * d + f] = m.ls[f] / m.n;
}

std::size_t CluStream::nearest_micro(std::span<const double> x, double& distance2) {
  const std::size_t n = micro_.size();
  cluster_detail::squared_distances(x.data(), centre_cols_.data(), config_.max_micro_clusters, n, x.size(),
                                    dist_.data());
  std::size_t best = 0;
  distance2 = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i)
    if (dist_[i] < distance2) distance2 = dist_[i], best = i;
  return best;
}

void CluStream::rescan(std::size_t i) {
  const std::size_t d = gate_.n_features;
  cluster_detail::squared_distances(&centres_[i * d], centre_cols_.data(), config_.max_micro_clusters,
                                    micro_.size(), d, dist_.data());
  nn_[i] = i;
  nn_d2_[i] = std::numeric_limits<double>::infinity();
  nn_stale_[i] = 0;
  for (std::size_t j = 0; j < micro_.size(); ++j) {
    if (j == i) continue;
    if (dist_[j] < nn_d2_[i]) nn_d2_[i] = dist_[j], nn_[i] = j;
  }
}

void CluStream::moved(std::size_t i) {
  const std::size_t d = gate_.n_features;
  write_centre(i);
  stamps_[i] = std::numeric_limits<double>::quiet_NaN();
  cluster_detail::squared_distances(&centres_[i * d], centre_cols_.data(), config_.max_micro_clusters,
                                    micro_.size(), d, dist_.data());
  // i's own neighbour exactly, and every link to i: a link that got shorter
  // is taken (exact again); one that got longer keeps its old length, now a
  // lower bound, and is marked stale until a search needs it.
  nn_[i] = i;
  nn_d2_[i] = std::numeric_limits<double>::infinity();
  nn_stale_[i] = 0;
  for (std::size_t j = 0; j < micro_.size(); ++j) {
    if (j == i) continue;
    const double dd = dist_[j];
    if (dd < nn_d2_[i]) nn_d2_[i] = dd, nn_[i] = j;
    if (dd < nn_d2_[j] || nn_[j] == j) {
      nn_d2_[j] = dd, nn_[j] = i, nn_stale_[j] = 0;
    } else if (nn_[j] == i && dd > nn_d2_[j]) {
      nn_stale_[j] = 1;
    }
  }
}

Status CluStream::learn_one(std::span<const double> x, double weight) {
  bool learn = false;
  IRITHYLL_RETURN_IF_ERROR(gate_.admit("clustream", x, weight, learn));
  if (!learn) return Status::ok();
  const std::size_t d = x.size();
  const double t = static_cast<double>(gate_.n_seen);
  // Start-up: the paper forms the first q micro-clusters offline from the
  // first points; here each of the first q points is one, so a boundary is
  // never judged from a handful of far-apart singletons.
  if (micro_.size() >= config_.max_micro_clusters) {
    double d2 = 0.0;
    const std::size_t i = nearest_micro(x, d2);
    double boundary = config_.micro_cluster_r_factor * micro_[i].rms_deviation();
    // One point (or identical points): the distance to the nearest other
    // micro-cluster (paper, Sec. 4.2).
    if (!(boundary > 0.0)) {
      if (nn_stale_[i]) rescan(i);
      boundary = std::sqrt(nn_d2_[i]);
    }
    if (std::sqrt(d2) <= boundary) {
      micro_[i].absorb(x, weight, t);
      moved(i);
      if (gate_.n_seen % config_.time_gap == 0) recluster();
      return Status::ok();
    }
  }
  // A new micro-cluster. At the cap the slot of a dropped or merged one is
  // reused, so the steady state allocates nothing.
  std::size_t slot = micro_.size();
  if (micro_.size() >= config_.max_micro_clusters) {
    // A stamp changes only when its micro-cluster does (moved() marks it
    // NaN), so about one quantile is computed per sample.
    const double horizon = t - static_cast<double>(config_.time_window);
    std::size_t oldest = 0;
    double oldest_stamp = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < micro_.size(); ++i) {
      if (std::isnan(stamps_[i])) stamps_[i] = micro_[i].relevance_stamp(kRelevanceM);
      if (stamps_[i] < oldest_stamp) oldest_stamp = stamps_[i], oldest = i;
    }
    if (oldest_stamp < horizon) {
      slot = oldest;
    } else {
      slot = merge_closest_pair();
    }
  } else {
    micro_.emplace_back();
    micro_.back().ls.resize(d);
    micro_.back().ss.resize(d);
    centres_.resize(micro_.size() * d);
    nn_.push_back(slot);
    nn_d2_.push_back(std::numeric_limits<double>::infinity());
    nn_stale_.push_back(0);
    stamps_.push_back(0.0);
  }
  ClusterFeature& fresh = micro_[slot];
  fresh.n = fresh.lst = fresh.sst = 0.0;
  std::fill(fresh.ls.begin(), fresh.ls.end(), 0.0);
  std::fill(fresh.ss.begin(), fresh.ss.end(), 0.0);
  fresh.absorb(x, weight, t);
  moved(slot);
  if (macro_weights_.empty() || gate_.n_seen % config_.time_gap == 0) recluster();
  return Status::ok();
}

std::size_t CluStream::merge_closest_pair() {
  // The smallest link; a stale one is only a lower bound, so it is rescanned
  // and the search repeated until the smallest is exact.
  std::size_t bi = 0;
  for (;;) {
    bi = 0;
    for (std::size_t i = 1; i < micro_.size(); ++i)
      if (nn_d2_[i] < nn_d2_[bi]) bi = i;
    if (!nn_stale_[bi]) break;
    rescan(bi);
  }
  std::size_t bj = nn_[bi];
  if (bj < bi) std::swap(bi, bj);
  micro_[bi].merge(micro_[bj]);
  moved(bi);
  return bj;  // free for reuse (the caller overwrites it and calls moved())
}

void CluStream::recluster() {
  const std::size_t d = gate_.n_features;
  if (micro_.empty() || d == 0) return;
  const double t = static_cast<double>(gate_.n_seen);
  std::vector<double> points, weights;
  // Stamps are cached until their micro-cluster changes (moved()).
  for (std::size_t i = 0; i < micro_.size(); ++i)
    if (std::isnan(stamps_[i])) stamps_[i] = micro_[i].relevance_stamp(kRelevanceM);
  for (int pass = 0; pass < 2 && weights.empty(); ++pass)
    for (std::size_t i = 0; i < micro_.size(); ++i) {
      const ClusterFeature& m = micro_[i];
      if (pass == 0 && stamps_[i] < t - static_cast<double>(config_.time_window)) continue;
      for (std::size_t f = 0; f < d; ++f) points.push_back(m.centre(f));
      weights.push_back(m.n);
    }
  cluster_detail::WeightedKMeansResult r = cluster_detail::weighted_kmeans(
      points, weights, d, config_.n_macro_clusters, rng_, kMacroRestarts, kMacroIterations);
  macro_ = std::move(r.centres);
  macro_weights_ = std::move(r.weights);
}

std::int64_t CluStream::predict_one(std::span<const double> x) const {
  if (macro_weights_.empty() || !gate_.can_predict(x)) return -1;
  const std::size_t d = x.size();
  std::size_t best = 0;
  double bd = std::numeric_limits<double>::infinity();
  for (std::size_t c = 0; c < macro_weights_.size(); ++c) {
    const double dd = cluster_detail::squared_distance(x.data(), &macro_[c * d], d);
    if (dd < bd) bd = dd, best = c;
  }
  return static_cast<std::int64_t>(best);
}

std::size_t CluStream::memory_bytes() const {
  std::size_t b = sizeof(*this) + micro_.capacity() * sizeof(ClusterFeature);
  for (const ClusterFeature& m : micro_) b += (m.ls.capacity() + m.ss.capacity()) * sizeof(double);
  return b + (macro_.capacity() + macro_weights_.capacity() + centres_.capacity() + centre_cols_.capacity() +
              dist_.capacity() + nn_d2_.capacity() +
              stamps_.capacity()) *
                 sizeof(double) +
         nn_.capacity() * sizeof(std::size_t) + nn_stale_.capacity();
}

ModelSettings CluStream::settings() const { return settings_of<CluStreamConfig>(kClustreamFields, config_); }

void CluStream::encode(ByteWriter& out) const {
  encode_config(std::span<const ConfigField<CluStreamConfig>>(kClustreamFields), config_, out, ConfigLengths::kVarint);
  out.u64(seed_);
  out.u64(rng_.state());
  gate_.encode(out);
  out.u64(micro_.size());
  for (const ClusterFeature& m : micro_) {
    out.f64(m.n);
    out.f64(m.lst);
    out.f64(m.sst);
    for (std::size_t f = 0; f < m.ls.size(); ++f) out.f64(m.ls[f]);
    for (std::size_t f = 0; f < m.ss.size(); ++f) out.f64(m.ss[f]);
  }
  for (std::size_t i = 0; i < micro_.size(); ++i) {
    out.u64(nn_[i]);
    out.f64(nn_d2_[i]);
    out.u8(static_cast<std::uint8_t>(nn_stale_[i]));
  }
  out.f64s(macro_);
  out.f64s(macro_weights_);
}

Status CluStream::decode(ByteReader& in) { return decode_record(in, false); }

Status CluStream::decode_v1(ByteReader& in) { return decode_record(in, true); }

Status CluStream::decode_record(ByteReader& in, bool binary_settings) {
  CluStreamConfig c;
  if (binary_settings) {
    c.n_macro_clusters = in.u32("n_macro_clusters");
    c.max_micro_clusters = in.u32("max_micro_clusters");
    c.micro_cluster_r_factor = in.f64("micro_cluster_r_factor");
    c.time_window = in.u64("time_window");
    c.time_gap = in.u64("time_gap");
  } else {
    IRITHYLL_RETURN_IF_ERROR(
        decode_config("clustream", std::span<const ConfigField<CluStreamConfig>>(kClustreamFields), in, c));
  }
  const std::uint64_t seed = in.u64("seed"), state = in.u64("rng");
  if (!in.ok()) return in.status();
  if (Status s = c.validate(); !s) return Status::corruption("clustream checkpoint: " + s.message());
  config_ = c;
  seed_ = seed;
  reset();
  rng_.set_state(state);
  gate_.decode(in);
  const std::size_t d = gate_.n_features;
  const std::size_t count = in.read_count(24 + 16 * d, "micro-clusters");
  in.expect(count <= config_.max_micro_clusters && count <= kClustreamMaxMicro, "micro-clusters <= max-micro-clusters");
  in.expect(count == 0 || d > 0, "micro-clusters need a width");
  bool valid = true;
  for (std::size_t i = 0; i < count && in.ok(); ++i) {
    ClusterFeature m;
    m.n = in.f64("N");
    m.lst = in.f64("LST");
    m.sst = in.f64("SST");
    m.ls.resize(d);
    m.ss.resize(d);
    for (double& v : m.ls) v = in.f64("LS");
    for (double& v : m.ss) v = in.f64("SS");
    valid = valid && std::isfinite(m.n) && m.n > 0.0 && std::isfinite(m.lst) && std::isfinite(m.sst);
    for (std::size_t f = 0; f < d; ++f) valid = valid && std::isfinite(m.ls[f]) && std::isfinite(m.ss[f]);
    micro_.push_back(std::move(m));
  }
  in.expect(valid, "finite micro-cluster statistics with N > 0");
  // Centres are LS/N; the neighbour links (with their lower bounds) are
  // stored, as a rebuild could break ties differently.
  const std::size_t q = in.ok() ? micro_.size() : 0;
  centres_.assign(q * d, 0.0);
  for (std::size_t i = 0; i < q; ++i) write_centre(i);
  nn_.assign(q, 0);
  nn_d2_.assign(q, 0.0);
  nn_stale_.assign(q, 0);
  stamps_.assign(q, std::numeric_limits<double>::quiet_NaN());  // recomputed from the CFs when needed
  bool links = true;
  for (std::size_t i = 0; i < q && in.ok(); ++i) {
    const std::uint64_t j = in.u64("nearest micro-cluster");
    nn_d2_[i] = in.f64("nearest distance");
    const std::uint8_t stale = in.u8("stale link");
    links = links && j < q && (j != i || q == 1) && nn_d2_[i] >= 0.0 && !std::isnan(nn_d2_[i]) && stale <= 1;
    nn_[i] = links ? static_cast<std::size_t>(j) : 0;
    nn_stale_[i] = static_cast<char>(stale);
  }
  in.expect(links, "nearest-neighbour links within the micro-clusters");
  macro_ = in.f64s("macro centres");
  macro_weights_ = in.f64s("macro weights");
  if (in.ok()) {
    in.expect(macro_weights_.size() <= config_.n_macro_clusters && macro_.size() == macro_weights_.size() * d,
              "macro centres = k x n_features");
    in.expect(d > 0 || macro_weights_.empty(), "no macro clusters before the width is known");
    bool finite = true;
    for (const double v : macro_) finite = finite && std::isfinite(v);
    in.expect(finite, "finite macro centres");
  }
  if (!in.ok()) {
    const Status s = in.status();
    reset();
    return Status::corruption("clustream checkpoint: " + s.message());
  }
  return Status::ok();
}

}  // namespace irithyll
