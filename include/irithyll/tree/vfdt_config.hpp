// HoeffdingTreeConfig: every setting of the incremental decision tree behind
// `hoeffding_tree` and the members of `arf` (Domingos & Hulten, "Mining
// high-speed data streams", KDD 2000: VFDT; Ikonomovska, Gama & Dzeroski,
// "Learning model trees from evolving data streams", DMKD 2011: FIMT-DD for
// regression). Defaults are MOA's HoeffdingTree defaults (grace 200, split
// confidence 1e-7, tie threshold 0.05, information gain, Gaussian numeric
// estimators with 10 split points, adaptive naive-Bayes leaves).
//
// One source of truth: hoeffding_tree_config_fields() names every field with
// its default, range and help; validate() checks the rows, then the rules
// that tie fields together; checkpoints save it through the same table.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

// Merit of a classification split; regression always uses variance reduction.
enum class SplitCriterion : std::uint8_t { kInfoGain = 0, kGini = 1 };
// What a leaf predicts. Classification: majority class, naive Bayes over the
// leaf's attribute estimators, or adaptive (whichever of the two has been
// right more often at this leaf). Regression: the leaf mean, or a linear
// model on the normalised features (FIMT-DD's perceptron leaves).
// kAdaptive, the default, is the per-leaf choice for either task: for
// classification it is kNaiveBayesAdaptive; for regression each leaf keeps
// both the mean and the linear model, tracks the faded squared error of each
// on the samples that reach it (measured before learning them, decay 0.95
// per unit of weight), and predicts with the one whose error is lower
// (ties go to the linear model, which starts at the mean).
enum class LeafModel : std::uint8_t {
  kMajority = 0, kNaiveBayes = 1, kNaiveBayesAdaptive = 2, kMean = 3, kLinear = 4, kAdaptive = 5
};
// How a leaf summarises a numeric attribute: one Gaussian per class (MOA's
// default; classification only) or a range-doubling histogram (both tasks).
enum class NumericEstimator : std::uint8_t { kGaussian = 0, kHistogram = 1 };

struct HoeffdingTreeConfig {
  std::uint32_t grace_period = 200;     // >= 1; leaf weight between split attempts
  double delta = 1e-7;                  // (0, 1); split confidence of the Hoeffding bound
  double tie_threshold = 0.05;          // [0, 1]; split anyway once epsilon < tau
  SplitCriterion criterion = SplitCriterion::kInfoGain;
  LeafModel leaf_model = LeafModel::kAdaptive;  // regression: mean|linear|adaptive (mc|nb|nba read as mean)
  NumericEstimator numeric = NumericEstimator::kGaussian; // regression always uses histograms
  std::uint32_t n_split_points = 10;    // [1, 1000]; Gaussian: candidate thresholds per attribute
  std::uint32_t n_bins = 32;            // [2, 1024], even; histogram bins per attribute
  std::uint32_t max_depth = 0;          // 0 = unlimited, else [1, 60]
  double min_branch_fraction = 0.01;    // [0, 0.5); a split keeps this much weight on two branches
  double learning_rate = 0.05;          // (0, 1]; linear leaves: SGD step on normalised features
  double nb_threshold = 0.0;            // [0, 1e9]; leaf-model nb: leaf weight before naive Bayes answers
  // Feature indices read as nominal attributes (codes 0..63, as MOA's
  // NominalAttributeClassObserver): per-value statistics, and multiway
  // (one branch per value) or one-value-vs-rest splits. Other values of such
  // a feature are missing. Indices past the feature count are ignored.
  std::vector<std::uint32_t> categorical;
  // [0, 100]; classification with nominal attributes: each nominal split's
  // merit loses this many times what it is expected to gain on noise alone.
  // An attribute unrelated to the class still shows a positive gain on a
  // finite sample: 2 n ln2 times the information gain of a split with B
  // non-empty branches is chi-square with (B - 1)(K - 1) degrees of freedom
  // (the G-test), so its mean is (B - 1)(K - 1) / (2 n ln 2) bits; for the
  // Gini gain it is (B - 1) G / n, G the class weights' impurity. Numeric
  // attributes under the Gaussian estimator show almost none (two class
  // Gaussians fitted to noise nearly coincide), so without a correction a
  // nominal attribute wins splits on its noise: at the root a 20-valued
  // attribute cut the data 20 ways, and where every real split's gain was
  // small (the bound falls under tie-threshold) a one-value-vs-rest split on
  // noise won. On Agrawal (functions 1-10, 10 seeds, 100k samples each) the
  // three nominal attributes as text scored 0.912 mean prequential accuracy
  // with the plain merit, 0.949 with 4 (3: 0.949, 6: 0.950), against 0.950
  // for the same values read as numeric codes; 2 and 4 tie there (0.9515 at
  // 5 seeds, 0.8910 at 20k samples) and 2 leads on short streams (4k
  // samples, 10 seeds: 0.8318 against 0.8307), where a split the target
  // needs waits longer the larger the penalty (River's Agrawal function 2
  // with its education level as text, 4k samples: 0.820 plain, 0.795 at 2,
  // 0.736 at 4), hence 2. 0 is the plain merit (MOA's
  // and River's). Regression's variance reduction is not corrected. The trees
  // of arf, srp, leveraging_bagging and efdt keep 0 (their tables have no row
  // for it); hoeffding_adaptive_tree has the row and this default.
  double nominal_penalty = 2.0;
  // [0, 1000]; naive Bayes leaves (nb, nba, adaptive), nominal attributes:
  // each class's value frequencies are Cestnik's m-estimate (n(v, c) + m p(v))
  // / (n(c) + m), with p(v) the value's frequency over all classes at the
  // leaf and m this times the number of values seen. 0: MOA's add-one
  // estimate (n(v, c) + 1) / (n(c) + values seen with c). With add-one, an
  // attribute unrelated to the class still moves the vote by its sampling
  // noise, which grows with its value count (a Gaussian over the same codes
  // has two moments per class), so text columns cost naive Bayes leaves
  // about 0.005-0.01 accuracy against codes on Agrawal functions 2, 5 and 6;
  // shrinking towards the pooled frequencies removes most of that: with
  // nominal-penalty 4, Agrawal's text columns scored 0.9494 mean accuracy
  // with add-one and 0.9511 with 10 (codes 0.9503; functions 1-10, 10 seeds,
  // 100k samples; at 50k and 5 seeds: 1 0.9266, 3 0.9277, 10 0.9287, 30
  // 0.9290 against codes 0.9276, 30 costing function 9, whose education
  // level matters, 0.004). The trees of arf, srp, leveraging_bagging and efdt
  // keep 0; hoeffding_adaptive_tree has the row and this default.
  double nominal_nb_prior = 10.0;
  // Not a user setting (no field row): an ensemble that feeds its member
  // trees Poisson(lambda) replication weights turns it on. The Hoeffding
  // bound's n and the grace period then count observations (learn_one calls
  // reaching the leaf), while every statistic stays weighted. A sample
  // replicated k times is one observation, not k independent ones: counting
  // the weight (as MOA's and River's trees do) makes the bound sqrt(lambda)
  // times too tight (2.45x at lambda 6) and the leaves split on noise.
  bool count_observations = false;
  // Not a user setting either: nominal attributes split one value against
  // the rest only, never multiway. ARF turns it on for its members. A
  // multiway split's information gain grows with its branch count on noise
  // alone (about (B - 1)(K - 1) / (2 n ln 2) bits for B branches, K classes,
  // n samples), and a member leaf that observes a random subspace often
  // lacks the informative attribute, so a 20-valued attribute won there on
  // that bias and cut the leaf's data 20 ways; under Poisson(6) weights the
  // bound, computed on the weight, let it happen after ~8 distinct samples.
  // On Agrawal (function 0, text columns) members with multiway splits
  // reached 0.909 accuracy in 21.7 MB, one-vs-rest only 0.998 (0.998 with
  // the same attributes as numeric codes). It also sizes each leaf observer
  // by its attribute's kind (Vfdt layout): 3.2 MB became 1.6 MB there.
  bool binary_nominal = false;

  Status validate() const;
  // Reads the binary layout that tree records carried before the trees'
  // settings were derived from their owner's named ones; nothing writes it
  // any more.
  Status decode(ByteReader& in);
};

std::span<const ConfigField<HoeffdingTreeConfig>> hoeffding_tree_config_fields();
// The categorical-features row's parser ("0,3"), shared with arf's table.
Status set_categorical_features(HoeffdingTreeConfig& c, std::string_view list);

Result<SplitCriterion> parse_split_criterion(std::string_view name);
std::string_view split_criterion_name(SplitCriterion c);
Result<LeafModel> parse_leaf_model(std::string_view name);
std::string_view leaf_model_name(LeafModel m);
Result<NumericEstimator> parse_numeric_estimator(std::string_view name);
std::string_view numeric_estimator_name(NumericEstimator e);

}  // namespace irithyll
