// `irithyll eval --model esn`: cycle-reservoir echo state network with RLS
// readouts (one per class on one-hot targets for classification).
#include "irithyll/nn/reservoir/esn.hpp"
#include "model_factory.hpp"

namespace irithyll::cli {
namespace {

void declare(ArgParser& p) {
  p.option("esn-neurons", "N", "esn: reservoir size (readout cost grows as N^2)", "100");
  p.option("esn-spectral-radius", "R", "esn: ring weight magnitude (< 1 for fading memory)", "0.9");
  p.option("esn-input-scaling", "S", "esn: input weights U[-S, S]", "0.5");
  p.option("esn-leak", "A", "esn: leak rate in (0, 1]", "0.3");
  p.option("esn-bias-scaling", "B", "esn: bias U[-B, B], 0 = none", "0.1");
  p.option("esn-washout", "K", "esn: samples that only drive the state", "0");
  p.option("esn-rls-lambda", "L", "esn: RLS forgetting factor in (0, 1]", "0.999");
  p.option("esn-rls-delta", "D", "esn: RLS initial P = delta I", "100");
}

Result<std::unique_ptr<Learner>> make(const ArgParser& args, const ModelContext& ctx) {
  nn::EsnConfig c;
  c.task = ctx.task;
  c.n_classes = ctx.n_classes;
  c.n_features = ctx.n_features;
  c.seed = ctx.seed;
  auto n = args.get_int("esn-neurons");
  auto washout = args.get_int("esn-washout");
  auto rho = args.get_double("esn-spectral-radius");
  auto scale = args.get_double("esn-input-scaling");
  auto leak = args.get_double("esn-leak");
  auto bias = args.get_double("esn-bias-scaling");
  auto lambda = args.get_double("esn-rls-lambda");
  auto delta = args.get_double("esn-rls-delta");
  for (const Status* s : {&n.status(), &washout.status(), &rho.status(), &scale.status(), &leak.status(), &bias.status(),
                          &lambda.status(), &delta.status()})
    if (!s->is_ok()) return *s;
  if (*n < 1 || *washout < 0) return Status::invalid_argument("esn: --esn-neurons must be >= 1 and --esn-washout >= 0");
  c.n_neurons = static_cast<std::size_t>(*n);
  c.washout = static_cast<std::uint64_t>(*washout);
  c.spectral_radius = *rho;
  c.input_scaling = *scale;
  c.leak = *leak;
  c.bias_scaling = *bias;
  c.rls = RlsConfig{*lambda, *delta};
  auto m = nn::EchoStateNetwork::make(c);
  if (!m.is_ok()) return m.status();
  return std::unique_ptr<Learner>(std::move(m).value());
}

const ModelRegistration kRegistration({"esn", "cycle-reservoir echo state network with an RLS readout", &declare, &make});

}  // namespace
}  // namespace irithyll::cli
