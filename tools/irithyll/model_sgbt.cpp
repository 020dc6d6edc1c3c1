// `--model sgbt`: streaming gradient-boosted trees. Its options come from the
// one SGBTConfig field table, so help, defaults and parsing never drift apart.
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "model_factory.hpp"

namespace irithyll::cli {
namespace {

void declare(ArgParser& parser) {
  for (const SGBTConfigField& f : sgbt_config_fields()) {
    if (f.name == "seed") continue;  // the shared --seed of eval
    parser.option(std::string(f.name), "V", "sgbt: " + std::string(f.help), std::string(f.default_value));
  }
}

Result<std::unique_ptr<Learner>> make(const ArgParser& args, const ModelContext& context) {
  SGBTConfig config;
  for (const SGBTConfigField& f : sgbt_config_fields()) {
    if (f.name == "seed" || !args.given(std::string(f.name))) continue;
    IRITHYLL_RETURN_IF_ERROR(f.set(config, args.get(std::string(f.name))));
  }
  config.seed = context.seed;
  auto learner = SGBTLearner::make(config, context.task, context.n_classes);
  if (!learner) return learner.status();
  return std::unique_ptr<Learner>(std::move(learner).value());
}

const ModelRegistration kRegistration(ModelFactory{
    "sgbt", "streaming gradient-boosted trees (Gunasekara et al. 2024)", &declare, &make});

}  // namespace
}  // namespace irithyll::cli
