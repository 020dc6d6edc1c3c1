// Catalogue row "leveraging_bagging": Leveraging Bagging
// (irithyll/ensemble/leveraging_bagging.hpp), whose members may be any
// catalogue classifier.
#include "irithyll/ensemble/leveraging_bagging.hpp"
#include "row.hpp"

namespace irithyll::catalogue_detail {

namespace {

// Leveraging bagging's members may be any catalogue classifier (base-model),
// so it is made, and its blank instances decode, with the catalogue's own
// factory.
Result<std::unique_ptr<Learner>> make_leveraging_bagging(const ModelSettings& settings, const LearnerContext& context) {
  LeveragingBagging::Config config;
  IRITHYLL_RETURN_IF_ERROR(apply_settings<LeveragingBagging::Config>(LeveragingBagging::kName,
                                                                     LeveragingBagging::config_fields(), settings, config));
  auto made = LeveragingBagging::make(config, context, catalogue_member_factory());
  if (!made) return made.status();
  return std::unique_ptr<Learner>(std::move(made).value());
}

std::unique_ptr<Learner> blank_leveraging_bagging() {
  return std::make_unique<LeveragingBagging>(catalogue_member_factory());
}

}  // namespace

CatalogueEntry leveraging_bagging_row() {
  CatalogueEntry e = learner_row<LeveragingBagging>(
      "Leveraging Bagging (Bifet et al. 2010): Hoeffding trees (or any classifier, base-model) with Poisson(6) "
      "online bagging, ADWIN resets the worst member",
      Tasks::kClassification, "ensemble", "LeveragingBaggingClassifier");
  e.make = &make_leveraging_bagging;
  e.make_blank = &blank_leveraging_bagging;
  return e;
}

}  // namespace irithyll::catalogue_detail
