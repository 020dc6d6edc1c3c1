// `irithyll eval --model mamba`: a selective SSM (Mamba-1 or Mamba-3) feeding an
// RLS readout (one head per class for classification, see readout/rls_head.hpp).
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "continual_options.hpp"
#include "model_factory.hpp"

namespace irithyll::cli {
namespace {

void declare(ArgParser& p) {
  p.option("mamba-version", "V", "mamba: v1 | v3 | v3-tustin | v3-mimo | bd", "v1");
  p.option("mamba-n-state", "N", "mamba: states per channel (v1) or per group (v3)", "32");
  p.option("mamba-groups", "G", "mamba v3: groups of channels sharing B/C (must divide the feature count)", "1");
  p.option("mamba-rank", "R", "mamba v3-mimo: rank of the input product B X^T (1..16)", "2");
  p.option("mamba-block", "M", "mamba bd: channels per block (must divide the feature count)", "1");
  p.option("mamba-bcnorm", "on|off", "mamba v3: RMS-normalise B and C", "on");
  p.option("mamba-bcnorm-lr", "R", "mamba v3: SGD rate of BCNorm's gamma on the readout loss (0 = fixed gamma)", "0.003");
  p.option("mamba-rls-lambda", "L", "mamba: RLS forgetting factor in (0, 1]", "0.998");
  p.option("mamba-rls-delta", "D", "mamba: RLS initial P = delta I", "100");
  p.option("mamba-warmup", "K", "mamba: samples before the readout trains", "10");
  declare_continual_options(p);
}

Result<std::unique_ptr<Learner>> make(const ArgParser& args, const ModelContext& ctx) {
  nn::MambaLearnerConfig c;
  c.task = ctx.task;
  c.n_classes = ctx.n_classes;
  c.n_features = ctx.n_features;
  c.seed = ctx.seed;
  const std::string v = args.get("mamba-version");
  if (v == "v1") c.version = nn::MambaVersion::kV1;
  else if (v == "v3") c.version = nn::MambaVersion::kV3;
  else if (v == "v3-tustin") c.version = nn::MambaVersion::kV3Tustin;
  else if (v == "v3-mimo") c.version = nn::MambaVersion::kV3Mimo;
  else if (v == "bd") c.version = nn::MambaVersion::kBlockDiagonal;
  else return Status::invalid_argument("--mamba-version must be v1, v3, v3-tustin, v3-mimo or bd, not '" + v + "'");
  const std::string bc = args.get("mamba-bcnorm");
  if (bc != "on" && bc != "off") return Status::invalid_argument("--mamba-bcnorm must be on or off");
  c.use_bcnorm = bc == "on";
  auto n_state = args.get_int("mamba-n-state");
  auto groups = args.get_int("mamba-groups");
  auto rank = args.get_int("mamba-rank");
  auto block = args.get_int("mamba-block");
  auto warmup = args.get_int("mamba-warmup");
  auto lambda = args.get_double("mamba-rls-lambda");
  auto delta = args.get_double("mamba-rls-delta");
  auto bc_lr = args.get_double("mamba-bcnorm-lr");
  for (const Status* s : {&n_state.status(), &groups.status(), &rank.status(), &block.status(), &warmup.status(),
                          &lambda.status(), &delta.status(), &bc_lr.status()})
    if (!s->is_ok()) return *s;
  if (*n_state < 1 || *groups < 1 || *rank < 0 || *block < 1 || *warmup < 0)
    return Status::invalid_argument("mamba: --mamba-n-state and --mamba-groups must be >= 1, rank and warmup >= 0");
  c.n_state = static_cast<std::size_t>(*n_state);
  c.n_groups = static_cast<std::size_t>(*groups);
  c.rank = static_cast<std::size_t>(*rank);
  c.block_size = static_cast<std::size_t>(*block);
  c.warmup = static_cast<std::size_t>(*warmup);
  c.rls = RlsConfig{*lambda, *delta};
  c.bcnorm_lr = *bc_lr;
  auto continual = parse_continual_options(args, ctx.seed);
  if (!continual.is_ok()) return continual.status();
  c.continual = *continual;
  IRITHYLL_RETURN_IF_ERROR(nn::MambaLearner::validate(c));
  return std::unique_ptr<Learner>(std::make_unique<nn::MambaLearner>(c));
}

const ModelRegistration kRegistration({"mamba", "selective state-space model (Mamba-1/Mamba-3) with an RLS readout", &declare, &make});

}  // namespace
}  // namespace irithyll::cli
