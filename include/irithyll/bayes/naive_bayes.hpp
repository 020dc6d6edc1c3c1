// Naive Bayes classifiers: class-conditional independence of the features,
// learned by counting, so a sample of weight w counts exactly as w copies.
//
//   gaussian_nb     one normal per class and feature (weighted running mean
//                   and variance); the variances get epsilon = var_smoothing
//                   * (the largest per-feature variance of all data seen,
//                   at least 1e-12) added, as scikit-learn's batch fit does.
//   multinomial_nb  features are counts: log P(x|c) = sum_j x_j log((N_cj +
//                   alpha) / (N_c + alpha d)), N_cj the weighted sum of feature
//                   j over class c, N_c = sum_j N_cj. Negative values are not
//                   counts: they are read as 0 (clipped), when learning and
//                   when predicting.
//   bernoulli_nb    feature j is present when x_j > binarize; P(present | c)
//                   = (present_cj + alpha) / (n_cj + 2 alpha), with n_cj the
//                   weight of class c samples in which j was observed.
//
// Every model adds the log prior log(N_c / N). A missing feature (NaN or
// +-inf) is left out of both learning and the likelihood (multinomial: it
// counts 0). predict_one is the first arg-max of the joint log-likelihood
// (class 0 before any sample); predict_proba_one its softmax, uniform when
// no class has been seen. Classification only; the width is the context's or
// the first sample's. Cost O(classes * d) per sample (multinomial: plus one
// log per nonzero feature when learning); nothing allocated per sample once
// the width is known. Thread safety: one owner (mutable scratch).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"

namespace irithyll {

class NaiveBayesBase : public Learner {
 public:
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
  // Joint log-likelihood log P(c) + log P(x | c) per class (-inf for a class
  // never seen). REQUIRES: out.size() == n_classes().
  void joint_log_likelihood(std::span<const double> x, std::span<double> out) const;

 protected:
  Status setup(const LearnerContext& context);
  void allocate(std::size_t width);
  // Per-model state: arrays of `tables` * classes * width doubles.
  virtual std::size_t tables() const = 0;
  virtual void learn_features(std::span<const double> x, std::size_t c, double weight) = 0;
  // Adds log P(x | c) to out[c] for the classes seen.
  virtual void add_likelihood(std::span<const double> x, std::span<double> out) const = 0;
  // Rebuilds caches derived from the tables (after decode).
  virtual void refresh() {}
  std::size_t cell(std::size_t c, std::size_t j) const { return c * width_ + j; }
  void encode_base(ByteWriter& out) const;
  Status decode_base(ByteReader& in);

  LearnerContext context_;
  std::size_t width_ = 0;
  std::vector<double> class_weight_;
  std::vector<double> table_;  // tables() blocks of classes x width
  double total_ = 0.0;         // sum of class weights
  std::uint64_t seen_ = 0;
  std::uint64_t skipped_ = 0;
  mutable std::vector<double> jll_;
};

struct GaussianNbConfig {
  double var_smoothing = 1e-9;
};

class GaussianNbLearner final : public NaiveBayesBase {
 public:
  using Config = GaussianNbConfig;
  static constexpr std::string_view kName = "gaussian_nb";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<GaussianNbLearner>> make(const Config& config, const LearnerContext& context);
  GaussianNbLearner() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

 private:
  // Tables: weight, mean, m2 per (class, feature). The pooled variance of
  // a feature (for epsilon) is combined from the class statistics.
  std::size_t tables() const override { return 3; }
  void learn_features(std::span<const double> x, std::size_t c, double weight) override;
  void add_likelihood(std::span<const double> x, std::span<double> out) const override;
  Config config_;
};

struct MultinomialNbConfig {
  double alpha = 1.0;
};

class MultinomialNbLearner final : public NaiveBayesBase {
 public:
  using Config = MultinomialNbConfig;
  static constexpr std::string_view kName = "multinomial_nb";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<MultinomialNbLearner>> make(const Config& config, const LearnerContext& context);
  MultinomialNbLearner() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  void reset() override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

 private:
  // Tables: N_cj; then the cache log(N_cj + alpha).
  std::size_t tables() const override { return 2; }
  void learn_features(std::span<const double> x, std::size_t c, double weight) override;
  void add_likelihood(std::span<const double> x, std::span<double> out) const override;
  void refresh() override;
  Config config_;
  std::vector<double> class_total_;  // N_c
};

struct BernoulliNbConfig {
  double alpha = 1.0;
  double binarize = 0.0;
};

class BernoulliNbLearner final : public NaiveBayesBase {
 public:
  using Config = BernoulliNbConfig;
  static constexpr std::string_view kName = "bernoulli_nb";
  static std::span<const ConfigField<Config>> config_fields();
  static Result<std::unique_ptr<BernoulliNbLearner>> make(const Config& config, const LearnerContext& context);
  BernoulliNbLearner() = default;
  const Config& config() const { return config_; }
  std::string_view name() const override { return kName; }
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

 private:
  // Tables: present_cj, n_cj.
  std::size_t tables() const override { return 2; }
  void learn_features(std::span<const double> x, std::size_t c, double weight) override;
  void add_likelihood(std::span<const double> x, std::span<double> out) const override;
  Config config_;
};

}  // namespace irithyll
