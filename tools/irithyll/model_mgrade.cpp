// `irithyll eval --model mgrade`: delay convolution + minGRU (mGRADE) as a fixed
// recurrent feature extractor with an RLS readout (one head per class).
#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "continual_options.hpp"
#include "model_factory.hpp"

namespace irithyll::cli {
namespace {

void declare(ArgParser& p) {
  p.option("mgrade-hidden", "H", "mgrade: minGRU hidden units", "32");
  p.option("mgrade-taps", "K", "mgrade: delay-convolution taps per feature (1..256)", "4");
  p.option("mgrade-rls-lambda", "L", "mgrade: RLS forgetting factor in (0, 1]", "0.998");
  p.option("mgrade-rls-delta", "D", "mgrade: RLS initial P = delta I", "100");
  p.option("mgrade-warmup", "K", "mgrade: samples before the readout trains", "10");
  declare_continual_options(p);
}

Result<std::unique_ptr<Learner>> make(const ArgParser& args, const ModelContext& ctx) {
  nn::MgradeLearnerConfig c;
  c.task = ctx.task;
  c.n_classes = ctx.n_classes;
  c.n_features = ctx.n_features;
  c.seed = ctx.seed;
  auto hidden = args.get_int("mgrade-hidden");
  auto taps = args.get_int("mgrade-taps");
  auto warmup = args.get_int("mgrade-warmup");
  auto lambda = args.get_double("mgrade-rls-lambda");
  auto delta = args.get_double("mgrade-rls-delta");
  for (const Status* s : {&hidden.status(), &taps.status(), &warmup.status(), &lambda.status(), &delta.status()})
    if (!s->is_ok()) return *s;
  if (*hidden < 1 || *taps < 1 || *warmup < 0)
    return Status::invalid_argument("mgrade: --mgrade-hidden and --mgrade-taps must be >= 1, warmup >= 0");
  c.d_hidden = static_cast<std::size_t>(*hidden);
  c.taps = static_cast<std::size_t>(*taps);
  c.warmup = static_cast<std::size_t>(*warmup);
  c.rls = RlsConfig{*lambda, *delta};
  auto continual = parse_continual_options(args, ctx.seed);
  if (!continual.is_ok()) return continual.status();
  c.continual = *continual;
  IRITHYLL_RETURN_IF_ERROR(nn::MgradeLearner::validate(c));
  return std::unique_ptr<Learner>(std::make_unique<nn::MgradeLearner>(c));
}

const ModelRegistration kRegistration({"mgrade", "mGRADE (delay convolution + minGRU) with an RLS readout", &declare, &make});

}  // namespace
}  // namespace irithyll::cli
