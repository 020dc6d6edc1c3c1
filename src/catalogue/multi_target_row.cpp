// Catalogue row "multi_target_sgbt": one SGBT per regression target. Its
// settings are the SGBT table's rows, shared by every member (so
// `--learning-rate` means what it means for "sgbt"); the number of targets
// comes from the data (LearnerContext::n_targets, e.g. `--target a,b,c`).
#include "irithyll/ensemble/multi_target_sgbt.hpp"
#include "rows.hpp"

namespace irithyll::catalogue_detail {
namespace {

std::span<const FieldInfo> multi_target_infos() {
  static const std::vector<FieldInfo> rows = field_infos<SGBTConfig>(sgbt_config_fields());
  return rows;
}

Result<std::unique_ptr<Learner>> make_multi_target(const ModelSettings& settings, const LearnerContext& context) {
  MultiTargetSGBTConfig config;
  config.base.seed = context.seed;
  config.n_targets = context.n_targets;
  IRITHYLL_RETURN_IF_ERROR(apply_settings<SGBTConfig>("multi_target_sgbt", sgbt_config_fields(), settings, config.base));
  auto made = MultiTargetSGBT::make(config);
  if (!made) return made.status();
  return std::unique_ptr<Learner>(std::move(made).value());
}

ModelSettings multi_target_settings(const Learner& learner) {
  const auto* typed = dynamic_cast<const MultiTargetSGBT*>(&learner);
  if (typed == nullptr) return {};
  return irithyll::settings_of<SGBTConfig>(sgbt_config_fields(), typed->config().base);
}

}  // namespace

CatalogueEntry multi_target_sgbt_row() {
  return {"multi_target_sgbt",
          "several regression targets at once (--target a,b,c): one SGBT per target, shared settings",
          true,
          false,
          true,
          &multi_target_infos,
          &make_multi_target,
          &make_blank<MultiTargetSGBT>,
          &multi_target_settings};
}

}  // namespace irithyll::catalogue_detail
