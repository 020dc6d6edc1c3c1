// Half-Space Trees (Tan, Ting & Liu 2011, "Fast anomaly detection for
// streaming data", IJCAI), with River's parameters and scoring
// (anomaly.HalfSpaceTrees: n_trees 10, height 8, window_size 250).
//
// Each tree is a complete binary tree of `height` levels below the root
// (2^(height+1) - 1 nodes). An internal node splits one random feature at a
// random point of the middle 70% of its work range (the range narrowed by
// the splits above it), so no split sits at the edge of the data. Every
// node counts the samples of the current window that pass through it
// (latest mass); every `window-size` samples the latest mass becomes the
// reference mass and counting restarts.
//
// Score (River's form of the paper's eq. 3): walk x down each tree; add
// r(node) * 2^depth for each node on the path, stopping after the first node
// whose reference mass is below size-limit * window-size. Normalised by the
// largest possible sum, n_trees * W * (2^(height+1) - 1), and returned as
//   score = 1 - sum / max   in [0, 1], higher = more anomalous.
// Dense regions have heavy deep nodes and score low; a point in an empty
// region stops early with little mass and scores near 1.
//
// Feature ranges ("limits"):
//   first-window (default)  the trees are built when the first window has
//            been seen, on each feature's [min, max] over it (a constant or
//            all-missing feature gets [v - 0.5, v + 0.5]); the buffered first
//            window is then counted, so it is the first reference at once.
//            Features need no scaling; later values outside the range fall
//            into the edge cells (which a far outlier leaves nearly empty).
//   unit     every feature in [0, 1] (River's assumption); the trees are
//            built at the first sample.
// Until the first reference exists every score is 0 (no evidence yet).
//
// Missing values: a NaN/inf feature at a node that splits on it goes to the
// child with the larger reference mass (left on a tie), for learning and
// scoring alike, so a sample with a missing feature is treated like the
// bulk of the data on that feature.
//
// Cost: n_trees * (height + 1) node visits per score or learn (nodes of a
// tree are one contiguous array in breadth-first order, 16 bytes each);
// a window rotation touches every node once (O(nodes) per W samples).
// Nothing is allocated per sample once the trees exist; the first window
// (first-window limits) is buffered, at most 2^27 values (window * width).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/anomaly/detector.hpp"
#include "irithyll/core/config_fields.hpp"

namespace irithyll {

enum class HstLimits : std::uint8_t { kFirstWindow = 0, kUnit = 1 };
Result<HstLimits> parse_hst_limits(std::string_view text);
std::string_view hst_limits_name(HstLimits limits);

struct HalfSpaceTreesConfig {
  std::uint32_t n_trees = 10;
  std::uint32_t height = 8;
  std::uint32_t window_size = 250;
  double size_limit = 0.1;  // fraction of the window below which the walk stops
  HstLimits limits = HstLimits::kFirstWindow;
};

class HalfSpaceTrees final : public AnomalyDetector {
 public:
  using Config = HalfSpaceTreesConfig;
  static constexpr std::string_view kName = "half_space_trees";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<HalfSpaceTrees>> make(const Config& config, const AnomalyContext& context);

  HalfSpaceTrees() = default;
  const Config& config() const { return config_; }

  std::string_view name() const override { return kName; }
  std::size_t n_features() const override { return width_; }
  void learn_one(std::span<const double> x) override;
  double score_one(std::span<const double> x) const override;
  void reset() override;
  std::uint64_t n_samples_seen() const override { return seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  // True once a reference window exists (scores are informative).
  bool has_reference() const { return has_reference_; }

 private:
  struct Node {
    double split;
    std::uint32_t feature;
    std::uint32_t r_mass;  // reference window's count
  };
  std::size_t nodes_per_tree() const { return (std::size_t{2} << config_.height) - 1; }
  void build(std::span<const double> lo, std::span<const double> hi);
  void count(std::span<const double> x);  // adds x to the latest mass
  void rotate();

  Config config_;
  AnomalyContext context_;
  std::size_t width_ = 0;
  std::vector<Node> nodes_;               // n_trees * nodes_per_tree, tree-major, breadth-first
  std::vector<std::uint32_t> l_mass_;     // latest window's count, same indexing
  std::vector<double> first_;             // the first window, row-major, until the trees exist
  std::uint64_t in_window_ = 0;           // samples counted into the latest window
  bool has_reference_ = false;
  std::uint64_t seen_ = 0;
  std::uint64_t skipped_ = 0;
};

}  // namespace irithyll
