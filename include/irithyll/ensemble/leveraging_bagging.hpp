// LeveragingBagging: Leveraging Bagging (Bifet, Holmes & Pfahringer,
// "Leveraging Bagging for Evolving Data Streams", ECML PKDD 2010) behind the
// learner contract (name "leveraging_bagging"; classification).
//
// Online bagging with more randomisation: each member learns every sample
// with weight k * w, k ~ Poisson(lambda), lambda = 6 (Oza bagging uses 1), so
// members see more diverse, heavier-weighted resamples. Each member has an
// ADWIN detector (delta 0.002) on its 0/1 error; when any detector's cut
// raises its error estimate (a change for the worse), the member whose detector estimates the largest error is reset to
// a fresh tree (and its detector restarted): one reset per sample at most.
// The error is the member's prediction on the sample just after it learned
// it, as MOA's and River's implementations measure it (a test-then-train
// error instead cost 0.0045-0.0154 of accuracy on SEA with abrupt drift,
// 100k rows, three files).
//
// Output codes (`output-codes`, off by default; paper Section 3): with more
// than two classes, each member learns a binary problem given by a random
// code that sends half the classes (a random half, fixed per member) to 0 and
// the rest to 1; a class's vote is the sum, over members, of the probability
// each gives to that class's code bit.
//
// Vote: the sum of the members' class probabilities (unweighted). Members are
// Hoeffding trees with MOA's HoeffdingTree defaults (grace period 200, split
// confidence 1e-7, tie threshold 0.05, adaptive naive-Bayes leaves), as in
// MOA's LeveragingBag, or, with `base-model` set (River's `model=`), any
// catalogue classifier or pipeline written as `--model` takes one, e.g.
// "standard_scaler|logistic_regression(l2=0)": each member is built from it
// with its own seed, learns with the weight k * w, and votes its class
// probabilities. A base model's member error is likewise its prediction
// just after it learns. 10 members (MOA's and River's default).
//
// Cost per sample: n_models x (tree predict + learn) + one ADWIN update each.
// Deterministic given the seed: one Xorshift64 seeded `seed` draws the
// codes; member i owns one seeded derive_seed(seed, i) that draws its weights
// and its models' seeds, so the members can learn in parallel
// (config.threads) with results bit-identical to one thread; the reset after
// a change happens once they are all done. Thread safety: one thread at a
// time (threads > 1 starts a worker pool the ensemble owns).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/drift/adwin.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/threaded.hpp"
#include "irithyll/selection/member_factory.hpp"
#include "irithyll/tree/vfdt.hpp"

namespace irithyll {

struct LeveragingBaggingConfig {
  std::uint32_t n_models = 10;  // [1, 1000]
  double lambda = 6.0;          // (0, 30]: Poisson rate of each member's sample weight
  double adwin_delta = 0.002;   // (0, 1): confidence of each member's ADWIN
  bool output_codes = false;    // random binary output codes per member (more than two classes)
  // Each member's model as `--model` spells one; empty = Hoeffding trees
  // with the settings below.
  std::string base_model;
  // Member trees: the tree's defaults with adaptive naive-Bayes leaves (what
  // the table prints; the same predictions as "adaptive" for classification).
  HoeffdingTreeConfig tree = [] {
    HoeffdingTreeConfig t;
    t.leaf_model = LeafModel::kNaiveBayesAdaptive;
    t.nominal_penalty = 0.0;  // the plain merit and MOA's naive Bayes (no rows for them)
    t.nominal_nb_prior = 0.0;
    return t;
  }();
  // Training threads, [1, 256]: members split into min(threads, n_models)
  // contiguous groups, same results as 1. Run-time only: not written to
  // checkpoints (a decoded ensemble trains on one).
  std::uint32_t threads = 1;
};

namespace detail {
class WorkerPool;
}

class LeveragingBagging final : public Learner, public Threaded {
 public:
  using Config = LeveragingBaggingConfig;
  static constexpr std::string_view kName = "leveraging_bagging";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<LeveragingBagging>> make(const Config& config, const LearnerContext& context);
  // With a factory, base-model may name any catalogue classifier (the
  // catalogue row passes its own); without one, only trees.
  static Result<std::unique_ptr<LeveragingBagging>> make(const Config& config, const LearnerContext& context,
                                                         const MemberFactory& factory);

  LeveragingBagging();
  explicit LeveragingBagging(const MemberFactory& factory);
  ~LeveragingBagging() override;
  LeveragingBagging(LeveragingBagging&&) noexcept;
  LeveragingBagging& operator=(LeveragingBagging&&) noexcept;
  const Config& config() const { return config_; }
  // Threaded: the members' groups from the next sample on (same results).
  Status set_threads(std::uint32_t threads) override;
  std::uint32_t threads() const override { return config_.threads; }

  std::string_view name() const override { return kName; }
  Task task() const override { return Task::kClassification; }
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

  std::size_t n_members() const { return members_.size(); }
  // Member resets since construction or reset().
  std::uint64_t n_resets() const { return n_resets_; }
  // Sum of the Poisson draws k over every member and admitted sample: its
  // mean per member and sample estimates lambda.
  double poisson_total() const { return poisson_total_; }
  std::uint64_t n_learned() const { return seen_ - skipped_; }
  // Whether output codes are in use (option on and more than two classes).
  bool coded() const { return coded_; }
  // Member i's code bit for class c (coded() only).
  std::uint8_t code(std::size_t i, std::size_t c) const { return codes_[i * context_.n_classes + c]; }
  // The members' trees as one sum for TreeSHAP
  // (leveraging_bagging_explain.cpp): output c is the vote's class-c
  // probability, the members' plain average, leaves at their class weight
  // shares (a naive Bayes leaf's x-dependent correction is not a tree
  // function). NotSupported with output codes (the vote is normalised by an
  // x-dependent total, not a sum of trees); InvalidArgument before the
  // first sample. NotSupported with a base model other than trees.
  Result<TreeEnsembleView> tree_ensemble() const;
  // Member i's base model (nullptr: a tree member).
  const Learner* base_model(std::size_t i) const { return members_[i].model.get(); }

 private:
  struct Member {
    Vfdt tree;                       // unused with a base model
    std::unique_ptr<Learner> model;  // the base model; nullptr: the tree
    Adwin detector;
    Xorshift64 rng{};  // this member's weights and its models' seeds
  };
  // One group of members on one sample: the sum of their Poisson draws and
  // whether any detector saw a change; a cache line apart per group.
  struct alignas(64) Part {
    std::uint64_t k_total = 0;
    bool change = false;
  };
  Status init(const Config& config, const LearnerContext& context);
  // A fresh member on the member's next seed; false if the base model cannot be built.
  bool new_member(Member& m);
  bool build_members();
  void start_pool();
  Part learn_members(std::size_t first, std::size_t last, std::span<const double> x, double y, double weight);
  LearnerContext member_context(std::uint64_t seed) const;

  MemberFactory factory_{};
  std::string base_kind_;  // the catalogue name base-model builds ("pipeline", ...); empty: trees
  Config config_{};
  LearnerContext context_{};
  std::size_t width_ = 0;
  bool coded_ = false;
  std::vector<Member> members_;
  std::unique_ptr<detail::WorkerPool> pool_;  // null when threads = 1
  std::vector<Part> parts_;                   // one per pool part
  std::vector<std::uint8_t> codes_;  // n_models x n_classes code bits (coded_ only)
  double poisson_limit_ = 0.0;
  double poisson_total_ = 0.0;
  std::uint64_t seen_ = 0, skipped_ = 0, n_resets_ = 0;
  std::vector<std::uint32_t> perm_;
  mutable std::vector<double> votes_, member_proba_, class_proba_;
  // The tree members' walks to x's leaf, made together (Vfdt::route_together).
  mutable std::vector<const Vfdt*> route_trees_;
  mutable std::vector<std::span<const double>> route_xs_;
};

}  // namespace irithyll
