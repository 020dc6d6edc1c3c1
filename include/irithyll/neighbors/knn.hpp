// k nearest neighbours over a sliding window (`--model knn`; Python
// irithyll.neighbors.KNNClassifier / KNNRegressor).
//
// The model keeps the last `window-size` admitted samples. A prediction finds
// the k stored samples nearest to x under the Minkowski distance
//   d(x, z) = (sum_j |(x_j - z_j) / s_j|^p)^(1/p)
// and votes (classification: class shares, arg-max; regression: mean):
//   uniform    every neighbour counts its sample weight w_i;
//   distance   neighbour i counts w_i / d_i; when some neighbours sit at
//              distance 0 exactly, only they count (weight w_i each), as
//              scikit-learn's weights="distance" does.
// Fewer than k samples stored: all of them vote. Nothing stored: class 0
// with uniform probabilities, or 0 for regression.
//
// Standardisation (`standardize`, on by default): s_j is the running
// standard deviation of feature j over every admitted sample (Welford), so a
// feature in metres and one in kilometres weigh the same; a feature with
// fewer than 2 finite values or zero spread keeps s_j = 1. Because only
// differences enter the distance, stored samples stay raw and the current
// scale applies to all of them at query time. Off: s_j = 1, the plain
// Minkowski distance (scikit-learn's KNeighbors* with metric="minkowski").
//
// Missing values: a NaN/inf feature (of the query or of a stored sample) is
// left out of that pair's sum, so the distance is over the features both
// have. Ties: among samples at equal distance the older one (admitted
// earlier) ranks first; a class vote tie goes to the lowest class index.
//
// Search: the window is a ring buffer stored feature-major (one contiguous
// column of window doubles per feature), so the distance pass runs one
// column at a time over all stored samples, an inner loop the compiler
// vectorises without reordering any sum (each sample's sum still adds its
// features in order, so results are bit-identical to the scalar loop). The
// k smallest are kept by insertion into a k-slot array. A query allocates
// nothing: the scratch row of distances is sized once, with the window.
// Cost: O(window * features) per prediction, O(features) per learn; the
// window holds at most 2^27 values (window-size * features), else make()
// refuses (or, with the width taken from the first sample, it is skipped).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

enum class KnnWeighting : std::uint8_t { kUniform = 0, kDistance = 1 };
Result<KnnWeighting> parse_knn_weighting(std::string_view text);
std::string_view knn_weighting_name(KnnWeighting w);

struct KnnConfig {
  std::uint32_t n_neighbors = 5;
  std::uint32_t window_size = 1000;
  KnnWeighting weighting = KnnWeighting::kDistance;  // River's weighted=True
  double p = 2.0;                                    // Minkowski exponent; 2 = euclidean, 1 = manhattan
  bool standardize = true;
};

class KnnLearner final : public Learner {
 public:
  using Config = KnnConfig;
  static constexpr std::string_view kName = "knn";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<KnnLearner>> make(const Config& config, const LearnerContext& context);

  KnnLearner() = default;
  const Config& config() const { return config_; }

  std::string_view name() const override { return kName; }
  Task task() const override { return context_.task; }
  std::size_t n_classes() const override { return context_.n_classes; }
  std::size_t n_features() const override { return width_; }
  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  // Samples now in the window (<= window-size).
  std::size_t stored() const { return size_; }

 private:
  // Fills neighbours_ with the k nearest stored samples to x, nearest first;
  // returns how many (min(k, stored)).
  std::size_t search(std::span<const double> x) const;
  // Vote weight of neighbour n (distance weighting, zero-distance rule).
  double vote_weight(std::size_t n, bool any_zero) const;
  void allocate(std::size_t width);

  Config config_;
  LearnerContext context_;
  std::size_t width_ = 0;
  // Ring buffer, feature-major: column j holds feature j of slot s at
  // columns_[j * window + s]. Slot order is admission order modulo window.
  std::vector<double> columns_;
  std::vector<double> targets_;
  std::vector<double> weights_;
  std::vector<std::uint64_t> order_;  // admission number of each slot (tie rule)
  std::size_t head_ = 0;              // next slot to write
  std::size_t size_ = 0;
  std::uint64_t admitted_ = 0;
  // Running per-feature statistics for standardisation (Welford).
  std::vector<double> count_, mean_, m2_;
  std::uint64_t seen_ = 0;
  std::uint64_t skipped_ = 0;

  // Query scratch (sized with the window; no allocation per query).
  struct Neighbour {
    double dist;  // p-th power of the distance until the vote needs the root
    std::uint64_t order;
    std::size_t slot;
  };
  mutable std::vector<double> dist_;
  mutable std::vector<Neighbour> neighbours_;
  mutable std::vector<double> votes_;  // classification: one per class
};

}  // namespace irithyll
