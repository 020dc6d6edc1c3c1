// Catalogue rows of the selection learners (irithyll/selection/): `auto`
// (racing a pool of catalogue models), `conformal` (intervals and sets
// around any catalogue model) and `continual` (drift resets or a continual
// guard around any catalogue model). All three hold other catalogue models, so the
// catalogue hands them its own factory; their blank instances carry it too,
// so a checkpoint decodes its members by name.
#include "irithyll/pipeline_spec.hpp"
#include "irithyll/selection/auto_learner.hpp"
#include "irithyll/selection/conformal.hpp"
#include "irithyll/selection/continual.hpp"
#include "row.hpp"

namespace irithyll::catalogue_detail {

static bool member_available(std::string_view name, Task task) {
  const CatalogueEntry* e = find_model(name);
  return e != nullptr && e->listed && e->supports(task);
}

static Result<std::unique_ptr<Learner>> build_spec(std::string_view spec, const LearnerContext& context) {
  if (is_pipeline_spec(spec)) return make_pipeline(spec, {}, context, {});
  auto steps = parse_pipeline_spec(spec);
  if (!steps) return steps.status();
  return make_learner((*steps)[0].name, (*steps)[0].settings, context);
}

static std::span<const FieldInfo> member_fields(std::string_view name) {
  const CatalogueEntry* e = find_model(name);
  return e == nullptr ? std::span<const FieldInfo>() : e->fields();
}

static MemberFactory factory() {
  return MemberFactory{&member_available, &make_learner, &make_blank_learner, &build_spec, &member_fields};
}

namespace {

template <class T>
Result<std::unique_ptr<Learner>> make_with_factory(const ModelSettings& settings, const LearnerContext& context) {
  typename T::Config config;
  IRITHYLL_RETURN_IF_ERROR(apply_settings<typename T::Config>(T::kName, T::config_fields(), settings, config));
  auto made = T::make(config, context, factory());
  if (!made) return made.status();
  return std::unique_ptr<Learner>(std::move(made).value());
}

template <class T>
std::unique_ptr<Learner> blank_with_factory() {
  return std::make_unique<T>(factory());
}

template <class T>
CatalogueEntry selection_row(std::string_view description, std::string_view module, std::string_view classifier,
                             std::string_view regressor) {
  using Config = typename T::Config;
  CatalogueEntry e{T::kName,
                   description,
                   true,
                   true,
                   true,
                   &infos<Config, &T::config_fields>,
                   &make_with_factory<T>,
                   &blank_with_factory<T>,
                   &settings_of<T, Config, &T::config_fields>};
  e.python_module = module;
  e.python_classifier = classifier;
  e.python_regressor = regressor;
  return e;
}

}  // namespace

CatalogueEntry auto_row() {
  return selection_row<AutoLearner>("AutoML: races a pool of catalogue models (empirical Bernstein), predicts with "
                                    "the leader or a weighted mix",
                                    "model_selection", "AutoClassifier", "AutoRegressor");
}

CatalogueEntry conformal_row() {
  return selection_row<ConformalLearner>("conformal intervals (regression) or prediction sets (classification) "
                                         "around any catalogue model, adaptive to drift (ACI)",
                                         "conformal", "ClassifierSets", "Interval");
}

CatalogueEntry continual_row() {
  return selection_row<ContinualLearner>("continual learning around any catalogue model: replace it on a drift "
                                         "(warning-trained background model), or EWC / masking / unit "
                                         "regeneration where it exposes weights or units",
                                         "drift", "DriftRetrainingClassifier", "DriftRetrainingRegressor");
}

}  // namespace irithyll::catalogue_detail

namespace irithyll {
MemberFactory catalogue_member_factory() { return catalogue_detail::factory(); }
}  // namespace irithyll
