// AdaptiveRandomForest: the Adaptive Random Forest behind the Learner
// interface (name "arf"; Gomes et al., Machine Learning 2017, Algorithm 1).
//
// Each member is a Hoeffding tree (irithyll/tree/vfdt.hpp) whose leaves each
// observe a random subspace of m = round(sqrt(d)) + 1 attributes. Per sample, every
// member draws k ~ Poisson(lambda) and learns the sample with weight k * w
// (online bagging; k = 0 skips it). Its prediction made just before (test
// then train) feeds two ADWIN detectors with the 0/1 error (regression: the
// absolute error): a warning (delta 0.01) starts a background tree that
// learns alongside the member; a drift (delta 0.001) replaces the member by
// its background tree (a fresh tree if none) and resets the detectors and the
// member's accuracy. The Rust library updated its warning detector and never
// used it; here the warning does what the paper says.
//
// Vote: classification sums each member's normalised class probabilities
// weighted by its accuracy since it started (or one vote per member for its
// arg-max, `majority`); regression averages the members.
//
// Input guards as HoeffdingTreeLearner (skipped and counted). Deterministic:
// member i owns a Xorshift64 seeded derive_seed(seed, i) that draws its
// Poisson weights and the seeds of the trees it builds, so no member's draws
// depend on another's and the members can learn in parallel (config.threads)
// with results bit-identical to one thread.
// Cost per sample: n_trees x (tree predict + learn) + 2 ADWIN updates each.
// Memory: the trees plus about 13 KB of detectors per member. Thread safety:
// one thread at a time (threads > 1 starts a worker pool the forest owns).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/drift/adwin.hpp"
#include "irithyll/ensemble/arf_config.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/threaded.hpp"
#include "irithyll/tree/vfdt.hpp"
#include "irithyll/tree/vfdt_tree_model.hpp"

namespace irithyll {

namespace detail {
class WorkerPool;
}

class AdaptiveRandomForest final : public Learner, public VfdtTreeModel, public Threaded {
 public:
  using Config = ARFConfig;
  static constexpr std::string_view kName = "arf";
  static std::span<const ConfigField<Config>> config_fields() { return arf_config_fields(); }

  // Blank classification instance (default config), e.g. to decode() into.
  AdaptiveRandomForest();
  // REQUIRES: config valid; classification n_classes >= 2 (make() checks).
  AdaptiveRandomForest(const Config& config, const LearnerContext& context);
  ~AdaptiveRandomForest() override;
  AdaptiveRandomForest(AdaptiveRandomForest&&) noexcept;
  AdaptiveRandomForest& operator=(AdaptiveRandomForest&&) noexcept;
  static Result<std::unique_ptr<AdaptiveRandomForest>> make(const Config& config, const LearnerContext& context);

  std::string_view name() const override { return kName; }
  Task task() const override { return task_; }
  std::size_t n_classes() const override { return task_ == Task::kClassification ? n_classes_ : 0; }
  std::size_t n_features() const override { return n_features_; }

  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;

  void reset() override;
  std::uint64_t n_samples_seen() const override { return samples_seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  const Config& config() const { return config_; }
  // Threaded: the members' groups from the next sample on (same results).
  Status set_threads(std::uint32_t threads) override;
  std::uint32_t threads() const override { return config_.threads; }
  // TreeModel: the members' live trees, in member order
  // (background trees are not shown).
  std::size_t n_dump_trees() const override;
  std::string tree_label(std::size_t i) const override;
  Result<TreeEnsembleView> tree_ensemble() const override;
  // Counters since construction or reset.
  std::uint64_t n_warnings() const { return n_warnings_; }
  std::uint64_t n_drifts() const { return n_drifts_; }
  std::size_t n_background() const;
  // Nodes over all member and background trees (a structure fingerprint).
  std::size_t n_nodes() const;

 private:
  const Vfdt& vfdt_tree(std::size_t i) const override;
  std::size_t vfdt_n_features() const override { return n_features_; }
  struct Member {
    Vfdt tree;
    std::optional<Vfdt> background;
    Adwin warning;
    Adwin drift;
    double correct = 0.0;  // weight predicted right since the tree started (classification)
    double seen = 0.0;     // weight seen since the tree started
    Xorshift64 rng{};      // this member's Poisson weights and new trees' seeds
  };
  // Warnings and drifts of one group of members on one sample; a cache line
  // each so the threads counting them do not share one.
  struct alignas(64) Counts {
    std::uint64_t warnings = 0, drifts = 0;
  };

  // Every member tree's settings (from the forest's and the width).
  HoeffdingTreeConfig member_tree_config() const;
  Vfdt new_tree(Xorshift64& rng) const;
  void build_members();
  void start_pool();
  Counts learn_members(std::size_t first, std::size_t last, std::span<const double> x, double y, double weight);
  std::span<const double> fit(std::span<const double> x) const;

  ARFConfig config_{};
  Task task_ = Task::kClassification;
  std::size_t n_classes_ = 2;
  std::size_t n_features_ = 0;
  std::uint64_t seed_ = 0;
  std::vector<Member> members_;
  std::unique_ptr<detail::WorkerPool> pool_;  // null when threads = 1
  std::vector<Counts> part_counts_;           // one per pool part
  double poisson_limit_ = 0.0;  // e^-lambda (derived from config_)
  std::uint64_t samples_seen_ = 0, skipped_ = 0, n_warnings_ = 0, n_drifts_ = 0;
  mutable std::vector<double> padded_, votes_, member_proba_, class_proba_;
  // The buffers a prediction writes, sized for the members (build_members,
  // decode), so that predicting allocates nothing.
  void size_scratch();
  // Walks every member's tree to x's leaf together (Vfdt::route_together).
  void route_members(std::span<const double> x) const;
  mutable std::vector<const Vfdt*> route_trees_;
  mutable std::vector<std::span<const double>> route_xs_;
};

}  // namespace irithyll
