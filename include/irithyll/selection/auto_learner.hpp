// AutoLearner ("auto"): online model selection by racing a pool of catalogue
// configurations.
//
// Every member learns every sample (prequentially: each first predicts the
// sample, is scored, then learns it). Rewards are in [0, 1]: classification
// scores 1 for a correct arg-max class; regression scores 1 / (1 + e^2 / s),
// a bounded, monotone transform of the squared error e^2 whose scale s is the
// target's recent variance (the same s for every member at a time, so the
// order of two members on a sample is the order of their squared errors).
//
//   prediction  select: the leader's, the member with the best exponentially
//               decayed mean reward (half-life `half-life` samples) among
//               those past `grace` samples (before any is, among the
//               oldest, which have all scored the same samples at the
//               start); stack: the members' predictions
//               (regression) or probabilities (classification) weighted by
//               softmax(sharpness * decayed mean reward) (exponential weights,
//               updated prequentially).
//   racing      every `race-every` samples, each member past `grace` samples
//               is compared with the leader on their paired reward
//               differences over the last `window` samples (race.hpp); a
//               member the leader beats with confidence is dropped, which
//               frees its CPU. With i.i.d. rewards the chance of ever
//               dropping a member at least as good as the leader is at most
//               `delta`.
//   drift       a dropped configuration goes to the back of a waiting queue
//               (behind pool entries that never fit under `max-members`);
//               `revive-after` samples after a slot frees, the queue's front
//               starts afresh with a new seed, so a configuration that lost
//               before a drift gets another chance after it.
//
// The pool is a list of catalogue models with settings, separated by ';':
//   "sgbt;sgbt:learning-rate=0.2,max-depth=8;arf:n-trees=20;knn:window-size=500" (the
// default is kDefaultAutoPool below).
// Entries naming a model the catalogue lacks, or one that does not support
// the task, are skipped without error (so the default list can name models
// that a build may not have); an entry with bad settings is an error.
//
// Deterministic given the seed (member i of the run gets seed + i * golden
// ratio); encode() writes every member by name with its full state, so a
// checkpoint resumes the race bit-identically. Cost per sample: the sum of
// the members' predict + learn, plus O(members * window / race-every) for the
// race. One thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/model_report.hpp"
#include "irithyll/selection/member_factory.hpp"
#include "irithyll/selection/race.hpp"

namespace irithyll {

enum class AutoMode : std::uint8_t { kSelect = 0, kStack = 1 };

// The default pool: the SGBT, ARF and Hoeffding-tree configurations that
// lead on tree-friendly streams, and the linear models, Gaussian naive Bayes
// and kNN that lead where the concept is linear, smooth or local. Entries
// that do not fit the task (logistic_regression for regression, ...) drop out.
inline constexpr const char* kDefaultAutoPool =
    "sgbt;sgbt:learning-rate=0.2,max-depth=8;arf:n-trees=20;arf;hoeffding_tree;logistic_regression;"
    "linear_regression;gaussian_nb;knn";

struct AutoConfig {
  std::string pool = kDefaultAutoPool;
  AutoMode mode = AutoMode::kStack;
  std::uint32_t max_members = 8;
  std::uint32_t window = 2000;
  double half_life = 500.0;
  double delta = 0.05;
  std::uint32_t race_every = 100;
  std::uint32_t grace = 200;
  std::uint32_t revive_after = 5000;
  double sharpness = 50.0;
};

class AutoLearner final : public Learner, public ModelReport {
 public:
  using Config = AutoConfig;
  static constexpr std::string_view kName = "auto";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<AutoLearner>> make(const Config& config, const LearnerContext& context,
                                                   const MemberFactory& factory);

  AutoLearner() = default;  // blank without a factory: decode() refuses
  explicit AutoLearner(const MemberFactory& factory) : factory_(factory) {}
  const Config& config() const { return config_; }

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

  // Which configuration leads, for how long, and what the race did.
  std::string report_text() const override;
  std::string report_json() const override;

  // Introspection (tests, reports).
  std::size_t n_members() const { return members_.size(); }
  std::size_t n_entries() const { return entries_.size(); }
  const std::string& entry_label(std::size_t e) const { return entries_[e].spec.label; }
  // Pool entry of the current leader (n_entries() when there is none).
  std::size_t leader_entry() const;
  std::uint64_t eliminations() const;
  std::uint64_t samples_led(std::size_t e) const { return entries_[e].led; }

 private:
  struct Entry {
    MemberSpec spec;
    std::uint64_t led = 0;          // samples it was the leader
    std::uint64_t eliminated = 0;   // times the race dropped it
    std::uint64_t started = 0;      // instances made
  };
  struct Member {
    std::uint32_t entry = 0;
    std::uint64_t seed = 0;
    std::uint64_t age = 0;  // samples scored
    double ew_sum = 0.0, ew_weight = 0.0;
    RewardWindow rewards;
    std::unique_ptr<Learner> model;
    double ew_mean() const { return ew_weight > 0.0 ? ew_sum / ew_weight : 0.0; }
  };
  struct Change {
    std::uint64_t sample = 0;
    std::uint32_t entry = 0;
  };

  Status build();
  Status build_entries(std::vector<Entry>& entries) const;
  Result<Member> spawn(std::uint32_t entry);
  double reward(std::size_t member, std::span<const double> x, double y) const;
  std::uint64_t oldest_age() const;
  void update_leader();
  void update_weights();
  void race();
  void revive();
  // Samples learned (skipped ones excluded): the race's clock, so a refused
  // sample changes nothing.
  std::uint64_t learned() const { return seen_ - skipped_; }

  MemberFactory factory_;
  Config config_;
  LearnerContext context_;
  std::vector<Entry> entries_;
  std::vector<Member> members_;
  std::vector<std::uint32_t> waiting_;   // pool entries waiting for a slot, front first
  std::vector<Change> history_;          // the last kHistory leader changes
  std::size_t width_ = 0;
  std::size_t leader_ = 0;               // index into members_
  double keep_ = 1.0;                    // per-sample decay of the leader's reward memory
  double y_weight_ = 0.0, y_mean_ = 0.0, y_var_ = 0.0;  // regression: decayed target moments
  std::uint64_t seen_ = 0, skipped_ = 0, checks_ = 0, instances_ = 0, next_revival_ = 0;
  std::vector<double> weights_;          // stack mode: per member
  mutable std::vector<double> proba_, mix_;
  // The members' outputs for the last x a predict call saw, so that
  // learn_one() on that same x (prequential evaluation predicts, then learns)
  // scores each member without predicting it a second time. A member's
  // predict is const and deterministic, so a cached output equals a fresh
  // one bit for bit; any change of state (learn_one, reset, decode) clears it.
  // Not part of the checkpoint.
  const double* cached(std::size_t member, std::span<const double> x) const;
  double* cache_slot(std::size_t member, std::span<const double> x) const;
  mutable std::vector<double> cache_x_, cache_out_;  // cache_out_: per member, n_classes values (or 1)
  mutable std::vector<std::uint8_t> cache_has_;      // per member
  mutable bool cache_valid_ = false;
};

}  // namespace irithyll
