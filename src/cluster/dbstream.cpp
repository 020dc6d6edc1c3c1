#include "irithyll/cluster/dbstream.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <cstring>
#include <numeric>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "irithyll/core/config_codec.hpp"
#include "cluster/centre_table.hpp"
#include "core/field_rows.hpp"

namespace irithyll {
namespace {

using DbstreamRow = ConfigField<DBStreamConfig>;
const std::array kDbstreamFields = {
    DbstreamRow{FieldInfo::real("clustering-threshold", "1", "micro-cluster radius r, in feature units").above(0),
        IRITHYLL_FIELD_REAL(DBStreamConfig, clustering_threshold)},
    DbstreamRow{FieldInfo::real("fading-factor", "0.01", "lambda: weights halve every 1/lambda samples").in(0, 1, true),
        IRITHYLL_FIELD_REAL(DBStreamConfig, fading_factor)},
    DbstreamRow{FieldInfo::integer("cleanup-interval", "100", "samples between removals of weak micro-clusters and macro rebuilds").in(1, 1e15),
        IRITHYLL_FIELD_UINT(DBStreamConfig, cleanup_interval)},
    DbstreamRow{FieldInfo::real("intersection-factor", "0.3", "alpha: shared density / mean weight needed to join two micro-clusters").in(0, 1, true),
        IRITHYLL_FIELD_REAL(DBStreamConfig, intersection_factor)},
    DbstreamRow{FieldInfo::real("minimum-weight", "1", "weight of a strong micro-cluster (weaker ones are noise)").at_least(0),
        IRITHYLL_FIELD_REAL(DBStreamConfig, minimum_weight)},
    DbstreamRow{FieldInfo::real("minimum-share", "0.05", "share of the total weight a macro cluster needs (smaller ones are noise)").in(0, 1, false, true),
        IRITHYLL_FIELD_REAL(DBStreamConfig, minimum_share)},
};

constexpr std::uint64_t kDbstreamMaxMicro = std::uint64_t{1} << 24;

std::size_t find_root(std::vector<std::size_t>& parent, std::size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

std::span<const ConfigField<DBStreamConfig>> dbstream_config_fields() { return kDbstreamFields; }

Status DBStreamConfig::validate() const { return validate_fields<DBStreamConfig>("dbstream", kDbstreamFields, *this); }

// Fading factors 2^(-lambda k) and 2^(lambda k) for k below this come from
// tables.
constexpr std::size_t kFadeTable = 1024;
// Values are rescaled at least every kMaxGrowExponent / lambda samples, so a
// weight is never scaled up by more than 2^kMaxGrowExponent.
constexpr double kMaxGrowExponent = 60.0;

// The shared densities s_ij of micro-cluster i (the older) with younger
// micro-clusters j, sorted by j: the indices apart from the values, so that
// the search that finds the pairs reads 4 bytes per edge it passes; each
// value is scaled to the model's epoch (see DBStream::epoch_), so it needs
// no time stamp. The index array ends in kPad sentinels
// (larger than any index), so seek() compares kPad indices at a time with no
// bounds test: finding the next pair in a list where about half the passed
// edges are pairs is a coin toss for a branch per edge, and a count of the
// smaller lanes per step is not.
class EdgeList {
 public:
  EdgeList() { clear(); }
  std::size_t size() const { return v_.size(); }
  std::uint32_t j(std::size_t k) const { return j_[k]; }
  double v(std::size_t k) const { return v_[k]; }
  double& v(std::size_t k) { return v_[k]; }
  const std::uint32_t* j_data() const { return j_.data(); }
  const double* v_data() const { return v_.data(); }

  // The first position at or after pos whose index is >= j (size() when
  // none); pos <= size(). The sorted indices below j form a prefix of each
  // kPad lanes read, so the step is the count of trailing set bits in the
  // lanes' "smaller" mask (one instruction, where summing lanes is four).
  std::size_t seek(std::size_t pos, std::uint32_t j) const {
#if defined(__SSE2__)
    // Indices and j are below 2^31, so the signed compare orders them.
    const __m128i jv = _mm_set1_epi32(static_cast<int>(j));
    for (;;) {
      const auto* p = reinterpret_cast<const __m128i*>(j_.data() + pos);
      const int lo = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(_mm_loadu_si128(p), jv)));
      const int hi = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(_mm_loadu_si128(p + 1), jv)));
      const auto n = static_cast<std::size_t>(__builtin_ctz(~static_cast<unsigned>(lo | hi << 4)));
      pos += n;
      if (n < kPad) return pos;
    }
#else
    while (j_[pos] < j) ++pos;
    return pos;
#endif
  }
  void insert(std::size_t pos, std::uint32_t j) {
    j_.insert(j_.begin() + static_cast<std::ptrdiff_t>(pos), j);
    v_.insert(v_.begin() + static_cast<std::ptrdiff_t>(pos), 0.0);
  }
  void push_back(std::uint32_t j, double v) {
    insert(size(), j);
    v_.back() = v;
  }
  // Keeps the first n edges; set(k, ...) rewrites edge k < size().
  void truncate(std::size_t n) {
    v_.resize(n);
    j_.resize(n);
    j_.insert(j_.end(), kPad, kEnd);
  }
  void set(std::size_t k, std::uint32_t j, double v) {
    j_[k] = j;
    v_[k] = v;
  }
  void clear() { truncate(0); }
  std::size_t capacity_bytes() const { return j_.capacity() * sizeof(std::uint32_t) + v_.capacity() * sizeof(double); }

 private:
  static constexpr std::size_t kPad = 8;
  static constexpr std::uint32_t kEnd = 0x7FFFFFFFu;  // above every index (kMaxMicro)
  std::vector<std::uint32_t> j_;  // size() indices, then kPad x kEnd
  std::vector<double> v_;
};

struct DBStream::Rep {
  cluster_detail::CentreTable centres;  // m x d
  // The shared-density graph as adjacency lists: edges[i] holds the edges
  // (i, j) with j > i, sorted by j. The neighbours of a point are found in
  // index order, so updating the pairs among them is one merge per list,
  // over memory that is read in order; cleanup and the macro rebuild sweep
  // the lists in order too.
  std::vector<EdgeList> edges;
  std::vector<EdgeList> spare;  // emptied lists kept for their capacity
  std::vector<double> fade;              // fade[k] = 2^(-lambda k), k < kFadeTable
  std::vector<double> grow;              // grow[k] = 2^(lambda k), k < kFadeTable
  std::uint64_t rescale_interval = 0;    // see DBStream::epoch_
  // Scratch (reused, so learn_one and recluster do not allocate once warm).
  std::vector<std::size_t> near;
  std::vector<double> near_dist;
  std::vector<double> moved, moved_cols;
  std::vector<char> keep;
  std::vector<double> mark;  // learn_one: ws for the neighbours, 0 for the rest
  std::vector<std::uint32_t> in_near;  // learn_one: 1 for the neighbours, 0 for the rest
  std::vector<std::int64_t> close;  // learn_one: 1 for the moves undone
  std::vector<std::uint32_t> remap;  // cleanup: old index -> new
  std::vector<double> w;
  std::vector<std::size_t> parent;
  std::vector<std::int64_t> component;
  std::vector<double> component_weight;
  std::vector<std::int64_t> label_of;
  std::vector<std::size_t> slot_start, order;  // recluster: the centres' slot order
  std::vector<std::size_t> seeds;               // recluster: see CentreTable::set_labels
};

DBStream::DBStream(DBStreamConfig config, std::uint64_t seed)
    : config_(config), seed_(seed), rep_(std::make_unique<Rep>()) {
  rep_->fade.resize(kFadeTable);
  rep_->grow.resize(kFadeTable);
  for (std::size_t k = 0; k < kFadeTable; ++k) {
    rep_->fade[k] = std::exp2(-config_.fading_factor * static_cast<double>(k));
    rep_->grow[k] = std::exp2(config_.fading_factor * static_cast<double>(k));
  }
  // Values scaled by at most 2^kMaxGrowExponent between rescales.
  const double limit = kMaxGrowExponent / config_.fading_factor;
  rep_->rescale_interval = limit < 0x1p62 ? std::max<std::uint64_t>(1, static_cast<std::uint64_t>(limit)) : std::uint64_t{1} << 62;
}

DBStream::~DBStream() = default;
DBStream::DBStream(DBStream&&) noexcept = default;
DBStream& DBStream::operator=(DBStream&&) noexcept = default;

std::span<const double> DBStream::micro_centers() const { return rep_->centres.rows(); }
std::size_t DBStream::n_shared_densities() const {
  std::size_t n = 0;
  for (const EdgeList& list : rep_->edges) n += list.size();
  return n;
}

Result<std::unique_ptr<DBStream>> DBStream::make(const DBStreamConfig& config, std::uint64_t seed) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  return std::make_unique<DBStream>(config, seed);
}

void DBStream::reset() {
  gate_ = {};
  next_id_ = 0;
  ids_.clear();
  rep_->centres.reset(0);
  weights_.clear();
  epoch_ = 0;
  for (EdgeList& list : rep_->edges) {
    list.clear();
    rep_->spare.push_back(std::move(list));
  }
  rep_->edges.clear();
  labels_.clear();
  macro_.clear();
  macro_weights_.clear();
}

// The tables hold the same exp2 values, so both branches give the same bits.
double DBStream::fade_of(std::uint64_t k) const {
  return k < kFadeTable ? rep_->fade[k] : std::exp2(-config_.fading_factor * static_cast<double>(k));
}
double DBStream::grow_of(std::uint64_t k) const {
  return k < kFadeTable ? rep_->grow[k] : std::exp2(config_.fading_factor * static_cast<double>(k));
}

std::uint64_t DBStream::epoch_at(std::uint64_t t) const {
  return std::max(t - t % config_.cleanup_interval, t - t % rep_->rescale_interval);
}

// The value scaled to epoch_ of one last updated at time `since`.
double DBStream::to_epoch(double v, std::uint64_t since) const {
  return since >= epoch_ ? v * grow_of(since - epoch_) : v * fade_of(epoch_ - since);
}

void DBStream::rescale() {
  const double f = fade_of(gate_.n_seen - epoch_);
  for (double& w : weights_) w *= f;
  for (EdgeList& list : rep_->edges)
    for (std::size_t k = 0; k < list.size(); ++k) list.v(k) *= f;
  epoch_ = gate_.n_seen;
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
  // The weight in the epoch's scale: adding it to a value scaled to epoch_
  // is adding `weight` to the value faded to now.
  const double ws = weight * grow_of(t - epoch_);

  Rep& rep = *rep_;
  if (rep.centres.width() != d) rep.centres.reset(d);
  const std::size_t m = ids_.size();
  if (rep.near.size() < m) {
    rep.near.resize(rep.centres.capacity());
    rep.near_dist.resize(rep.centres.capacity());
  }
  const std::size_t n_near = rep.centres.within(x.data(), r2, rep.near.data(), rep.near_dist.data());

  if (n_near == 0) {
    ids_.push_back(next_id_++);
    rep.centres.push_back(x.data());
    weights_.push_back(ws);
    if (rep.spare.empty()) {
      rep.edges.emplace_back();
    } else {
      rep.edges.push_back(std::move(rep.spare.back()));
      rep.spare.pop_back();
    }
  } else {
    // The moved centres, row-major and feature-major, so the distances
    // between them run through the vectorised kernel in whole blocks of 4:
    // the stride leaves room for a block that starts at any centre, and the
    // padding (finite: zero or old centres) is read and ignored.
    const std::size_t stride = n_near + 3;
    rep.moved.resize(n_near * d);
    if (rep.moved_cols.size() < stride * d) rep.moved_cols.resize(stride * d, 0.0);
    if (rep.mark.size() < m) {
      rep.mark.resize(rep.centres.capacity(), 0.0);
      rep.in_near.resize(rep.centres.capacity(), 0);
    }
    for (std::size_t a = 0; a < n_near; ++a) rep.mark[rep.near[a]] = ws, rep.in_near[rep.near[a]] = 1;
    for (std::size_t a = 0; a < n_near; ++a) {
      const std::size_t i = rep.near[a];
      // The edge lists are read below; start loading them now.
      const EdgeList& list = rep.edges[i];
      // A fixed number of lines (a typical list's), so no loop exit to
      // mispredict. A prefetch past the end of a list is harmless, but
      // pointer arithmetic there is not defined: the addresses are integers.
      if (list.size() != 0) {
        const auto jb = reinterpret_cast<std::uintptr_t>(list.j_data());
        const auto vb = reinterpret_cast<std::uintptr_t>(list.v_data());
        __builtin_prefetch(reinterpret_cast<const void*>(jb));
        __builtin_prefetch(reinterpret_cast<const void*>(jb + 64));
        for (std::uintptr_t line = 0; line < 6; ++line) __builtin_prefetch(reinterpret_cast<const void*>(vb + 64 * line));
      }
      weights_[i] += ws;
      const double* c = rep.centres.row(i);
      const double h = std::exp(-rep.near_dist[a] * inv_two_sigma2);
      for (std::size_t f = 0; f < d; ++f) {
        const double v = c[f] + h * (x[f] - c[f]);
        rep.moved[a * d + f] = v;
        rep.moved_cols[f * stride + a] = v;
      }
    }
    // Two moves that would bring centres within r of each other are undone.
    if (rep.close.size() < stride) rep.close.resize(stride);
    cluster_detail::close_pairs(rep.moved_cols.data(), stride, n_near, d, r2, rep.close.data());
    for (std::size_t a = 0; a < n_near; ++a) {
      // The shared densities of the pairs (near[a], near[b]), b > a: one
      // pass over near[a]'s whole list adds mark[j] to every edge, which is
      // ws for the pairs and 0 for the rest (leaving their bits alone). The
      // edges are independent, so the pass runs at the loads' throughput
      // where a search per pair waits on each step's loads; a list has
      // about 3 edges per pair here. A pair without an edge (about one per 4
      // samples here) is found by the count of in_near and inserted by a search.
      EdgeList& list = rep.edges[rep.near[a]];
      std::size_t found = 0;
      for (std::size_t k = 0; k < list.size(); ++k) {
        const std::uint32_t j = list.j(k);
        list.v(k) += rep.mark[j];
        found += rep.in_near[j];
      }
      if (found != n_near - a - 1) {
        std::size_t pos = 0;
        for (std::size_t b = a + 1; b < n_near; ++b, ++pos) {
          const auto j = static_cast<std::uint32_t>(rep.near[b]);
          pos = list.seek(pos, j);
          if (list.j(pos) == j) continue;  // at size() it reads a sentinel
          list.insert(pos, j);
          list.v(pos) = ws;
        }
      }
    }
    for (std::size_t a = 0; a < n_near; ++a) rep.mark[rep.near[a]] = 0.0, rep.in_near[rep.near[a]] = 0;
    for (std::size_t a = 0; a < n_near; ++a)
      if (rep.close[a] == 0) rep.centres.set(rep.near[a], &rep.moved[a * d]);
  }
  if (t % config_.cleanup_interval == 0) {
    cleanup();
    recluster();
  } else {
    if (t % rep.rescale_interval == 0) rescale();
    if (macro_weights_.empty()) recluster();
  }
  return Status::ok();
}

void DBStream::cleanup() {
  Rep& rep = *rep_;
  const double w_weak = std::exp2(-config_.fading_factor * static_cast<double>(config_.cleanup_interval));
  const double s_weak = config_.intersection_factor * w_weak;
  const std::size_t m = ids_.size();
  // Faded to now, which becomes the new epoch.
  const double f = fade_of(gate_.n_seen - epoch_);
  rep.keep.assign(m, 0);
  rep.remap.resize(m);
  std::size_t out = 0;
  for (std::size_t i = 0; i < m; ++i) {
    weights_[i] *= f;
    if (weights_[i] < w_weak) continue;
    rep.keep[i] = 1;
    rep.remap[i] = static_cast<std::uint32_t>(out++);
  }
  out = 0;
  for (std::size_t i = 0; i < m; ++i) {
    EdgeList& list = rep.edges[i];
    if (!rep.keep[i]) {
      list.clear();
      rep.spare.push_back(std::move(list));
      continue;
    }
    std::size_t kept = 0;
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::uint32_t j = list.j(k);
      const double s = list.v(k) * f;
      if (!rep.keep[j] || s < s_weak) continue;
      list.set(kept++, rep.remap[j], s);
    }
    list.truncate(kept);
    ids_[out] = ids_[i];
    weights_[out] = weights_[i];
    if (out != i) rep.edges[out] = std::move(list);
    ++out;
  }
  ids_.resize(out);
  weights_.resize(out);
  epoch_ = gate_.n_seen;
  rep.edges.resize(out);
  rep.centres.compact(rep.keep);
  // The spare lists only need to cover the micro-clusters that may come.
  if (rep.spare.size() > out + 16) rep.spare.resize(out + 16);
}

void DBStream::recluster() {
  Rep& rep = *rep_;
  const std::size_t d = gate_.n_features, m = ids_.size();
  std::vector<double>& w = rep.w;
  std::vector<std::size_t>& parent = rep.parent;
  w.resize(m);
  parent.resize(m);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  const double now = fade_of(gate_.n_seen - epoch_);  // 1 right after a cleanup
  for (std::size_t i = 0; i < m; ++i) w[i] = weights_[i] * now;
  auto strong = [&](std::size_t i) { return w[i] > config_.minimum_weight; };
  for (std::size_t i = 0; i < m; ++i) {
    if (!strong(i)) continue;
    // Joining j's tree under i's root leaves that root a root. Only the
    // partition matters, so an edge between micro-clusters already joined
    // (most edges inside a cluster, once a few have joined it) skips its
    // connectivity test.
    const std::size_t root = find_root(parent, i);
    const EdgeList& list = rep.edges[i];
    for (std::size_t k = 0; k < list.size(); ++k) {
      const std::size_t j = list.j(k);
      if (!strong(j)) continue;
      const std::size_t root_j = find_root(parent, j);
      if (root_j != root &&
          list.v(k) * now / ((w[i] + w[j]) / 2.0) >= config_.intersection_factor)
        parent[root_j] = root;
    }
  }
  // Components in the order of their oldest micro-cluster, with their weight.
  std::vector<std::int64_t>& component = rep.component;
  std::vector<double>& component_weight = rep.component_weight;
  component.assign(m, -1);
  component_weight.clear();
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
  std::vector<std::int64_t>& label_of = rep.label_of;
  label_of.assign(component_weight.size(), -1);
  std::int64_t k = 0;
  for (std::size_t c = 0; c < component_weight.size(); ++c)
    if (component_weight[c] >= config_.minimum_share * total) label_of[c] = k++;
  labels_.assign(m, -1);
  macro_.assign(static_cast<std::size_t>(k) * d, 0.0);
  macro_weights_.assign(static_cast<std::size_t>(k), 0.0);
  rep.seeds.assign(static_cast<std::size_t>(k), m);  // per macro cluster, its heaviest micro-cluster
  for (std::size_t i = 0; i < m; ++i) {
    if (!strong(i)) continue;
    const std::int64_t label = label_of[static_cast<std::size_t>(component[find_root(parent, i)])];
    labels_[i] = label;
    if (label < 0) continue;
    const auto l = static_cast<std::size_t>(label);
    if (rep.seeds[l] == m || w[i] > w[rep.seeds[l]]) rep.seeds[l] = i;
    macro_weights_[l] += w[i];
    const double* c = rep.centres.row(i);
    for (std::size_t f = 0; f < d; ++f) macro_[l * d + f] += w[i] * c[f];
  }
  for (std::size_t c = 0; c < macro_weights_.size(); ++c)
    for (std::size_t f = 0; f < d; ++f) macro_[c * d + f] /= macro_weights_[c];
  // The distance kernels' slots by macro cluster (then the rest), so that
  // most blocks of 16 lie in one cluster and a search from a point of
  // another leaves them after a few features. A counting sort, stable.
  const auto bucket = [&](std::size_t i) {
    return labels_[i] < 0 ? static_cast<std::size_t>(k) : static_cast<std::size_t>(labels_[i]);
  };
  std::vector<std::size_t>& start = rep.slot_start;
  start.assign(static_cast<std::size_t>(k) + 2, 0);
  for (std::size_t i = 0; i < m; ++i) ++start[bucket(i) + 1];
  for (std::size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
  rep.order.resize(m);
  for (std::size_t i = 0; i < m; ++i) rep.order[start[bucket(i)]++] = i;
  rep.centres.reorder(rep.order);
  rep.centres.set_labels(labels_, rep.seeds);
}

std::int64_t DBStream::predict_one(std::span<const double> x) const {
  if (macro_weights_.empty() || !gate_.can_predict(x)) return -1;
  const std::int64_t i = rep_->centres.nearest_labelled(x.data());
  return i < 0 ? -1 : labels_[static_cast<std::size_t>(i)];
}

std::vector<double> DBStream::micro_weights() const {
  std::vector<double> w(ids_.size());
  const double f = fade_of(gate_.n_seen - epoch_);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = weights_[i] * f;
  return w;
}

std::size_t DBStream::memory_bytes() const {
  const Rep& r = *rep_;
  std::size_t lists = (r.edges.capacity() + r.spare.capacity()) * sizeof(EdgeList);
  for (const EdgeList& list : r.edges) lists += list.capacity_bytes();
  for (const EdgeList& list : r.spare) lists += list.capacity_bytes();
  return sizeof(*this) + sizeof(Rep) + r.centres.memory_bytes() + lists +
         (weights_.capacity() + macro_.capacity() + macro_weights_.capacity() + r.fade.capacity() + r.grow.capacity() +
          r.near_dist.capacity() + r.mark.capacity() + r.moved.capacity() + r.moved_cols.capacity() + r.w.capacity() + r.component_weight.capacity()) *
             sizeof(double) +
         (ids_.capacity() + labels_.capacity() + r.near.capacity() + r.parent.capacity() +
          r.component.capacity() + r.label_of.capacity() + r.slot_start.capacity() + r.order.capacity() + r.close.capacity() +
          r.seeds.capacity()) *
             8 +
         r.keep.capacity() + (r.remap.capacity() + r.in_near.capacity()) * 4;
}

ModelSettings DBStream::settings() const { return settings_of<DBStreamConfig>(kDbstreamFields, config_); }

void DBStream::encode(ByteWriter& out) const {
  encode_config(std::span<const ConfigField<DBStreamConfig>>(kDbstreamFields), config_, out, ConfigLengths::kVarint);
  out.u64(seed_);
  gate_.encode(out);
  out.u64(next_id_);
  out.u64s(ids_);
  out.f64s(rep_->centres.rows());
  // The format's (value, time of last update) pairs: every value is the one
  // at time epoch_.
  out.f64s(weights_);
  out.u64s(std::vector<std::uint64_t>(weights_.size(), epoch_));
  // Edges in (id_i, id_j) order.
  out.u64(n_shared_densities());
  for (std::size_t i = 0; i < ids_.size(); ++i)
    for (std::size_t k = 0; k < rep_->edges[i].size(); ++k) {
      const EdgeList& list = rep_->edges[i];
      out.u64(ids_[i]);
      out.u64(ids_[list.j(k)]);
      out.f64(list.v(k));
      out.u64(epoch_);
    }
  out.u64(labels_.size());
  for (const std::int64_t l : labels_) out.i64(l);
  out.f64s(macro_);
  out.f64s(macro_weights_);
}

Status DBStream::decode(ByteReader& in) { return decode_record(in, false); }

Status DBStream::decode_v1(ByteReader& in) { return decode_record(in, true); }

Status DBStream::decode_record(ByteReader& in, bool binary_settings) {
  DBStreamConfig c;
  if (binary_settings) {
    c.clustering_threshold = in.f64("clustering_threshold");
    c.fading_factor = in.f64("fading_factor");
    c.cleanup_interval = in.u64("cleanup_interval");
    c.intersection_factor = in.f64("intersection_factor");
    c.minimum_weight = in.f64("minimum_weight");
    c.minimum_share = in.f64("minimum_share");
  } else {
    IRITHYLL_RETURN_IF_ERROR(
        decode_config("dbstream", std::span<const ConfigField<DBStreamConfig>>(kDbstreamFields), in, c));
  }
  const std::uint64_t seed = in.u64("seed");
  if (!in.ok()) return in.status();
  if (Status s = c.validate(); !s) return Status::corruption("dbstream checkpoint: " + s.message());
  *this = DBStream(c, seed);  // the fading table follows the configuration
  gate_.decode(in);
  next_id_ = in.u64("next id");
  ids_ = in.u64s("ids");
  const std::vector<double> centres = in.f64s("centres");
  weights_ = in.f64s("weights");
  const std::vector<std::uint64_t> times = in.u64s("times");
  const std::size_t d = gate_.n_features, m = ids_.size();
  if (in.ok()) {
    in.expect(m <= kDbstreamMaxMicro && (m == 0 || d > 0), "micro-cluster count");
    in.expect(centres.size() == m * d && weights_.size() == m && times.size() == m, "micro-cluster arrays");
    bool valid = true;
    for (std::size_t i = 0; i < m && valid && in.ok(); ++i) {
      valid = ids_[i] < next_id_ && (i == 0 || ids_[i - 1] < ids_[i]) && times[i] <= gate_.n_seen &&
              std::isfinite(weights_[i]) && weights_[i] >= 0.0;
    }
    for (const double v : centres) valid = valid && std::isfinite(v);
    in.expect(valid, "increasing ids, past times, finite centres and weights");
  }
  // Values move to the epoch the model would have now; one written at that
  // epoch (as encode writes them) keeps its bits.
  epoch_ = epoch_at(gate_.n_seen);
  if (in.ok()) {
    for (std::size_t i = 0; i < m; ++i) weights_[i] = to_epoch(weights_[i], times[i]);
    bool finite = true;
    for (const double w : weights_) finite = finite && std::isfinite(w);
    in.expect(finite, "weights finite at the current epoch");
  }
  if (in.ok()) rep_->centres.assign(centres, d);
  if (in.ok()) rep_->edges.resize(m);
  const std::size_t n_shared = in.read_count(32, "shared densities");
  std::uint64_t last_a = 0, last_b = 0;
  for (std::size_t e = 0; e < n_shared && in.ok(); ++e) {
    const std::uint64_t a = in.u64("edge id"), b = in.u64("edge id");
    const double s = in.f64("shared density");
    const std::uint64_t t = in.u64("edge time");
    const std::size_t i = index_of(a), j = index_of(b);
    const bool ok = a < b && i < m && ids_[i] == a && j < m && ids_[j] == b && std::isfinite(s) && s >= 0.0 &&
                    t <= gate_.n_seen;
    if (!in.expect(ok, "shared density between two live micro-clusters")) break;
    // Written in (a, b) order: appending keeps every list sorted.
    if (!in.expect(e == 0 || a > last_a || (a == last_a && b > last_b), "distinct shared-density edges in order"))
      break;
    last_a = a, last_b = b;
    const double v = to_epoch(s, t);
    if (!in.expect(std::isfinite(v), "shared density finite at the current epoch")) break;
    rep_->edges[i].push_back(static_cast<std::uint32_t>(j), v);
  }
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
  rep_->centres.set_labels(labels_, {});
  return Status::ok();
}

}  // namespace irithyll
