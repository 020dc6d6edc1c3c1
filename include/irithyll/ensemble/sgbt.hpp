// SGBT: one streaming gradient-boosted committee (Gunasekara, Pfahringer,
// Gomes & Bifet 2024). n_steps tree slots are trained sequentially on each
// sample: step s sees the gradient of the loss at the running score
//   F_s(x) = base + lr * sum_{t<s} tree_t(x)     (pre-training predictions)
// and the committee predicts base + lr * sum_s tree_s(x) with hard routing
// (options: soft routing, src/ensemble/sgbt_soft.cpp, and the graduated
// handoff of a replaced tree, tree_slot.hpp; both off by default, and then
// the plain path only tests one flag per sample and per prediction).
//
// Base prediction warm-up (a deliberate change from the Rust library): the first
// initial_target_count samples are buffered while the base is estimated from
// their targets; once it is fixed, the buffered samples are replayed through
// the trees in arrival order. The Rust library instead trains the trees against
// base 0 during warm-up and then switches the base on, so its early trees have
// already absorbed part of the offset and the ensemble jumps by roughly
// (base - 0) when the base appears. Replay gives the trees exactly the
// gradients they would have seen had the base been known, loses no sample,
// and costs initial_target_count x n_features doubles once. During warm-up the
// committee predicts the running base estimate.
//
// Sample weights multiply g and h (the Rust library ignores them): a weight-w
// sample moves leaf sums like w unit samples. Drift detectors see the
// unweighted |g|. The Skip / MI variants draw from the committee's own
// xorshift stream. For softmax committees the caller passes `offset`, the
// log-sum-exp of the other committees' scores, and the loss is evaluated at
// score - offset (the per-class softmax gradient p_c - y_c).
//
// Cost per sample: n_steps x (one routing + one histogram update + one
// detector update); no allocation after warm-up except on structural events
// (a split that needs or frees histogram slabs, an alternate starting, a
// replacement). Memory: n_steps x (active tree + alternate in use) x
// (2^depth nodes + splittable leaves x (bins + 1) x 24 bytes); an idle
// alternate and a full-grown tree's freed histograms cost nothing, so it
// plateaus once trees reach max_depth (e.g. about 12 MB for the defaults on a
// 3-feature stream: 100 trees x ~16 live 4.6 KB histogram slabs each).
// Thread safety: one owner.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_config.hpp"
#include "irithyll/ensemble/sgbt_diagnostics.hpp"
#include "irithyll/loss/loss.hpp"
#include "irithyll/packed/export_model.hpp"
#include "irithyll/tunable.hpp"

namespace irithyll {

class SGBTPipeline;  // src/ensemble/sgbt_pipeline.hpp
// One boosting step (active tree, alternate, drift detector): internal
// (src/ensemble/tree_slot.hpp). SGBT holds its slots by value in a vector, so
// the special members are defined where TreeSlot is complete (sgbt.cpp) and
// the per-sample loop reaches the slots with no extra indirection.
class TreeSlot;

class SGBT {
 public:
  SGBT();
  // REQUIRES: config.validate().is_ok() and loss.validate().is_ok() (make() checks).
  SGBT(const SGBTConfig& config, Loss loss);
  static Result<SGBT> make(const SGBTConfig& config, Loss loss);
  ~SGBT();
  SGBT(SGBT&&) noexcept;
  SGBT& operator=(SGBT&&) noexcept;
  SGBT(const SGBT&) = delete;  // a slot owns its drift detector
  SGBT& operator=(const SGBT&) = delete;

  // REQUIRES: finite y, finite w > 0, x.size() constant across calls; NaN
  // entries of x are missing values (routed left).
  void train_one(std::span<const double> x, double y, double w = 1.0, double offset = 0.0);
  double predict_raw(std::span<const double> x) const noexcept;
  // predict_raw of out.size() rows of d values each, tree by tree (each
  // tree's nodes stay in cache across the rows); bit-identical to
  // predict_raw, whose summation order it keeps.
  void predict_raw_batch(std::span<const double> rows, std::size_t d, std::span<double> out) const noexcept;
  // (predict_raw, confidence): confidence = 1 / sqrt(sum over trees of
  // lr^2 / (H_leaf + lambda)), the leaf weights' variance proxy; 0 when that
  // sum is zero or not finite.
  std::pair<double, double> predict_raw_with_confidence(std::span<const double> x) const noexcept;
  double predict(std::span<const double> x) const noexcept { return loss_.transform(predict_raw(x)); }
  // Step s's output at x as predict_raw sums it (the handoff blend, soft
  // routing), before the learning rate: predict_raw = base + lr * sum_s of
  // it. For the spread of the trees' votes (distributional_sgbt's honest sigma).
  double step_output(std::size_t s, std::span<const double> x) const noexcept;

  ExportModel export_model() const;
  // Split gains summed over active trees, normalised to sum 1 (empty before any split).
  // Per feature: how many internal nodes of the active trees split on it
  // (importance by split count; feature_importances() is by gain).
  std::vector<std::uint64_t> feature_split_counts() const;
  std::vector<double> feature_importances() const;
  // Per-tree and committee statistics (sgbt_diagnostics.hpp); O(nodes).
  SGBTDiagnostics diagnostics() const;
  // Soft routing's current per-feature bandwidths (empty when it is off).
  std::span<const double> soft_bandwidths() const { return bandwidth_; }

  const SGBTConfig& config() const { return config_; }
  // The shrinkage applied to every tree's output from now on (prediction is
  // base + lr * sum of tree outputs, so this rescales the whole committee, as
  // the Rust library's set_learning_rate does). REQUIRES: 0 < lr <= 1.
  // With threads >= 2, samples already queued keep the rate they were pushed
  // with, as they would have trained with it sequentially.
  void set_learning_rate(double lr) noexcept { config_.learning_rate = lr; }
  // Settings changed while the committee learns (sgbt_tuning.cpp); each is
  // written into the config, so checkpoints carry it.
  // Every tree's lambda and max_depth (GradientTree::set_limits: weights take
  // the new lambda at their leaf's next sample; depth governs growth from now
  // on). REQUIRES: lambda >= 0, 1 <= max_depth <= 30.
  void set_tree_limits(double lambda, std::uint32_t max_depth);
  // Grows the committee by fresh steps at the end (each the tree a new
  // committee would have in that position) or drops its last steps.
  // REQUIRES: 1 <= n_steps <= 10000.
  void set_n_steps(std::uint32_t n_steps);
  // The contribution EWMA's half-life (config.prune_half_life; 0 = off).
  // Turning it on where no pruning rule was on starts every step's EWMA at
  // 0; turning the last reason for the EWMAs off drops them.
  // REQUIRES: half_life == 0 or 1 <= half_life <= 1e12.
  void set_prune_half_life(double half_life);
  // The proactive rule once, now: the mature step (one that has seen at
  // least interval/2 samples, or the EWMA's time constant 1/alpha when no
  // interval is set) with the lowest EWMA is replaced if it is strictly
  // below the 25th percentile of the mature steps'. False, changing
  // nothing, when no EWMAs are kept (config.prunes() is false).
  bool check_proactive_prune();
  // The five tuning signals of this committee (tunable.hpp; defined in
  // sgbt_tuning.cpp); O(nodes).
  ConfigDiagnostics config_diagnostics() const;
  // Training threads from the next sample on (config.threads; the pipeline
  // is drained and rebuilt at the first sample that needs it). The trees
  // are the same for every count. REQUIRES: 1 <= threads <= 256.
  void set_threads(std::uint32_t threads);
  const Loss& loss() const { return loss_; }
  std::size_t n_steps() const noexcept;
  // Internal: step s's trees and detector (callers in src/, tests and bench
  // include ensemble/tree_slot.hpp). Public callers use the inspection
  // functions (feature_importances, dump_sgbt_tree in ensemble/sgbt_dump.hpp).
  const TreeSlot& slot(std::size_t s) const;
  // With config.threads >= 2 the last steps of a sample may still be training
  // on the workers when train_one returns: every reader of the trees (all
  // predictions, encode, export, statistics) waits for it first, so each
  // sees every sample learned so far. Callers never need this themselves.
  void sync() const {
    if (pipeline_) drain();
  }
  // True once a multi-thread committee has started its workers.
  bool pipelined() const { return pipeline_ != nullptr; }
  std::size_t n_trees() const;   // active + alternates
  std::size_t n_leaves() const;  // over active trees
  std::size_t n_features() const { return n_features_; }
  std::uint64_t n_samples_seen() const { return samples_seen_; }
  std::uint64_t n_replacements() const;
  bool is_initialized() const { return initialized_; }
  double base_prediction() const { return base_; }

  // The scale the drift detectors' |gradient| is divided by: the running
  // standard deviation of the target when the loss's gradient is a residual
  // in target units (squared, expectile), else 1. See the note below.
  double drift_monitor_scale() const noexcept;

  void reset();
  std::size_t memory_bytes() const;
  // The state alone, without the config and loss (the owner derives them and
  // writes its settings once, by name): decode_state reads it into a
  // committee built with the config and loss that wrote it. `trees` says
  // whether each tree's binary config precedes its state (records written
  // before the trees' settings were derived).
  void encode_state(ByteWriter& out) const;
  Status decode_state(ByteReader& in, TreeSettings trees = TreeSettings::kDerived);
  // Records of SGBT learner state versions 1-4: the binary config, the loss,
  // then the state with every tree's config. `with_target_spread`: the
  // record carries the target statistics (versions >= 2); records without
  // them resume with the monitor on raw |gradient|, as they were written.
  Status decode_with_config(ByteReader& in, bool with_target_spread);

 private:
  // Appends step slots_.size() as a fresh committee builds it.
  void add_slot();
  void boost(std::span<const double> x, double y, double w, double offset);
  template <bool kHandoff>
  void boost_with_options(std::span<const double> x, double y, double w, double offset);
  template <bool kPlainTrees>
  double sum_trees(std::span<const double> x) const noexcept;
  void boost_pipelined(std::span<const double> x, double y, double w, double offset);
  // False when the system refused a thread (then trains sequentially a while).
  bool start_pipeline(std::size_t n_features);
  // min(config.threads, n_steps): the pipeline's stages; stage j trains steps
  // [stage_begin(j), stage_begin(j + 1)).
  std::size_t pipeline_stages() const noexcept;
  std::size_t stage_begin(std::size_t stage) const noexcept;
  void drain() const;
  std::uint32_t train_count(double h) noexcept;

  // config.threads >= 2 on a committee without options: stages 1.. of the
  // steps train on worker threads (started at the first boosted sample).
  // First member: a move assignment stops the old workers before the slots
  // they train go; the destructor stops them explicitly before any member dies.
  std::unique_ptr<SGBTPipeline> pipeline_;
  // threads >= 2: samples still to train on this thread alone because a
  // reader recently had to wait for the workers (see boost); then the
  // pipeline is tried again.
  static constexpr std::uint32_t kSequentialAfterWait = 1024;
  mutable std::uint32_t sequential_run_ = 0;
  SGBTConfig config_;
  Loss loss_;
  std::vector<TreeSlot> slots_;
  Xorshift64 rng_;
  // No per-sample option of the committee (error weighting, adaptive
  // max-tree-samples, pruning) is on; fixed at construction, so boost takes
  // the option-free loop without testing each option per step.
  bool plain_ = true;
  // Trees without category splits or linear leaves: prediction skips their flags.
  bool plain_trees_ = true;
  std::size_t n_features_ = 0;
  std::uint64_t samples_seen_ = 0;
  bool initialized_ = false;
  double base_ = 0.0;
  // Warm-up buffer (row-major x, then y, w, offset per sample).
  std::vector<double> warm_x_, warm_y_, warm_w_, warm_offset_;
  // Drift monitor scaling. The detectors' thresholds (Page-Hinkley lambda 50,
  // ADWIN's Hoeffding bound on [0, 1] values) are absolute, and a squared-loss
  // gradient carries the target's units: on a target with spread ~5 the raw
  // |g| made Page-Hinkley fire every few hundred samples, so trees were
  // replaced before they could grow (r2 0.05 on Friedman #1 with the CLI
  // defaults, 0.71 with drift detection off). The Rust library monitors raw |g|.
  // Dividing by the target's running standard deviation (Welford) makes the
  // detectors see the same signal at every target scale; losses with bounded
  // gradients (logistic, softmax, quantile, Huber) are monitored as they are.
  bool scale_drift_monitor_ = true;
  std::uint64_t target_n_ = 0;
  double target_mean_ = 0.0, target_m2_ = 0.0;
  // Error weighting (config.error_weight_alpha): EWMA of |y - transform(base)|.
  double error_rolling_ = 0.0;
  bool error_seeded_ = false;
  // Adaptive max-tree-samples: slow EWMA of the contributions' sd.
  double mts_roll_ = 0.0;
  // Pruning: per step, EWMA of |lr * p| and the run of idle samples; scratch
  // for the proactive percentile (sized once, so pruning allocates nothing).
  std::vector<double> contrib_ewma_;
  std::vector<std::uint32_t> idle_run_;
  std::vector<double> prune_scratch_;
  void prune(std::span<const double> contributions) noexcept;
  // The proactive rule over steps with >= mature_after samples, skipping the
  // steps quality pruning replaced this sample; true if one was replaced.
  bool prune_weakest(std::uint64_t mature_after) noexcept;
  void track_contributions(bool on);
  std::vector<double> contrib_;  // this sample's |lr * p| per step (pruning only)
  std::vector<std::uint32_t> skip_counts_;  // Skip variant: the workers' draws for one sample
  void adapt_max_tree_samples(double sd) noexcept;
  double error_weight(double y) noexcept;

  // Routing options (sgbt_soft.cpp), flags fixed at construction so that the
  // plain path only tests routed_ once per prediction and handoff_ once per
  // sample. Soft routing: bandwidth_ per feature; with the automatic
  // bandwidth, per feature the running spread (Welford count, mean, M2 of
  // x_f) and gap_bw_ (from the split thresholds, refreshed every grace
  // period), combined into bandwidth_ after every sample.
  bool soft_ = false, soft_auto_ = false, handoff_ = false, routed_ = false;
  std::vector<double> bandwidth_, gap_bw_, x_mean_, x_m2_;
  std::vector<std::uint64_t> x_n_;
  std::vector<std::pair<std::uint32_t, double>> threshold_scratch_;
  std::vector<double> gap_scratch_;
  void track_bandwidths(std::span<const double> x);
  void refresh_gap_bandwidths();
  double predict_raw_routed(std::span<const double> x) const noexcept;
  // One slot's output on the routed path (soft routing, handoff blend).
  double routed_output(const TreeSlot& slot, std::span<const double> x) const noexcept;
  // The state; decode_body reads it into a fresh committee. A learner
  // decoding into committees it has just built calls it directly, which
  // spares decode_state's copy (one construction of every tree).
  friend class SGBTLearner;
  Status decode_body(ByteReader& in, bool with_target_spread, TreeSettings trees);
  void encode_routing(ByteWriter& out) const;
  Status decode_routing(ByteReader& in);
};

}  // namespace irithyll
