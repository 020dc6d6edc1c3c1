// DBStream (Hahsler & Bolaños 2016, "Clustering Data Streams Based on Shared
// Density Between Micro-Clusters", IEEE TKDE 28(6)): micro-clusters of radius
// r (clustering-threshold) with faded weights, and a shared-density graph
// whose edges count the points falling into two micro-clusters at once;
// macro clusters are the connected components of strong micro-clusters
// joined by dense enough intersections. The number of clusters is found, not
// given.
//
// Update for x at time t (t counts learned samples; Algorithm 1 of the paper):
//   N = micro-clusters whose centre lies within r of x.
//   N empty: a new micro-cluster at x with weight w.
//   Otherwise, for each i in N: w_i <- w_i 2^(-lambda (t - t_i)) + w; the
//     centre moves by h_i (x - c_i), h_i = exp(-|x - c_i|^2 / (2 sigma^2)),
//     sigma = r / 3; for each pair i, j in N the shared density
//     s_ij <- s_ij 2^(-lambda (t - t_ij)) + w. A move that would bring two
//     centres within r of each other is undone for both (the paper's guard
//     against collapsing micro-clusters), so centres stay r apart.
//   Decay is lazy: weights and shared densities are kept scaled to a common
//   epoch (epoch_ below), so an update is one addition.
// Every cleanup-interval samples (t_gap): micro-clusters whose faded weight
//   is below w_weak = 2^(-lambda t_gap) are dropped (a new micro-cluster
//   survives one cleanup), and shared densities below
//   intersection-factor x w_weak too; then the macro clusters are rebuilt.
// Macro clusters: micro-clusters with weight > minimum-weight are strong;
//   two strong ones are connected when s_ij / ((w_i + w_j) / 2) >=
//   intersection-factor (the paper's connectivity). A connected component
//   holding less than minimum-share of the total weight is noise (one or two
//   strong micro-clusters at a cluster's fringe, which the shared density
//   has not yet tied in, would otherwise each count as a cluster; the
//   paper's reference implementation has the same filter as `minweight`).
//   Components are numbered in the order of their oldest micro-cluster; a
//   macro centre is the weighted mean of its micro-cluster centres.
// predict_one: the macro cluster of the nearest strong micro-cluster (so
//   non-convex clusters keep their shape); -1 when there is none.
//
// Pitfalls avoided (each one breaks the algorithm as published): moving only
// the nearest micro-cluster and giving it all the weight; joining on
// s_ij > threshold (w_i + w_j), twice the paper's bar; letting weak
// micro-clusters join macro clusters; and cleaning up against minimum-weight
// instead of w_weak, which with the usual defaults deletes every
// micro-cluster that holds one point at the next cleanup.
//
// Cost per sample: O(m d) for m micro-clusters (one vectorised radius
// search over the centres, stored feature-major and grouped by macro
// cluster, whose blocks of 16 stop once every partial sum exceeds r^2)
// plus O(|N|^2 d + sum of the neighbours' edge counts) for the move guard
// (the moved centres' pairwise distances, 4-wide, in one call) and the
// shared densities (one pass over each neighbour's sorted edge list, which
// adds w to the pairs and 0 to the rest; a missing pair is inserted after a
// search of 8 indices per step; the scale 2^(lambda k) of an update for
// k < 1024 comes from a table made at construction). predict_one: O(m d)
// at most, the same early stop against the best distance so far. Cleanup
// and the macro rebuild O(m d + e) for e graph edges. Nothing is allocated
// per sample once the micro-cluster count and the graph have levelled off
// (emptied edge lists are kept for reuse). Memory: m (2 d + 1) doubles +
// 12 bytes per edge + 56 bytes per micro-cluster + 16 KiB. Thread safety:
// none (see clusterer.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/cluster/clusterer.hpp"
#include "irithyll/core/config_fields.hpp"

namespace irithyll {

struct DBStreamConfig {
  double clustering_threshold = 1.0;  // r, micro-cluster radius in feature units, > 0
  double fading_factor = 0.01;        // lambda: weights halve every 1/lambda samples, (0, 1]
  std::uint64_t cleanup_interval = 100;  // t_gap: samples between cleanups and macro rebuilds, >= 1
  double intersection_factor = 0.3;   // alpha: connectivity needed to join two micro-clusters, (0, 1]
  double minimum_weight = 1.0;        // w_min: weight of a strong (non-noise) micro-cluster, >= 0
  double minimum_share = 0.05;        // share of the total weight a macro cluster needs, [0, 1)

  Status validate() const;
};
std::span<const ConfigField<DBStreamConfig>> dbstream_config_fields();

class DBStream final : public Clusterer {
 public:
  explicit DBStream(DBStreamConfig config = {}, std::uint64_t seed = 42);
  ~DBStream() override;
  DBStream(DBStream&&) noexcept;
  DBStream& operator=(DBStream&&) noexcept;
  static Result<std::unique_ptr<DBStream>> make(const DBStreamConfig& config, std::uint64_t seed);

  std::string_view name() const override { return "dbstream"; }
  Status learn_one(std::span<const double> x, double weight = 1.0) override;
  std::int64_t predict_one(std::span<const double> x) const override;
  std::size_t n_clusters() const override { return macro_weights_.size(); }
  std::vector<double> centers() const override { return macro_; }
  std::size_t n_features() const override { return gate_.n_features; }
  std::uint64_t n_samples_seen() const override { return gate_.n_seen; }
  std::uint64_t n_ignored() const override { return gate_.n_ignored; }
  std::size_t memory_bytes() const override;
  void reset() override;
  ModelSettings settings() const override;
  std::uint64_t seed() const override { return seed_; }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;
  Status decode_v1(ByteReader& in) override;

  const DBStreamConfig& config() const { return config_; }
  std::size_t n_micro_clusters() const { return ids_.size(); }
  // Micro-cluster centres (n_micro_clusters() x n_features()) and their
  // weights faded to the current time.
  std::span<const double> micro_centers() const;
  std::vector<double> micro_weights() const;
  std::size_t n_shared_densities() const;
  // Rebuilds the macro clusters now (it also happens every cleanup).
  void recluster();

 private:
  Status decode_record(ByteReader& in, bool binary_settings);
  // Flat centre and shared-density tables and per-update scratch
  // (src/cluster/dbstream.cpp).
  struct Rep;

  double fade_of(std::uint64_t k) const;  // 2^(-lambda k)
  double grow_of(std::uint64_t k) const;  // 2^(lambda k)
  std::uint64_t epoch_at(std::uint64_t t) const;
  double to_epoch(double v, std::uint64_t since) const;
  void rescale();  // all values to epoch_ = now
  void cleanup();
  std::size_t index_of(std::uint64_t id) const;  // ids_ are increasing

  DBStreamConfig config_;
  std::uint64_t seed_;  // DBStream draws nothing random; kept for the interface
  cluster_detail::SampleGate gate_;
  std::uint64_t next_id_ = 0;
  // Micro-clusters, in creation order (ids increasing); their centres (m x d)
  // and the shared densities (id_i < id_j) -> s_ij live in rep_.
  std::vector<std::uint64_t> ids_;
  // Weights and shared densities are stored scaled to a common time, the
  // epoch: a value v stands for v 2^(-lambda (t - epoch_)) at time t, so an
  // update adds w 2^(lambda (t - epoch_)) and needs neither the value's own
  // time nor a fading factor of its own. Every cleanup fades all values to
  // now (it sweeps them anyway) and makes now the epoch; so does a rescale
  // every 60 / lambda samples where cleanups are further apart, so nothing
  // is scaled past 2^60. Both happen at fixed multiples of t, so the epoch
  // follows from t alone (epoch_at), which lets checkpoints keep the
  // format's (value, time) pairs: encode writes (v, epoch_).
  std::vector<double> weights_;
  std::uint64_t epoch_ = 0;
  // Macro clusters (rebuilt by recluster()):
  std::vector<std::int64_t> labels_;  // per micro-cluster at the rebuild; -1 weak
  std::vector<double> macro_;         // k x d
  std::vector<double> macro_weights_;
  std::unique_ptr<Rep> rep_;
};

}  // namespace irithyll
