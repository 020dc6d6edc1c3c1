// StreamingRandomPatches: Streaming Random Patches (Gomes, Read & Bifet,
// "Streaming Random Patches for Evolving Data Stream Classification", ICDM
// 2019) behind the learner contract (name "srp").
//
// Unlike ARF, whose trees draw a fresh attribute subset at every leaf, each
// SRP member is a Hoeffding tree (irithyll/tree/vfdt.hpp) over one random
// subset of the features fixed for the member's life: it only ever sees
// those columns (Algorithm 1's "random subspace per learner"). Training:
//   patches     subspace per member and online bagging: each member learns
//               a sample with weight k * w, k ~ Poisson(lambda) (default)
//   subspaces   subspace per member, every sample with weight w
//   resampling  all features, online bagging (Oza bagging with ADWIN)
// The subspace has round(d * subspace-size / 100) features (at least 1;
// MOA's default 60 %, "-m 60"). The first members' subspaces follow MOA's
// rule for d <= 20: every m-subset in lexicographic order, that list
// repeated to n_models entries, one entry per member drawn without
// replacement (so few features do not leave the informative subset to
// chance); with more features, and for every later member, one random
// subset each.
//
// Drift: each member's test-then-train error (0/1; regression: absolute
// error) feeds an ADWIN warning detector (delta 1e-4) and a drift detector
// (delta 1e-5), MOA's defaults; a detector's cut counts only when it raised
// the error estimate (a member that improved is kept). A warning starts a background member on a
// newly drawn subspace that learns alongside; a drift replaces the member by
// it (or by a fresh member if none) and restarts its accuracy.
//
// Vote: classification sums each member's class probabilities weighted by its
// accuracy since it started (`majority`: one vote per member); regression
// averages the members (Gomes et al. 2020's SRP regressor, mean aggregation).
//
// Regression members under Poisson resampling (patches, resampling) count
// observations, not weight, in their Hoeffding bound and grace period
// (HoeffdingTreeConfig::count_observations): a sample drawn k times is one
// observation, and with the weight the FIMT-DD ratio test passed on noise.
// Classification members keep the weight, as MOA and River do, where it
// measured more accurate.
// Defaults: 10 members (MOA's default is 100; 10 matches arf's default and is
// what comparisons in the docs use), member trees with grace period 50,
// split confidence 0.01, tie threshold 0.05 and adaptive naive-Bayes leaves.
//
// Cost per sample: n_models x (projection + tree predict/learn) + 2 ADWIN
// updates each. Memory: the trees plus about 13 KB of detectors per member.
// Deterministic given the seed: member i owns a Xorshift64 seeded
// derive_seed(seed, i) that draws its Poisson weights, its later subspaces
// and its trees' seeds (the first subspaces come from a stream of their own), so the members can learn in parallel (config.threads) with
// results bit-identical to one thread. Thread safety: one thread at a time
// (threads > 1 starts a worker pool the ensemble owns).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/drift/adwin.hpp"
#include "irithyll/ensemble/arf_config.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/threaded.hpp"
#include "irithyll/tree/vfdt.hpp"

namespace irithyll {

enum class SRPTraining : std::uint8_t { kPatches = 0, kSubspaces = 1, kResampling = 2 };
Result<SRPTraining> parse_srp_training(std::string_view name);
std::string_view srp_training_name(SRPTraining t);

struct SRPConfig {
  std::uint32_t n_models = 10;                 // [1, 1000]
  SRPTraining training = SRPTraining::kPatches;
  double subspace_size = 60.0;                 // (0, 100]: percent of the features per member
  double lambda = 6.0;                         // (0, 30]: Poisson rate (patches, resampling)
  double warning_delta = 1e-4;                 // 0 = off, else ADWIN confidence in (0, 1)
  double drift_delta = 1e-5;                   // 0 = off, else ADWIN confidence in (0, 1)
  ARFVote vote = ARFVote::kWeighted;
  HoeffdingTreeConfig tree = ARFConfig::default_tree();
  // Training threads, [1, 256]: members split into min(threads, n_models)
  // contiguous groups, same results as 1. Run-time only: not written to
  // checkpoints (a decoded ensemble trains on one).
  std::uint32_t threads = 1;

  // Features each member sees for d features.
  std::size_t subspace(std::size_t d) const;
};

namespace detail {
class WorkerPool;
}

class StreamingRandomPatches final : public Learner, public Threaded {
 public:
  using Config = SRPConfig;
  static constexpr std::string_view kName = "srp";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<StreamingRandomPatches>> make(const Config& config, const LearnerContext& context);

  StreamingRandomPatches();
  ~StreamingRandomPatches() override;
  StreamingRandomPatches(StreamingRandomPatches&&) noexcept;
  StreamingRandomPatches& operator=(StreamingRandomPatches&&) noexcept;
  const Config& config() const { return config_; }
  // Threaded: the members' groups from the next sample on (same results).
  Status set_threads(std::uint32_t threads) override;
  std::uint32_t threads() const override { return config_.threads; }

  std::string_view name() const override { return kName; }
  Task task() const override { return context_.task; }
  std::size_t n_classes() const override { return context_.task == Task::kClassification ? context_.n_classes : 0; }
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

  // Inspection (tests, diagnostics). REQUIRES: i < n_members().
  std::size_t n_members() const { return members_.size(); }
  // The features member i sees, ascending (all of them under resampling).
  std::span<const std::uint32_t> member_features(std::size_t i) const { return members_[i].features; }
  // Member i's own prediction for a full-width x.
  double member_predict(std::size_t i, std::span<const double> x) const;
  std::uint64_t n_warnings() const { return n_warnings_; }
  std::uint64_t n_drifts() const { return n_drifts_; }
  std::size_t n_background() const;
  // The members' trees as one sum for TreeSHAP (srp_explain.cpp), each
  // tree's features mapped back to the full row; the live members only
  // (background members do not vote). Classification: output c is the
  // vote's class-c probability, members weighted as the vote weights them
  // (majority vote, not additive, is explained as the members' plain
  // average), leaves at their class weight shares (a naive Bayes leaf's
  // x-dependent correction is not a tree function); regression: the
  // members' average. InvalidArgument before the first sample.
  Result<TreeEnsembleView> tree_ensemble() const;

 private:
  struct Learned {
    std::vector<std::uint32_t> features;  // ascending feature indices
    Vfdt tree;
  };
  struct Member : Learned {
    std::optional<Learned> background;
    Adwin warning;
    Adwin drift;
    double correct = 0.0;  // weight predicted right since the member started (classification)
    double seen = 0.0;     // weight seen since the member started
    Xorshift64 rng{};      // this member's weights, subspaces and tree seeds
  };
  // Warnings and drifts of one group of members on one sample, plus the
  // group's projection scratch; a cache line apart per group.
  struct alignas(64) Part {
    std::uint64_t warnings = 0, drifts = 0;
    std::vector<double> projected;
  };

  Status init(const Config& config, const LearnerContext& context);
  // A member over `subspace` (ascending indices), or over a fresh random
  // subspace drawn from rng when it is empty.
  Learned new_learner(Xorshift64& rng, std::span<const std::uint32_t> subspace = {}) const;
  // The initial members' subspaces at width_ (empty: each draws its own).
  std::vector<std::vector<std::uint32_t>> initial_subspaces() const;
  // The settings of a member tree over `features` (ascending indices).
  HoeffdingTreeConfig member_tree_config(std::span<const std::uint32_t> features) const;
  void build_members();
  void start_pool();
  // The projection buffers (the forest's and each part's) at width_.
  void size_buffers();
  void learn_members(std::size_t first, std::size_t last, std::span<const double> x, double y, double weight, Part& part);
  // x restricted to `features` (x itself when they are all of them), in `buf`.
  // x, or its projection onto l's features written to buf (width_ doubles).
  static std::span<const double> project(const Learned& l, std::span<const double> x, double* buf);
  std::span<const double> project(const Learned& l, std::span<const double> x) const { return project(l, x, projected_.data()); }
  bool check_learned(const Learned& l) const;

  Config config_{};
  LearnerContext context_{};
  std::size_t width_ = 0;  // context's n_features, or the first sample's
  std::vector<Member> members_;
  std::unique_ptr<detail::WorkerPool> pool_;  // null when threads = 1
  std::vector<Part> parts_;                   // one per pool part (one without a pool)
  double poisson_limit_ = 0.0;  // e^-lambda
  std::uint64_t seen_ = 0, skipped_ = 0, n_warnings_ = 0, n_drifts_ = 0;
  mutable std::vector<double> projected_, votes_, member_proba_, class_proba_;
  // Walks every member's tree to its projection of x together
  // (Vfdt::route_together); route_x_ holds the projections side by side.
  void route_members(std::span<const double> x) const;
  mutable std::vector<double> route_x_;
  mutable std::vector<const Vfdt*> route_trees_;
  mutable std::vector<std::span<const double>> route_xs_;
};

}  // namespace irithyll
