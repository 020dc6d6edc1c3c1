// `irithyll eval --model slstm`: a stabilised sLSTM cell (xLSTM) as a fixed
// recurrent feature extractor with an RLS readout (one head per class).
#include <cstdlib>

#include "irithyll/nn/rnn/slstm_learner.hpp"
#include "continual_options.hpp"
#include "model_factory.hpp"

namespace irithyll::cli {
namespace {

void declare(ArgParser& p) {
  p.option("slstm-hidden", "H", "slstm: hidden units", "32");
  p.option("slstm-heads", "K", "slstm: heads of the block-diagonal recurrence (must divide --slstm-hidden)", "4");
  p.option("slstm-forget-bias", "A:B", "slstm: forget-gate bias linspace over units", "3:6");
  p.option("slstm-rls-lambda", "L", "slstm: RLS forgetting factor in (0, 1]", "0.998");
  p.option("slstm-rls-delta", "D", "slstm: RLS initial P = delta I", "100");
  p.option("slstm-warmup", "K", "slstm: samples before the readout trains", "10");
  declare_continual_options(p);
}

Result<std::unique_ptr<Learner>> make(const ArgParser& args, const ModelContext& ctx) {
  nn::SlstmLearnerConfig c;
  c.task = ctx.task;
  c.n_classes = ctx.n_classes;
  c.n_features = ctx.n_features;
  c.seed = ctx.seed;
  auto hidden = args.get_int("slstm-hidden");
  auto heads = args.get_int("slstm-heads");
  auto warmup = args.get_int("slstm-warmup");
  auto lambda = args.get_double("slstm-rls-lambda");
  auto delta = args.get_double("slstm-rls-delta");
  for (const Status* s : {&hidden.status(), &heads.status(), &warmup.status(), &lambda.status(), &delta.status()})
    if (!s->is_ok()) return *s;
  if (*hidden < 1 || *heads < 1 || *warmup < 0)
    return Status::invalid_argument("slstm: --slstm-hidden and --slstm-heads must be >= 1, warmup >= 0");
  const std::string fb = args.get("slstm-forget-bias");
  const auto colon = fb.find(':');
  char* end = nullptr;
  const std::string a = fb.substr(0, colon), b = colon == std::string::npos ? a : fb.substr(colon + 1);
  c.forget_bias_start = std::strtod(a.c_str(), &end);
  if (a.empty() || *end != '\0') return Status::invalid_argument("--slstm-forget-bias must be A or A:B");
  c.forget_bias_stop = std::strtod(b.c_str(), &end);
  if (b.empty() || *end != '\0') return Status::invalid_argument("--slstm-forget-bias must be A or A:B");
  c.d_hidden = static_cast<std::size_t>(*hidden);
  c.n_heads = static_cast<std::size_t>(*heads);
  c.warmup = static_cast<std::size_t>(*warmup);
  c.rls = RlsConfig{*lambda, *delta};
  auto continual = parse_continual_options(args, ctx.seed);
  if (!continual.is_ok()) return continual.status();
  c.continual = *continual;
  IRITHYLL_RETURN_IF_ERROR(nn::SlstmLearner::validate(c));
  return std::unique_ptr<Learner>(std::make_unique<nn::SlstmLearner>(c));
}

const ModelRegistration kRegistration({"slstm", "stabilised sLSTM (xLSTM) features with an RLS readout", &declare, &make});

}  // namespace
}  // namespace irithyll::cli
