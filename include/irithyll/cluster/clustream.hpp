// CluStream (Aggarwal, Han, Wang & Yu 2003, "A Framework for Clustering
// Evolving Data Streams"): an online phase keeps at most
// max-micro-clusters micro-clusters, each a cluster feature vector
//   CF = (N, LS, SS, LST, SST)
// (weight, per-feature linear and squared sums, and the linear and squared
// sums of arrival times), additive under merging; an offline phase groups
// them into n-macro-clusters by weighted k-means over their centres LS/N.
//
// Online step for a point x at time t (t counts learned samples):
//   0. start-up: each of the first q points opens its own micro-cluster (the
//      paper builds the first q offline from the first points);
//   1. find the micro-cluster M with the nearest centre;
//   2. its boundary is micro-cluster-r-factor x its RMS deviation
//      R = sqrt(sum_f (SS_f/N - (LS_f/N)^2)), the root mean squared distance
//      of its points from the centre (paper, Sec. 4.2); a micro-cluster with
//      no spread yet (one point) has as boundary the distance to its nearest
//      neighbour micro-cluster;
//   3. x inside the boundary: absorbed into M. Otherwise x opens a new
//      micro-cluster; at the cap, the one whose relevance stamp is oldest is
//      dropped if that stamp is older than t - time-window, else the two
//      closest micro-clusters are merged (CF addition).
//   The relevance stamp is the paper's estimate of the mean arrival time of
//   the last m points: mu_t + sigma_t Phi^-1(1 - m / (2N)) when N >= 2m, else
//   mu_t (m = 10; the paper leaves m free).
// Offline step, every time-gap samples (and at the first sample): weighted
//   k-means (k-means++ start, 3 seeded restarts) over the centres of the
//   micro-clusters whose relevance stamp lies within the last time-window
//   samples (all of them when none does), weights N. This stands in for the
//   paper's pyramidal snapshots: the macro clusters describe the recent
//   horizon, so they follow drift. predict_one returns the nearest macro
//   centre.
//
// Pitfalls avoided (each one breaks the algorithm as published): no time
// statistics, so stale micro-clusters are never deleted; a variance averaged
// over features (in 10 dimensions almost no point then falls inside a
// boundary); and absorbing every point into micro-clusters of fewer than 3
// points.
//
// Cost per sample: O(q d) for q micro-clusters (the nearest micro-cluster,
// and keeping every micro-cluster's nearest neighbour current, so a merge
// finds the closest pair in O(q)), plus O(q k d) per k-means restart and
// iteration every time-gap samples. Distances to all centres are one
// vectorised pass over a feature-major copy of them; relevance stamps are
// cached until their micro-cluster changes.
// Memory: q (3d + 4) doubles. Thread safety: none (see clusterer.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/cluster/clusterer.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll {

struct CluStreamConfig {
  std::uint32_t n_macro_clusters = 5;      // k of the offline step, [1, 4096]
  std::uint32_t max_micro_clusters = 100;  // q, [2, 100000]; more = finer summary, O(q) per sample
  double micro_cluster_r_factor = 2.0;     // boundary = factor x RMS deviation, > 0
  std::uint64_t time_window = 1000;        // samples after which an idle micro-cluster may be dropped, >= 1
  std::uint64_t time_gap = 100;            // samples between offline macro clusterings, >= 1

  Status validate() const;
};
std::span<const ConfigField<CluStreamConfig>> clustream_config_fields();

// One micro-cluster's cluster feature vector.
struct ClusterFeature {
  double n = 0.0;               // total weight
  std::vector<double> ls, ss;   // per feature: sum w x, sum w x^2
  double lst = 0.0, sst = 0.0;  // sum w t, sum w t^2

  void absorb(std::span<const double> x, double w, double t);
  void merge(const ClusterFeature& other);  // CF additivity
  double centre(std::size_t f) const { return ls[f] / n; }
  double rms_deviation() const;             // sqrt(sum_f var_f)
  double relevance_stamp(double m) const;   // paper's mean time of the last m arrivals
};

class CluStream final : public Clusterer {
 public:
  explicit CluStream(CluStreamConfig config = {}, std::uint64_t seed = 42);
  static Result<std::unique_ptr<CluStream>> make(const CluStreamConfig& config, std::uint64_t seed);

  std::string_view name() const override { return "clustream"; }
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

  const CluStreamConfig& config() const { return config_; }
  std::span<const ClusterFeature> micro_clusters() const { return micro_; }
  // Re-runs the offline step now (it also runs every time-gap samples).
  void recluster();

 private:
  Status decode_record(ByteReader& in, bool binary_settings);
  std::size_t nearest_micro(std::span<const double> x, double& distance2);
  // Writes centre i's coordinates to both layouts.
  void write_centre(std::size_t i);
  // Merges the closest pair into the lower index; returns the freed index.
  std::size_t merge_closest_pair();
  // Micro-cluster i changed: its cached centre, stamp and neighbour links.
  void moved(std::size_t i);
  void rescan(std::size_t i);  // i's nearest neighbour by a full scan

  CluStreamConfig config_;
  std::uint64_t seed_;
  Xorshift64 rng_;
  cluster_detail::SampleGate gate_;
  std::vector<ClusterFeature> micro_;
  std::vector<double> macro_;          // macro centres, k x d
  std::vector<double> macro_weights_;  // k
  // centres LS/N (q x d); each micro-cluster's nearest other one and the
  // squared distance to it, exact unless stale (then a lower bound), so the
  // closest pair is an O(q) search.
  std::vector<double> centres_;
  // The same centres feature-major, stride max-micro-clusters (coordinate f
  // of centre i at f q + i), read by the vectorised distance kernel.
  std::vector<double> centre_cols_;
  std::vector<double> dist_;  // scratch: distances to every centre
  std::vector<std::size_t> nn_;
  std::vector<double> nn_d2_;
  std::vector<char> nn_stale_;
  std::vector<double> stamps_;  // relevance stamps, NaN until needed after a change
};

}  // namespace irithyll
