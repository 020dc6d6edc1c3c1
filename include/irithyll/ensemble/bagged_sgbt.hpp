// BaggedSGBT: Oza & Russell online bagging ("Online bagging and boosting",
// AISTATS 2001) of streaming gradient-boosted tree committees (name
// "bagged_sgbt"). Each of n_bags SGBTs learns every sample k ~ Poisson(lambda)
// times (lambda = 1 approximates bootstrap resampling as the stream grows);
// predictions average the bags (regression values, or class probabilities).
//
// Config: bagging settings plus every SGBT setting (same names, bounds and
// defaults as `sgbt`). Bag b uses the SGBT seed mixed from the model seed and
// b; one Xorshift64 draws the Poisson counts, so the model is deterministic.
// Input guards: as SGBTLearner (a bad sample is skipped and counted once).
// Threads (the SGBT row `threads`, not stored in checkpoints): the bags are
// split into min(threads, n_bags) groups that learn each sample on their
// own threads, every bag's committee on one thread. The Poisson counts are
// drawn first, in bag order, from the one generator, so the bags learn
// exactly what they learn on one thread: results are bit-identical.
// Cost: about n_bags * lambda x one SGBT per sample to learn, n_bags x to
// predict. Memory: n_bags SGBTs. Thread safety: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/learner.hpp"
#include "irithyll/threaded.hpp"

namespace irithyll {
namespace detail {
class WorkerPool;
}

struct BaggedSGBTConfig {
  std::uint32_t n_bags = 10;  // [1, 100]
  double lambda = 1.0;        // (0, 10]; --bag-lambda: Poisson rate of each bag's repeats
  SGBTConfig sgbt{};          // every bag's settings (its seed is set per bag)

  Status validate() const;
  // Reads the binary layout of the first record version (nothing writes it
  // any more: checkpoints save the settings by name).
  Status decode(ByteReader& in);
};

// Bagging rows, then every SGBT row (the seed comes from the context).
std::span<const ConfigField<BaggedSGBTConfig>> bagged_sgbt_config_fields();

class BaggedSGBT final : public Learner, public Threaded {
 public:
  using Config = BaggedSGBTConfig;
  static constexpr std::string_view kName = "bagged_sgbt";
  static std::span<const ConfigField<Config>> config_fields() { return bagged_sgbt_config_fields(); }

  BaggedSGBT();  // blank regression instance, e.g. to decode() into
  ~BaggedSGBT() override;
  BaggedSGBT(BaggedSGBT&&) noexcept;
  BaggedSGBT& operator=(BaggedSGBT&&) noexcept;
  // REQUIRES: config valid; classification n_classes >= 2 (make() checks).
  BaggedSGBT(const BaggedSGBTConfig& config, const LearnerContext& context);
  // Task, classes and seed from the context (each bag's seed is derived from
  // it; config.sgbt.seed is not read). The width comes from the first sample.
  static Result<std::unique_ptr<BaggedSGBT>> make(const Config& config, const LearnerContext& context);

  std::string_view name() const override { return kName; }
  Task task() const override { return task_; }
  std::size_t n_classes() const override { return task_ == Task::kClassification ? n_classes_ : 0; }
  // The width any bag has fixed (a bag that drew k = 0 for every sample so
  // far has none yet; all others agree).
  std::size_t n_features() const override {
    for (const SGBTLearner& bag : bags_)
      if (bag.n_features() != 0) return bag.n_features();
    return 0;
  }

  void learn_one(std::span<const double> x, double y, double weight = 1.0) override;
  double predict_one(std::span<const double> x) const override;
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override;

  void reset() override;
  std::uint64_t n_samples_seen() const override { return samples_seen_; }
  std::uint64_t n_skipped() const override { return skipped_; }
  std::size_t memory_bytes() const override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  // Threaded: the bags' groups from the next sample on (same results).
  Status set_threads(std::uint32_t threads) override;
  std::uint32_t threads() const override { return config_.sgbt.threads; }

  const BaggedSGBTConfig& config() const { return config_; }
  std::size_t n_bags() const { return bags_.size(); }
  const SGBTLearner& bag(std::size_t i) const { return bags_[i]; }

 private:
  BaggedSGBTConfig config_{};
  Task task_ = Task::kRegression;
  std::size_t n_classes_ = 0;
  std::uint64_t seed_ = 0;
  Xorshift64 rng_{};
  std::vector<SGBTLearner> bags_;
  std::uint64_t samples_seen_ = 0, skipped_ = 0;
  mutable std::vector<double> bag_proba_, mean_proba_;
  std::vector<std::uint32_t> repeats_;           // this sample's Poisson count per bag
  std::unique_ptr<detail::WorkerPool> pool_;     // null on one thread
};

}  // namespace irithyll
