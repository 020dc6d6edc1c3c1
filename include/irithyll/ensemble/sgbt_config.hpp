// SGBTConfig: every setting of a streaming gradient-boosted tree committee
// (Gunasekara, Pfahringer, Gomes & Bifet, "Gradient boosted trees for evolving
// data streams", Machine Learning 2024).
//
// The defaults are measured, not inherited (BENCHMARKS.md, "SGBT defaults"):
// 50 steps at learning rate 0.1, lambda 0.3, grace 50, 32 bins, ADWIN per
// tree, and the `auto` variant (SGBT-MI on classification losses, whose
// hessian p(1-p) <= 1/4 makes mi_multiplier 8 train an uncertain sample twice
// and a confident one once; standard on regression losses). The Rust library's
// settings are the preset "original" (sgbt_presets()).
//
// One source of truth: the field table sgbt_config_fields() names each field
// for the CLI (--n-steps ...), Python and `irithyll models`, with its default,
// range and help; validate() checks every row against it, then the rules that
// tie fields together; checkpoints save it through the same table.
// Adding a setting = one member here + one row in the table.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/status.hpp"
#include "irithyll/drift/drift_detector.hpp"
#include "irithyll/tree/bin_strategy.hpp"
#include "irithyll/loss/loss.hpp"
#include "irithyll/tree/gradient_tree_config.hpp"

namespace irithyll {

// Standard: every step trains once per sample. Skip (SGBT-SK): each step
// skips a sample with probability 1/skip_k. Multiple iterations (SGBT-MI):
// a step trains max(1, ceil(|h| * mi_multiplier)) times on the sample.
// Auto: MI under the logistic/softmax loss, standard under regression losses
// (their hessian is not bounded by 1/4, so MI would multiply the cost).
enum class SGBTVariant : std::uint8_t { kStandard = 0, kSkip = 1, kMultipleIterations = 2, kAuto = 3 };

struct SGBTConfig {
  std::uint32_t n_steps = 50;                // > 0; boosting steps (one tree slot each)
  double learning_rate = 0.1;                // (0, 1]; shrinkage of every tree's output
  DriftConfig drift{DriftKind::kAdwin, kAdwinDefaultDelta};  // per tree slot, fed |gradient|
  SGBTVariant variant = SGBTVariant::kAuto;
  std::uint32_t skip_k = 10;                 // >= 1; Skip variant: skip with probability 1/k
  double mi_multiplier = 8.0;                // > 0; MI (and auto on classification) repetition factor
  std::uint64_t seed = 0xDEADBEEFCAFE4242ull;  // tree s uses seed ^ s; the variant stream uses seed
  std::uint32_t initial_target_count = 50;   // > 0; targets averaged into the base prediction
  double leaf_half_life = 0.0;               // 0 = off, else >= 1 samples: alpha = exp(-ln 2 / half_life)
  std::uint64_t max_tree_samples = 0;        // 0 = off, else >= 100: replace a tree after this many samples
  LossKind loss = LossKind::kSquared;        // regression loss (classification picks logistic/softmax)
  double loss_param = 0.0;                   // huber delta / quantile or expectile tau; 0 = the loss's default
  // Bound on |leaf value| in the committees of a model with 3 or more
  // classes (0 = off; where max-leaf-output is also set, the smaller wins).
  // A softmax committee's hessian p (1 - p) vanishes where it is confidently
  // wrong, so its Newton step -G/(H + lambda) grows with every such sample
  // (by up to 1/lambda each) and never shrinks back unless the region's
  // labels reverse as often; under drift the committees then race each other
  // to leaves of 1e5 (Random RBF with 4 moving classes: log loss 3.5-19,
  // accuracy 0.40-0.78 over seeds, against 0.87-0.88 with the bound).
  // Checkpoints written before the setting existed read 0.
  double softmax_leaf_bound = 10.0;
  // The trees' settings (gradient_tree_config.hpp), with the committee's
  // defaults: 32 bins, lambda 0.3, grace 50, 75% of the features per split
  // attempt, depth 6, confidence 1e-7, and for classification losses a
  // category-set penalty of 1 (regression trees get 0; checkpoints written
  // before the penalty existed read it as 0). Step s's tree is this one with
  // seed ^ s as its seed and the leaf decay of leaf_half_life, so
  // tree.seed and tree.leaf_decay_alpha are not read; tie_threshold,
  // min_child_hessian and warm_start keep the tree's defaults (no rows).
  static constexpr double kDefaultCategoricalPenalty = 1.0;
  static GradientTreeConfig default_tree() {
    GradientTreeConfig t;
    t.max_depth = 6;
    t.n_bins = 32;
    t.lambda = 0.3;
    t.gamma = 0.0;
    t.grace_period = 50;
    t.delta = 1e-7;
    t.feature_subsample = 0.75;
    t.categorical_penalty = kDefaultCategoricalPenalty;
    return t;
  }
  GradientTreeConfig tree = default_tree();
  // 0 = off, else alpha in (0, 1): each sample's g and h are multiplied by
  // min(10, 1 + e / rolling), e = |y - transform(base)|, rolling its EWMA.
  double error_weight_alpha = 0.0;
  // Adaptive max-tree-samples (needs max_tree_samples = base): 0 = off, else
  // k > 0: the age limit becomes max(base / (1 + k s / roll), max(base *
  // floor, 2 grace)), s = sd of the trees' contributions lr * p to the last
  // prediction, roll its slow EWMA (0.999): trees age out faster while they
  // disagree more than usual.
  double adaptive_mts_k = 0.0;
  double adaptive_mts_floor = 0.0;           // [0, 1]
  // Pruning by contribution: each step keeps an EWMA (alpha) of |lr * p|.
  // Quality: a step whose EWMA stays below the threshold for `patience`
  // samples in a row is replaced. Proactive: every `interval` samples the
  // mature step (>= interval/2 samples) with the lowest EWMA is replaced if
  // it is strictly below the 25th percentile (alpha 0.01 when only this is on).
  // prune_half_life, when set, gives the EWMA's rate as a half-life in
  // samples (alpha = 1 - 2^(-1/hl)) in place of either alpha, and keeps the
  // EWMAs even with both rules off, so that a tuner can call the proactive
  // rule when it chooses (SGBT::check_proactive_prune).
  double quality_prune_alpha = 0.0;          // 0 = off, else (0, 1)
  double quality_prune_threshold = 1e-6;     // > 0
  std::uint32_t quality_prune_patience = 500;  // >= 1
  std::uint64_t proactive_prune_interval = 0;  // 0 = off, else >= 100
  double prune_half_life = 0.0;                // 0 = off, else >= 1
  bool prunes() const { return quality_prune_alpha > 0.0 || proactive_prune_interval > 0 || prune_half_life > 0.0; }
  // The contribution EWMA's rate (see above).
  double prune_alpha() const {
    if (prune_half_life > 0.0) return 1.0 - std::exp2(-1.0 / prune_half_life);
    return quality_prune_alpha > 0.0 ? quality_prune_alpha : 0.01;
  }
  // Soft routing (prediction only; training routes hard): each split sends x
  // left with weight sigmoid((threshold - x) / bandwidth), so the committee's
  // output is smooth in x. soft_bandwidth 0 = per feature, automatic
  // (src/ensemble/sgbt_soft.cpp); > 0 = that bandwidth for every feature.
  // soft_kernel linear: within bandwidth b of a threshold t the weight to the
  // right is (x - t + b) / 2b, outside it the hard rule (the two siblings'
  // outputs interpolated across the split, exact away from it).
  bool soft_routing = false;
  double soft_bandwidth = 0.0;
  SoftKernel soft_kernel = SoftKernel::kSigmoid;
  // Graduated handoff: when a replacement promotes the alternate, the retired
  // tree keeps a share of the slot's output that falls linearly to 0 over
  // this many samples (0 = the abrupt swap).
  std::uint32_t handoff_window = 0;
  bool has_routing_options() const {
    return soft_routing || soft_bandwidth > 0.0 || soft_kernel != SoftKernel::kSigmoid || handoff_window > 0;
  }
  // True when training does per-sample work beyond the trees (error
  // weighting, adaptive max-tree-samples, the pruning averages, handoff):
  // the committee then trains on its options path, on one thread.
  bool per_sample_options() const {
    return error_weight_alpha > 0.0 || adaptive_mts_k > 0.0 || prunes() || handoff_window > 0;
  }
  // Training threads, [1, 256]. With N >= 2 the boosting steps of a
  // committee without the options above are pipelined over min(N, n_steps)
  // threads: stage j trains steps [j n/N, (j+1) n/N) of sample t while the
  // earlier stages already take later samples; results, predictions and
  // checkpoints are identical to 1 (src/ensemble/sgbt_pipeline.hpp). Each
  // committee (one per class with softmax) starts N-1 worker threads; more
  // threads than free cores only adds hand-over waits.
  // A run-time setting: checkpoints do not store it.
  std::uint32_t threads = 1;

  // True when any option of the options block (leaf controls, error
  // weighting) is on: the encoding then carries the block.
  bool has_options() const {
    return error_weight_alpha > 0.0 || adaptive_mts_k > 0.0 || adaptive_mts_floor > 0.0 || prunes() ||
           has_routing_options() || tree.has_options() || tree.has_extensions() ||
           tree.categorical_penalty != kDefaultCategoricalPenalty;
  }
  Status validate() const;
  // The tree configuration of boosting step `step`.
  GradientTreeConfig tree_config(std::uint32_t step) const;
  Loss make_loss() const;
  // Reads the binary layout that checkpoints before settings-by-name wrote
  // (SGBT learner record versions 1-4); nothing writes it any more.
  Status decode(ByteReader& in);
};

// The field table (core/config_fields.hpp): one row per user-visible
// setting. The seed is not a row: it comes from the learner context.
std::span<const ConfigField<SGBTConfig>> sgbt_config_fields();
// Looks the field up by name, checks the value against its row and sets it.
Status set_sgbt_config_field(SGBTConfig& config, std::string_view name, std::string_view value);
Result<SGBTVariant> parse_sgbt_variant(std::string_view name);

// A preset is a named set of field values (the names of the field table),
// applied on top of the defaults before any explicit setting. "original"
// restores the settings of the library SGBT was ported from, for users who
// need its behaviour; "default" is the measured defaults, spelled out.
struct SGBTPreset {
  std::string_view name;
  std::string_view help;
  std::span<const std::pair<std::string_view, std::string_view>> values;
};
std::span<const SGBTPreset> sgbt_presets();
// Sets every field the preset names; unknown preset names are an error that
// lists the known ones.
Status apply_sgbt_preset(SGBTConfig& config, std::string_view name);
std::string_view sgbt_variant_name(SGBTVariant v);

}  // namespace irithyll
