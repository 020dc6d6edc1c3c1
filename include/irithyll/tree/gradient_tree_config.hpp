// GradientTreeConfig: the knobs of one Hoeffding tree on gradient statistics. Each
// field carries its default, range and trade-off; validate() enforces ranges.
// The SGBT configuration maps onto it (tree seed = sgbt seed ^ step index).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/tree/bin_strategy.hpp"

namespace irithyll {

// Where a checkpoint keeps a gradient tree's settings. Current records write
// them once, by name, in the owning model's settings and derive each tree's
// from those (kDerived); records from before that put every tree's binary
// config in front of its state (kInRecord).
enum class TreeSettings : std::uint8_t { kDerived, kInRecord };

// What a leaf predicts. kConstant: the Newton weight
// -G/(H+lambda). kLinear: that weight plus w.(x - mean_x), w learned online
// (gradient_tree.hpp). kAdaptive: constant until the linear shadow's running
// second-order loss beats it by a Hoeffding margin, then linear. kMlp: that
// weight plus a one-hidden-layer ReLU network of the centred, scaled x.
enum class TreeLeafModel : std::uint8_t { kConstant = 0, kLinear = 1, kAdaptive = 2, kMlp = 3 };
Result<TreeLeafModel> parse_tree_leaf_model(std::string_view name);
std::string_view tree_leaf_model_name(TreeLeafModel m);

// Soft routing's weight at a split (src/tree/soft_routing.hpp): a sigmoid of
// the distance to the threshold, or a straight line within the bandwidth and
// the hard rule outside it (sibling interpolation).
enum class SoftKernel : std::uint8_t { kSigmoid = 0, kLinear = 1 };
Result<SoftKernel> parse_soft_kernel(std::string_view name);
std::string_view soft_kernel_name(SoftKernel k);

struct GradientTreeConfig {
  std::uint32_t max_depth = 6;        // >= 1; leaves at this depth never split (and keep no histograms)
  std::uint32_t n_bins = 64;          // >= 2; more bins = finer thresholds, more memory per leaf
  double lambda = 1.0;                // >= 0; L2 shrinkage of leaf weights -G/(H+lambda)
  double gamma = 0.0;                 // >= 0; minimum gain a split must pay
  std::uint32_t grace_period = 200;   // >= 1; samples between split attempts (and before binning: see warm_start)
  std::uint32_t warm_start = 0;       // 0 = grace_period, else the root samples whose range fixes the bin edges (at most grace_period)
  double delta = 1e-7;                // (0,1); Hoeffding confidence: smaller = more evidence per split
  double feature_subsample = 1.0;     // (0,1]; fraction of features scored per split attempt
  std::uint64_t seed = 42;            // feature-subsample stream
  double leaf_decay_alpha = 0.0;      // 0 = off, else (0,1): EWMA factor on leaf sums and histograms
  double hoeffding_r = 1.0;           // > 0; range R in the Hoeffding bound
  double tie_threshold = 0.05;        // > 0; split anyway once epsilon < tau (tie break)
  double min_child_hessian = 1.0;     // >= 0; each child's hessian sum must reach this
  std::uint32_t min_samples_leaf = 0; // 0 = off; each child must hold at least this many of the leaf's binned samples
  BinStrategy bin_strategy = BinStrategy::kUniform;
  // Leaf controls of the Rust library, all off by default.
  double max_leaf_output = 0.0;       // 0 = off, else > 0: every leaf value is clamped to [-m, m]
  double min_hessian_sum = 0.0;       // 0 = off, else > 0: a leaf outputs 0 until its hessian sum reaches this
  double gradient_clip_sigma = 0.0;   // 0 = off, else k > 0: clamp g to the leaf's mean +- k sd (Welford, after 10)
  // 0 = off, else k > 0: once a leaf's value has been computed 10 times,
  // clamp it to +-max(|mean| + k sd, 0.01) of the earlier (bounded) values
  // (EWMA under leaf decay, Welford otherwise); takes priority over
  // max_leaf_output, which applies to the first 10.
  double adaptive_leaf_bound = 0.0;
  // Per feature: +1 prediction non-decreasing in it, -1 non-increasing, 0
  // free; missing entries are 0. Enforced in split search (a candidate whose
  // child weights break the order is dropped) and on leaf values (each node
  // carries bounds its leaves are clamped into).
  std::vector<std::int8_t> monotone;
  // Model and structure options of the Rust library, off by default.
  TreeLeafModel leaf_model = TreeLeafModel::kConstant;
  double linear_learning_rate = 0.1;     // (0, 1]; NLMS step of linear leaves (fraction of the way to the sample's Newton target)
  // (0, 1]; 1 = off: linear leaves multiply w by this before each update,
  // so old slopes fade (a leaf follows a drifting slope; w stays bounded).
  double linear_decay = 1.0;
  // Linear leaves' step rule: normalised LMS (false) or AdaGrad (Duchi et al.
  // 2011): per weight, eta r u_f / (sqrt(sum of past (r u_f)^2) + 1e-8), r the
  // surrogate's gradient g + h p, so rarely moved weights keep larger steps.
  bool linear_adagrad = false;
  // MLP leaves: hidden units of each leaf's network, [1, 64].
  std::uint32_t mlp_hidden = 8;
  // 0 = off, else every this many samples (rounded up to a multiple of
  // grace_period: the Rust library requires >= grace_period; any value is
  // accepted here and rounded, so a smaller one means every grace period) a leaf at the depth ceiling re-scores its
  // parent's split on the two children's histograms and replaces it when
  // another split beats it by the Hoeffding bound. Leaves at the ceiling then
  // keep histograms.
  std::uint32_t split_reeval_interval = 0;
  // 0 = off, else c > 0: the CIR gate. The depth ceiling becomes
  // 2 max_depth and a split needs gain > c / (n x n_features).
  double adaptive_depth = 0.0;
  // Interpolated leaves: a leaf other than the root outputs
  // a v + (1 - a) v_parent, a = H / (H + lambda), v its Newton weight and
  // v_parent the (interpolated) value its parent had when it split. A young
  // leaf, whose few samples give a noisy v, leans on its parent; one with
  // H >> lambda is its own Newton weight.
  bool interpolate = false;

  std::uint32_t depth_ceiling() const noexcept { return adaptive_depth > 0.0 ? 2 * max_depth : max_depth; }
  static constexpr std::uint32_t kMaxDepth = 30;  // validate()'s bound on max_depth
  bool has_extensions() const noexcept {
    return leaf_model != TreeLeafModel::kConstant || split_reeval_interval > 0 || adaptive_depth > 0.0;
  }
  // Feature indices read as category codes (integers 0..63, one histogram
  // bin each) and split by category sets: see category_split.hpp. Other
  // values of such a feature (NaN, negative, non-integer, >= 64) are
  // missing and go right. Indices past the feature count are ignored.
  std::vector<std::uint32_t> categorical;
  // >= 0 (at most 100); 0 = the plain gain. A category-set split of K
  // categories (K > 2) loses categorical_penalty x (K - 2) / 2 from its gain:
  // with gradients whose variance equals their hessian (logistic and
  // softmax losses), the best of the ordered prefixes of K categories gains
  // about a chi-square with K - 1 degrees of freedom, halved, on noise alone,
  // where a numeric threshold gains about one; the penalty charges the
  // degrees of freedom beyond that one. The SGBT sets it for classification
  // losses only (other losses' gradient variance is in the target's units).
  double categorical_penalty = 0.0;

  bool has_monotone() const noexcept {
    for (std::int8_t m : monotone)
      if (m != 0) return true;
    return false;
  }
  bool has_options() const noexcept {
    return max_leaf_output > 0.0 || min_hessian_sum > 0.0 || gradient_clip_sigma > 0.0 || adaptive_leaf_bound > 0.0 ||
           !monotone.empty() || !categorical.empty() || warm_start != 0 || interpolate;
  }
  bool is_categorical(std::size_t feature) const noexcept {
    for (std::uint32_t c : categorical)
      if (c == feature) return true;
    return false;
  }
  std::int8_t monotone_of(std::size_t feature) const noexcept {
    return feature < monotone.size() ? monotone[feature] : std::int8_t{0};
  }

  Status validate() const;
  // Reads the binary layout that every tree record carried before the trees'
  // settings were derived from their owner's named ones; nothing writes it
  // any more.
  Status decode(ByteReader& in);
};

// The deepest node any tree may hold: max_depth at its bound, doubled by
// the adaptive ceiling.
inline constexpr std::uint32_t kDeepestTreeNode = 2 * GradientTreeConfig::kMaxDepth;

}  // namespace irithyll
