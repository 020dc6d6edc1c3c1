// `irithyll eval --model attention --mode gla|deltanet|...`: input projection ->
// one streaming linear-attention layer -> RLS readout (one RLS per class on
// one-hot targets for classification, arg-max / clipped-normalised scores for
// probabilities; see include/irithyll/nn/attention/attention_learner.hpp).
// The layer-shape options have no parser defaults because other model rows
// may share their names; unset ones take this model's defaults.
#include "irithyll/nn/attention/attention_learner.hpp"
#include <utility>

#include "model_factory.hpp"

namespace irithyll::cli {
namespace {

void declare(ArgParser& p) {
  p.option("mode", "MODE",
           "attention: retnet | hawk | gla | gla_vector | deltanet | gated_deltanet | rwkv | mlstm | deltaproduct | "
           "rwkv7 | hgrn2 | loglinear[:INNER] (default gla)");
  p.option("d-model", "D", "attention: layer width (default 32)");
  p.option("n-heads", "H", "attention: heads (default 4)");
  p.option("d-key", "K", "attention: key dimension per head (default 8)");
  p.option("d-value", "V", "attention: value dimension per head (default 8)");
  p.option("attention-levels", "L", "attention loglinear: Fenwick levels 1..62", "32");
  p.option("attention-rls-lambda", "L", "attention: RLS forgetting factor in (0, 1]", "0.9999");
  p.option("attention-rls-delta", "D", "attention: RLS initial P = delta I", "100");
}

Result<std::unique_ptr<Learner>> make(const ArgParser& args, const ModelContext& ctx) {
  nn::AttentionLearnerConfig c;
  c.task = ctx.task;
  c.n_classes = ctx.n_classes;
  c.n_features = ctx.n_features;
  c.attention.seed = ctx.seed;
  if (args.given("mode")) {
    auto mode = nn::parse_attention_mode(args.get("mode"));
    if (!mode.is_ok()) return mode.status();
    c.attention.mode = *mode;
  }
  const std::pair<const char*, std::size_t*> dims[] = {{"d-model", &c.attention.d_model},
                                                       {"n-heads", &c.attention.n_heads},
                                                       {"d-key", &c.attention.d_key},
                                                       {"d-value", &c.attention.d_value}};
  for (const auto& [name, dst] : dims) {
    if (!args.given(name)) continue;
    auto v = args.get_int(name);
    if (!v.is_ok()) return v.status();
    if (*v < 1 || *v > 4096) return Status::invalid_argument(std::string("attention: --") + name + " must be 1..4096");
    *dst = static_cast<std::size_t>(*v);
  }
  auto levels = args.get_int("attention-levels");
  auto lambda = args.get_double("attention-rls-lambda");
  auto delta = args.get_double("attention-rls-delta");
  for (const Status* s : {&levels.status(), &lambda.status(), &delta.status()})
    if (!s->is_ok()) return *s;
  if (*levels < 1 || *levels > 62) return Status::invalid_argument("attention: --attention-levels must be 1..62");
  c.attention.mode.max_levels = static_cast<std::uint32_t>(*levels);
  c.rls = RlsConfig{*lambda, *delta};
  auto made = nn::AttentionLearner::make(c);
  if (!made.is_ok()) return made.status();
  return std::unique_ptr<Learner>(std::make_unique<nn::AttentionLearner>(std::move(*made)));
}

const ModelRegistration kRegistration(
    {"attention", "streaming linear attention (12 modes incl. log-linear) with an RLS readout", &declare, &make});

}  // namespace
}  // namespace irithyll::cli
