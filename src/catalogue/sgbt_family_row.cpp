// Catalogue rows of the SGBT family members built on SGBT committees:
// "adaptive_sgbt", "quantile_sgbt", "distributional_sgbt", "moe_sgbt" and
// "moe_distributional_sgbt". Their settings are their own
// table's rows followed by every row of the SGBT table (for the committees'
// `base` config), so `--learning-rate` means the same in every family member.
#include "irithyll/ensemble/adaptive_sgbt.hpp"
#include "irithyll/ensemble/distributional_sgbt.hpp"
#include "irithyll/ensemble/moe_distributional_sgbt.hpp"
#include "irithyll/ensemble/moe_sgbt.hpp"
#include "irithyll/ensemble/quantile_sgbt.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {
namespace {

// The SGBT rows that a family member does not own: the loss is the member's.
bool base_row_applies(const FieldInfo& f) { return f.name != "loss" && f.name != "loss-param"; }

template <class Config, auto kOwn>
std::span<const FieldInfo> family_infos() {
  static const std::vector<FieldInfo> rows = [] {
    std::vector<FieldInfo> out = field_infos<Config>(kOwn());
    for (const auto& f : sgbt_config_fields())
      if (base_row_applies(f.info)) out.push_back(f.info);
    return out;
  }();
  return rows;
}

template <class Config, auto kOwn>
Status apply_family(std::string_view name, const ModelSettings& settings, Config& config) {
  ModelSettings own, base;
  for (const auto& [key, value] : settings.items()) {
    bool mine = false;
    for (const auto& f : kOwn()) mine = mine || field_name_matches(f.info, key);
    bool shared = false;
    for (const auto& f : sgbt_config_fields()) shared = shared || (base_row_applies(f.info) && field_name_matches(f.info, key));
    if (!mine && !shared) {
      std::string names;
      for (const FieldInfo& f : family_infos<Config, kOwn>()) names += (names.empty() ? "" : ", ") + std::string(f.name);
      return Status::invalid_argument(std::string(name) + ": unknown setting '" + key + "' (settings: " + names + ")");
    }
    (mine ? own : base).set(key, value);
  }
  IRITHYLL_RETURN_IF_ERROR(apply_settings<Config>(name, kOwn(), own, config));
  return apply_settings<SGBTConfig>(name, sgbt_config_fields(), base, config.base);
}

template <class T, class Config, auto kOwn>
ModelSettings family_settings(const Learner& learner) {
  const auto* typed = dynamic_cast<const T*>(&learner);
  if (typed == nullptr) return {};
  ModelSettings s = irithyll::settings_of<Config>(kOwn(), typed->config());
  for (const auto& f : sgbt_config_fields())
    if (base_row_applies(f.info)) s.set(std::string(f.info.name), f.get(typed->config().base));
  return s;
}

// Regression-only members: T::make(config).
template <class T, class Config>
Result<std::unique_ptr<Learner>> build_regressor(const Config& config, const LearnerContext&) {
  auto made = T::make(config);
  if (!made) return made.status();
  return std::unique_ptr<Learner>(std::move(made).value());
}

// Members for both tasks: T::make(config, task, n_classes).
template <class T, class Config>
Result<std::unique_ptr<Learner>> build_any_task(const Config& config, const LearnerContext& context) {
  auto made = T::make(config, context.task, context.n_classes);
  if (!made) return made.status();
  return std::unique_ptr<Learner>(std::move(made).value());
}

template <class Config, auto kOwn, auto kBuild>
Result<std::unique_ptr<Learner>> make_family(std::string_view name, const ModelSettings& settings,
                                             const LearnerContext& context) {
  Config config;
  config.base.seed = context.seed;
  IRITHYLL_RETURN_IF_ERROR((apply_family<Config, kOwn>(name, settings, config)));
  return kBuild(config, context);
}

Result<std::unique_ptr<Learner>> make_quantile(const ModelSettings& s, const LearnerContext& c) {
  return make_family<QuantileSGBTConfig, &quantile_sgbt_config_fields,
                     &build_regressor<QuantileSGBT, QuantileSGBTConfig>>("quantile_sgbt", s, c);
}
Result<std::unique_ptr<Learner>> make_distributional(const ModelSettings& s, const LearnerContext& c) {
  return make_family<DistributionalSGBTConfig, &distributional_sgbt_config_fields,
                     &build_regressor<DistributionalSGBT, DistributionalSGBTConfig>>("distributional_sgbt", s, c);
}
Result<std::unique_ptr<Learner>> make_adaptive(const ModelSettings& s, const LearnerContext& c) {
  return make_family<AdaptiveSGBTConfig, &adaptive_sgbt_config_fields,
                     &build_any_task<AdaptiveSGBT, AdaptiveSGBTConfig>>("adaptive_sgbt", s, c);
}

Result<std::unique_ptr<Learner>> make_moe(const ModelSettings& s, const LearnerContext& c) {
  return make_family<MoESGBTConfig, &moe_sgbt_config_fields, &build_any_task<MoESGBT, MoESGBTConfig>>("moe_sgbt", s, c);
}
Result<std::unique_ptr<Learner>> make_moe_distributional(const ModelSettings& s, const LearnerContext& c) {
  return make_family<MoEDistributionalSGBTConfig, &moe_distributional_sgbt_config_fields,
                     &build_regressor<MoEDistributionalSGBT, MoEDistributionalSGBTConfig>>("moe_distributional_sgbt", s, c);
}

}  // namespace

CatalogueEntry adaptive_sgbt_row() {
  return {"adaptive_sgbt",
          "SGBT with a learning-rate schedule: constant, linear, exponential, cosine or plateau",
          true,
          true,
          true,
          &family_infos<AdaptiveSGBTConfig, &adaptive_sgbt_config_fields>,
          &make_adaptive,
          &make_blank<AdaptiveSGBT>,
          &family_settings<AdaptiveSGBT, AdaptiveSGBTConfig, &adaptive_sgbt_config_fields>};
}

CatalogueEntry quantile_sgbt_row() {
  return {"quantile_sgbt",
          "one SGBT per quantile level, non-crossing (PAVA), online coverage correction",
          true,
          false,
          true,
          &family_infos<QuantileSGBTConfig, &quantile_sgbt_config_fields>,
          &make_quantile,
          &make_blank<QuantileSGBT>,
          &family_settings<QuantileSGBT, QuantileSGBTConfig, &quantile_sgbt_config_fields>};
}

CatalogueEntry distributional_sgbt_row() {
  return {"distributional_sgbt",
          "Gaussian predictive distribution: SGBT location, SGBT log-scale, calibrated intervals",
          true,
          false,
          true,
          &family_infos<DistributionalSGBTConfig, &distributional_sgbt_config_fields>,
          &make_distributional,
          &make_blank<DistributionalSGBT>,
          &family_settings<DistributionalSGBT, DistributionalSGBTConfig, &distributional_sgbt_config_fields>};
}

CatalogueEntry moe_sgbt_row() {
  return {"moe_sgbt",
          "mixture of SGBT experts behind an online softmax gate (soft or top-k routing)",
          true,
          true,
          true,
          &family_infos<MoESGBTConfig, &moe_sgbt_config_fields>,
          &make_moe,
          &make_blank<MoESGBT>,
          &family_settings<MoESGBT, MoESGBTConfig, &moe_sgbt_config_fields>};
}

CatalogueEntry moe_distributional_sgbt_row() {
  return {"moe_distributional_sgbt",
          "mixture of Gaussian SGBT experts with shadow challengers: mixture mean, total variance, intervals",
          true,
          false,
          true,
          &family_infos<MoEDistributionalSGBTConfig, &moe_distributional_sgbt_config_fields>,
          &make_moe_distributional,
          &make_blank<MoEDistributionalSGBT>,
          &family_settings<MoEDistributionalSGBT, MoEDistributionalSGBTConfig, &moe_distributional_sgbt_config_fields>};
}

}  // namespace irithyll::catalogue_detail
