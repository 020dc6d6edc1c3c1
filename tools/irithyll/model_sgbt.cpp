// `--model sgbt`: streaming gradient-boosted trees. Its options come from the
// one SGBTConfig field table, so help, defaults and parsing never drift apart.
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "model_factory.hpp"

namespace irithyll::cli {
namespace {

void declare(ArgParser& parser) {
  std::string presets;
  for (const SGBTPreset& p : sgbt_presets()) presets += (presets.empty() ? "" : "|") + std::string(p.name);
  parser.option("preset", "NAME", "sgbt: named settings applied before the options below (" + presets +
                                      "; original = the original library's defaults)");
  for (const auto& f : sgbt_config_fields())
    parser.option(std::string(f.info.name), "V", "sgbt: " + std::string(f.info.help), std::string(f.info.default_value));
}

Result<std::unique_ptr<Learner>> make(const ArgParser& args, const ModelContext& context) {
  SGBTConfig config;
  if (args.given("preset")) IRITHYLL_RETURN_IF_ERROR(apply_sgbt_preset(config, args.get("preset")));
  ModelSettings settings;
  for (const auto& f : sgbt_config_fields())
    if (args.given(std::string(f.info.name))) settings.set(std::string(f.info.name), args.get(std::string(f.info.name)));
  IRITHYLL_RETURN_IF_ERROR(apply_settings(std::string_view("sgbt"), sgbt_config_fields(), settings, config));
  config.seed = context.seed;
  auto learner = SGBTLearner::make(config, context.task, context.n_classes);
  if (!learner) return learner.status();
  return std::unique_ptr<Learner>(std::move(learner).value());
}

const ModelRegistration kRegistration(ModelFactory{
    "sgbt", "streaming gradient-boosted trees (Gunasekara et al. 2024)", &declare, &make});

}  // namespace
}  // namespace irithyll::cli
