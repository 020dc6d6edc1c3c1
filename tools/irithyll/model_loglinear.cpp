// `irithyll eval --model loglinear`: log-linear attention trained online with
// its own SGD (seed 004) feeding an RLS readout; see
// include/irithyll/nn/attention/log_linear_learner.hpp.
#include <utility>

#include "irithyll/nn/attention/log_linear_learner.hpp"
#include "continual_options.hpp"
#include "model_factory.hpp"

namespace irithyll::cli {
namespace {

void declare(ArgParser& p) {
  p.option("loglinear-inner", "MODE",
           "loglinear: inner mode of the counter form (delta-family modes L2-normalise keys), or "
           "loglinear_mamba2 / loglinear_gated_deltanet for the paper's variants",
           "gated_deltanet");
  p.option("loglinear-d-model", "D", "loglinear: projected input width", "16");
  p.option("loglinear-d-key", "K", "loglinear: key dimension", "8");
  p.option("loglinear-d-value", "V", "loglinear: value (output) dimension", "8");
  p.option("loglinear-levels", "L", "loglinear: Fenwick levels 1..62", "32");
  p.option("loglinear-lr", "R", "loglinear: SGD learning rate of the layer", "0.05");
  p.option("loglinear-rls-lambda", "L", "loglinear: RLS forgetting factor in (0, 1]", "0.9999");
  declare_continual_options(p);
}

Result<std::unique_ptr<Learner>> make(const ArgParser& args, const ModelContext& ctx) {
  nn::LogLinearLearnerConfig c;
  c.task = ctx.task;
  c.n_classes = ctx.n_classes;
  c.n_features = ctx.n_features;
  c.layer.seed = ctx.seed;
  auto inner = nn::parse_attention_mode(args.get("loglinear-inner"));
  if (!inner.is_ok()) return inner.status();
  if (inner->kind == nn::AttentionKind::kLogLinearMamba2) {
    c.layer.form = nn::LogLinearForm::kMamba2;
  } else if (inner->kind == nn::AttentionKind::kLogLinearGatedDeltaNet) {
    c.layer.form = nn::LogLinearForm::kGatedDeltaNet;
  } else {
    c.layer.inner = inner->kind;
  }
  auto dm = args.get_int("loglinear-d-model");
  auto dk = args.get_int("loglinear-d-key");
  auto dv = args.get_int("loglinear-d-value");
  auto levels = args.get_int("loglinear-levels");
  auto lr = args.get_double("loglinear-lr");
  auto lambda = args.get_double("loglinear-rls-lambda");
  for (const Status* s : {&dm.status(), &dk.status(), &dv.status(), &levels.status(), &lr.status(), &lambda.status()})
    if (!s->is_ok()) return *s;
  for (std::int64_t v : {*dm, *dk, *dv})
    if (v < 1 || v > 4096) return Status::invalid_argument("loglinear: dimensions must be 1..4096");
  if (*levels < 1 || *levels > 62) return Status::invalid_argument("loglinear: --loglinear-levels must be 1..62");
  c.layer.d_model = static_cast<std::size_t>(*dm);
  c.layer.d_key = static_cast<std::size_t>(*dk);
  c.layer.d_value = static_cast<std::size_t>(*dv);
  c.layer.max_levels = static_cast<std::uint32_t>(*levels);
  c.layer.learning_rate = *lr;
  c.rls.forgetting_factor = *lambda;
  auto continual = parse_continual_options(args, ctx.seed);
  if (!continual.is_ok()) return continual.status();
  c.continual = *continual;
  auto made = nn::LogLinearLearner::make(c);
  if (!made.is_ok()) return made.status();
  return std::unique_ptr<Learner>(std::make_unique<nn::LogLinearLearner>(std::move(*made)));
}

const ModelRegistration kRegistration(
    {"loglinear", "log-linear attention trained online (SGD on Q/K/V/lambda) with an RLS readout", &declare, &make});

}  // namespace
}  // namespace irithyll::cli
