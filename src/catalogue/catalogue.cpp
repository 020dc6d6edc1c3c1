// The catalogue table: one row per learner kind, sorted by name. A learner
// written against the contract (row.hpp) is one learner_row<T>(description,
// tasks, Python module and classes) line here; the few rows that build their
// learner another way (presets, pipelines, catalogue factories) are functions
// in src/catalogue/*_row*.cpp, declared in row.hpp.
#include "irithyll/catalogue.hpp"

#include <cmath>
#include <new>
#include <vector>

#include "irithyll/bayes/naive_bayes.hpp"
#include "irithyll/dummy/baselines.hpp"
#include "irithyll/ensemble/adaptive_sgbt.hpp"
#include "irithyll/ensemble/arf.hpp"
#include "irithyll/ensemble/bagged_sgbt.hpp"
#include "irithyll/ensemble/distributional_sgbt.hpp"
#include "irithyll/ensemble/leveraging_bagging.hpp"
#include "irithyll/ensemble/moe_distributional_sgbt.hpp"
#include "irithyll/ensemble/moe_sgbt.hpp"
#include "irithyll/ensemble/multi_target_sgbt.hpp"
#include "irithyll/ensemble/quantile_sgbt.hpp"
#include "irithyll/ensemble/srp.hpp"
#include "irithyll/linear/krls.hpp"
#include "irithyll/linear/margin_linear.hpp"
#include "irithyll/linear/rls_learner.hpp"
#include "irithyll/linear/sgd_linear.hpp"
#include "irithyll/mondrian/amf.hpp"
#include "irithyll/neighbors/knn.hpp"
#include "irithyll/nn/attention/attention_learner.hpp"
#include "irithyll/nn/attention/log_linear_learner.hpp"
#include "irithyll/nn/kan/kan.hpp"
#include "irithyll/nn/reservoir/esn.hpp"
#include "irithyll/nn/reservoir/ngrc.hpp"
#include "irithyll/nn/rnn/lstm_learner.hpp"
#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"
#include "irithyll/nn/snn/spike_net_learner.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "irithyll/nn/ttt/ttt_learner.hpp"
#include "irithyll/tree/adaptive_tree_learner.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"
#include "irithyll/tree/sgt.hpp"
#include "row.hpp"

namespace irithyll {

namespace {

const std::vector<CatalogueEntry>& table() {
  using namespace catalogue_detail;
  static const std::vector<CatalogueEntry> rows = {
      learner_row<AdaptiveSGBT>("SGBT with a learning-rate schedule: constant, linear, exponential, cosine or plateau", Tasks::kBoth),
      learner_row<AlmaLearner>("ALMA approximate maximal-margin classifier (Gentile 2001)", Tasks::kClassification, "linear_model", "ALMAClassifier"),
      learner_row<AdaptiveRandomForest>("Adaptive Random Forest (Gomes et al. 2017): bagged Hoeffding trees with ADWIN background/replacement", Tasks::kBoth),
      learner_row<nn::AttentionLearner>("streaming linear attention (12 modes incl. log-linear) with an RLS readout", Tasks::kBoth),
      auto_row(),
      learner_row<BaggedSGBT>("Oza online bagging of SGBTs: each bag learns a sample Poisson(1) times; bags averaged", Tasks::kBoth),
      learner_row<BernoulliNbLearner>("Bernoulli naive Bayes on binarised features", Tasks::kClassification, "naive_bayes", "BernoulliNB"),
      conformal_row(),
      continual_row(),
      learner_row<DistributionalSGBT>("Gaussian predictive distribution: SGBT location, SGBT log-scale, calibrated intervals", Tasks::kRegression),
      learner_row<ExtremelyFastDecisionTree>("Extremely Fast Decision Tree (Manapragada et al. 2018): splits once a split beats none, revisits splits", Tasks::kClassification, "tree", "ExtremelyFastDecisionTreeClassifier"),
      learner_row<nn::EchoStateNetwork>("cycle-reservoir echo state network with an RLS readout", Tasks::kBoth),
      learner_row<GaussianNbLearner>("Gaussian naive Bayes", Tasks::kClassification, "naive_bayes", "GaussianNB"),
      learner_row<HoeffdingAdaptiveTree>("Hoeffding Adaptive Tree (Bifet & Gavalda 2009): ADWIN per node, alternate subtrees swapped in on drift", Tasks::kBoth, "tree", "HoeffdingAdaptiveTreeClassifier", "HoeffdingAdaptiveTreeRegressor"),
      learner_row<HoeffdingTreeLearner>("Hoeffding tree: VFDT classification (Domingos & Hulten 2000), FIMT-DD style regression", Tasks::kBoth),
      learner_row<nn::KolmogorovArnoldNetwork>("Kolmogorov-Arnold network: a learnable B-spline on every edge, trained by SGD", Tasks::kBoth),
      learner_row<KnnLearner>("k nearest neighbours over a sliding window (standardised Minkowski distance)", Tasks::kBoth, "neighbors", "KNNClassifier", "KNNRegressor"),
      learner_row<KrlsLearner>("kernel RLS with an ALD dictionary and a budget (Engel et al. 2004)", Tasks::kRegression, "linear_model", "", "KRLSRegressor"),
      leveraging_bagging_row(),
      learner_row<LinearRegressionLearner>("linear regression by SGD/Adam/AdaGrad on standardised features", Tasks::kRegression, "linear_model", "", "LinearRegression"),
      learner_row<LogisticRegressionLearner>("logistic regression by SGD/Adam/AdaGrad (one-vs-rest above two classes)", Tasks::kClassification, "linear_model", "LogisticRegression"),
      learner_row<nn::LogLinearLearner>("log-linear attention trained online (SGD on Q/K/V/lambda) with an RLS readout", Tasks::kBoth),
      learner_row<nn::LstmLearner>("LSTM (forget-gate) features with an RLS readout", Tasks::kBoth),
      learner_row<MajorityLearner>("baseline: predicts the most frequent class so far", Tasks::kClassification, "dummy", "PriorClassifier"),
      learner_row<nn::MambaLearner>("selective state-space model (Mamba-1/Mamba-3) with an RLS readout", Tasks::kBoth),
      learner_row<MeanLearner>("baseline: predicts the mean target so far", Tasks::kRegression, "dummy", "", "StatisticRegressor"),
      learner_row<nn::MgradeLearner>("mGRADE (delay convolution + minGRU) with an RLS readout", Tasks::kBoth),
      learner_row<MoEDistributionalSGBT>("mixture of Gaussian SGBT experts with shadow challengers: mixture mean, total variance, intervals", Tasks::kRegression),
      learner_row<MoESGBT>("mixture of SGBT experts behind an online softmax gate (soft or top-k routing)", Tasks::kBoth),
      learner_row<MondrianForestLearner>("aggregated Mondrian forest: online Mondrian trees averaged over their prunings (Mourtada et al. 2021)", Tasks::kBoth, "forest", "AMFClassifier", "AMFRegressor"),
      learner_row<MultiTargetSGBT>("several regression targets at once (--target a,b,c): one SGBT per target, shared settings", Tasks::kRegression),
      learner_row<MultinomialNbLearner>("multinomial naive Bayes on counts (negative values read as 0)", Tasks::kClassification, "naive_bayes", "MultinomialNB"),
      learner_row<nn::NextGenReservoir>("next-generation reservoir (NVAR features) with an RLS readout", Tasks::kBoth),
      learner_row<NoChangeLearner>("baseline: predicts the last label or target seen", Tasks::kBoth, "dummy", "NoChangeClassifier", "NoChangeRegressor"),
      learner_row<PassiveAggressiveLearner>("passive-aggressive PA, PA-I, PA-II (Crammer et al. 2006)", Tasks::kBoth, "linear_model", "PAClassifier", "PARegressor"),
      learner_row<PerceptronLearner>("perceptron (one-vs-rest above two classes)", Tasks::kClassification, "linear_model", "Perceptron"),
      pipeline_row(),
      learner_row<QuantileSGBT>("one SGBT per quantile level, non-crossing (PAVA), online coverage correction", Tasks::kRegression),
      learner_row<RlsLearner>("recursive least squares with forgetting", Tasks::kRegression, "linear_model", "", "RLSRegressor"),
      sgbt_row(),
      learner_row<SGTLearner>("Stochastic Gradient Tree (Gouk et al. 2019): one Hoeffding tree on loss gradients and hessians, split by loss " "reduction", Tasks::kBoth, "tree", "SGTClassifier", "SGTRegressor"),
      learner_row<nn::SlstmLearner>("stabilised sLSTM (xLSTM) features with an RLS readout", Tasks::kBoth),
      learner_row<SoftmaxRegressionLearner>("multinomial logistic (softmax) regression by SGD/Adam/AdaGrad", Tasks::kClassification, "linear_model", "SoftmaxRegression"),
      learner_row<nn::SpikeNetLearner>("integer (Q1.14) spiking network trained by e-prop, RLS or integer readout", Tasks::kBoth),
      learner_row<StreamingRandomPatches>("Streaming Random Patches (Gomes et al. 2019): Hoeffding trees on fixed random feature subsets with online " "bagging and ADWIN background/replacement", Tasks::kBoth, "ensemble", "SRPClassifier", "SRPRegressor"),
      stacked_row(),
      learner_row<nn::TttLearner>("streaming test-time training (fast-weight layer) with an RLS readout", Tasks::kBoth),
  };
  return rows;
}

}  // namespace

std::span<const CatalogueEntry> catalogue() { return table(); }

const CatalogueEntry* find_model(std::string_view name) {
  for (const auto& e : table())
    if (e.name == name) return &e;
  return nullptr;
}

Result<std::unique_ptr<Learner>> make_learner(std::string_view name, const ModelSettings& settings,
                                              const LearnerContext& context) {
  const CatalogueEntry* e = find_model(name);
  if (e == nullptr || !e->listed) {
    std::string names;
    for (const auto& row : table())
      if (row.listed) names += (names.empty() ? "" : ", ") + std::string(row.name);
    return Status::invalid_argument("unknown model '" + std::string(name) + "' (models: " + names + ")");
  }
  if (!e->supports(context.task))
    return Status::invalid_argument(std::string(name) + ": does not support " +
                                    (context.task == Task::kClassification ? "classification" : "regression"));
  if (context.task == Task::kClassification && context.n_classes < 2)
    return Status::invalid_argument(std::string(name) + ": classification needs at least 2 classes, got " +
                                    std::to_string(context.n_classes));
  if (context.n_targets == 0) return Status::invalid_argument(std::string(name) + ": n_targets must be >= 1");
  if (context.n_targets > 1 && context.task != Task::kRegression)
    return Status::invalid_argument(std::string(name) + ": several targets are for regression only");
  // Settings inside their ranges can still ask for more memory than the
  // process may take (64 experts of 10,000 trees each): an allocation that
  // fails while the model is built is an error, not an escaping exception.
  Result<std::unique_ptr<Learner>> made = Status::ok();
  try {
    made = e->make(settings, context);
  } catch (const std::bad_alloc&) {
    return Status::invalid_argument(std::string(name) +
                                    ": these settings need more memory than this process can allocate; lower the "
                                    "sizes among them (trees, members, experts, windows)");
  }
  if (made && (*made)->n_outputs() != context.n_targets)
    return Status::invalid_argument(std::string(name) + ": predicts " + std::to_string((*made)->n_outputs()) +
                                    " target(s), but " + std::to_string(context.n_targets) +
                                    " were given (multi_target_sgbt learns several)");
  return made;
}

std::string catalogue_json() {
  std::string out = "{\"models\":[";
  bool first_model = true;
  for (const auto& e : table()) {
    if (!e.listed) continue;
    if (!first_model) out += ',';
    first_model = false;
    out += "{\"name\":";
    append_json_string(out, e.name);
    out += ",\"description\":";
    append_json_string(out, e.description);
    out += ",\"tasks\":[";
    if (e.regression) out += "\"regression\"";
    if (e.classification) out += e.regression ? ",\"classification\"" : "\"classification\"";
    out += "],";
    append_parameters_json(out, e.fields());
    out += "}";
  }
  out += "]}";
  return out;
}

std::unique_ptr<Learner> make_blank_learner(std::string_view name) {
  const CatalogueEntry* e = find_model(name);
  return e == nullptr ? nullptr : e->make_blank();
}

}  // namespace irithyll
