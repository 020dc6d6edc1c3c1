// `irithyll adjust --checkpoint F --out G [--lr-multiplier M] [--lambda-delta D]
// [--depth-delta N] [--steps-delta N] [--prune-half-life HL] [--prune-now]`: retunes a trained model without
// retraining it, through its Tunable hooks (SGBT, the SGD linear models),
// and saves the result as a checkpoint that continues from where F stopped.
// Prints the settings that changed and the tuning signals before and after,
// so the signals `inspect` shows can be acted on in one step. A model
// without the hooks, or a structural change it cannot make, is refused by
// name and nothing is written. --prune-now applies the model's proactive
// pruning rule once after the other changes and says whether a tree went.
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "args.hpp"
#include "command.hpp"
#include "diagnostics_report.hpp"
#include "output_paths.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/tunable.hpp"

namespace irithyll::cli {
namespace {

ArgParser make_adjust_parser() {
  ArgParser p("irithyll adjust --checkpoint FILE --out FILE [--lr-multiplier M] [--lambda-delta D] "
              "[--depth-delta N] [--steps-delta N] [--prune-half-life HL] [--prune-now]",
              "Retunes a trained checkpoint (SGBT, linear_regression, logistic_regression, softmax_regression) "
              "and saves it; learning continues from the same state with the new settings.");
  p.option("checkpoint", "FILE", "the trained model")
      .option("out", "FILE", "where to save the adjusted model (may be the same file)")
      .option("lr-multiplier", "M", "multiply the learning rate by M (> 0; the result stays in the setting's range)",
              "1")
      .option("lambda-delta", "D", "add D to the L2 regularisation (lambda for SGBT, l2 for linear models; >= 0 after)",
              "0")
      .option("depth-delta", "N", "SGBT: add N levels to max-depth (1..30 after; existing branches stay)", "0")
      .option("steps-delta", "N", "SGBT: add N boosting steps (fresh trees at the end) or drop the last -N", "0")
      .option("prune-half-life", "HL",
              "SGBT: half-life in samples of the per-step contribution averages that pruning compares (0 = off)")
      .flag("prune-now",
            "SGBT: replace the weakest mature step now if its contribution average is below the 25th percentile");
  return p;
}

// The settings whose value differs between two snapshots, "name a -> b".
std::vector<std::string> changed_settings(const ModelSettings& before, const ModelSettings& after) {
  std::vector<std::string> out;
  for (const auto& [name, value] : after.items())
    for (const auto& [old_name, old_value] : before.items())
      if (old_name == name && old_value != value) out.push_back(name + " " + old_value + " -> " + value);
  return out;
}

int run_adjust(std::span<char* const> argv) {
  ArgParser args = make_adjust_parser();
  if (Status s = args.parse(argv); !s) return fail(s);
  if (args.help_requested()) {
    std::fputs(args.help().c_str(), stdout);
    return 0;
  }
  if (!args.given("checkpoint")) return fail(Status::invalid_argument("--checkpoint FILE is required"));
  if (!args.given("out")) return fail(Status::invalid_argument("--out FILE is required"));
  if (args.get("out") != args.get("checkpoint"))
    if (Status s = check_output_paths(args, {"out"}); !s) return fail(s);
  auto multiplier = args.get_double("lr-multiplier");
  if (!multiplier) return fail(multiplier.status());
  auto lambda_delta = args.get_double("lambda-delta");
  if (!lambda_delta) return fail(lambda_delta.status());
  auto depth_delta = args.get_int("depth-delta");
  if (!depth_delta) return fail(depth_delta.status());
  auto steps_delta = args.get_int("steps-delta");
  if (!steps_delta) return fail(steps_delta.status());
  for (const auto& [name, v] : {std::pair{"depth-delta", *depth_delta}, std::pair{"steps-delta", *steps_delta}})
    if (v < -100000 || v > 100000)
      return fail(Status::invalid_argument("--" + std::string(name) + " " + std::to_string(v) +
                                           ": must be within +-100000"));

  double half_life = 0.0;
  if (args.given("prune-half-life")) {
    auto hl = args.get_double("prune-half-life");
    if (!hl) return fail(hl.status());
    half_life = *hl;
  }

  const std::string path = args.get("checkpoint");
  Schema schema;
  auto loaded = load_learner(path, &schema);
  if (!loaded) return fail(loaded.status());
  Learner& learner = **loaded;
  auto* tunable = dynamic_cast<Tunable*>(&learner);
  if (tunable == nullptr)
    return fail(Status::invalid_argument(path + ": '" + std::string(learner.name()) +
                                         "' has no settings to adjust (sgbt and the SGD linear models do)"));
  const CatalogueEntry* entry = find_model(learner.name());
  const ModelSettings before = entry != nullptr ? entry->settings_of(learner) : ModelSettings{};
  const std::string signals_before = tuning_signals_text(learner);
  if (Status s = tunable->adjust_config(*multiplier, *lambda_delta); !s) return fail(s.with_context(path));
  if (Status s = tunable->apply_structural_change(static_cast<int>(*depth_delta), static_cast<int>(*steps_delta)); !s)
    return fail(s.with_context(path));
  if (args.given("prune-half-life"))
    if (Status s = tunable->set_prune_half_life(half_life); !s) return fail(s.with_context(path));
  Result<bool> pruned = false;
  if (args.given("prune-now")) pruned = tunable->check_proactive_prune();
  if (!pruned) return fail(pruned.status().with_context(path));
  if (Status s = save_learner(args.get("out"), learner, &schema); !s) return fail(s);

  const ModelSettings after = entry != nullptr ? entry->settings_of(learner) : ModelSettings{};
  const std::vector<std::string> changed = changed_settings(before, after);
  std::printf("%s: %s\n", args.get("out").c_str(), changed.empty() ? "no setting changed" : "adjusted");
  for (const std::string& line : changed) std::printf("  %s\n", line.c_str());
  if (args.given("prune-now"))
    std::printf("  pruning: %s\n", *pruned ? "replaced the weakest mature step" : "no step qualified");
  std::printf("before, %s", signals_before.c_str());
  std::printf("after,  %s", tuning_signals_text(learner).c_str());
  return 0;
}

const CommandRegistration kAdjustCommand("adjust",
                                         "retune a trained checkpoint (learning rate, lambda, depth, steps, pruning)",
                                         &run_adjust);

}  // namespace
}  // namespace irithyll::cli
