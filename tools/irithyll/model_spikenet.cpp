// `irithyll eval --model spikenet`: the Q1.14 integer spiking network trained
// by e-prop, read by RLS (default) or by its own integer readout
// (--spikenet-readout eprop). Classification uses one readout per class
// (one-hot targets). Inputs cross into Q1.14 as x * scale, so standardise
// features first.
#include <string>

#include "irithyll/nn/snn/spike_net_learner.hpp"
#include "model_factory.hpp"

namespace irithyll::cli {
namespace {

void declare(ArgParser& p) {
  p.option("spikenet-hidden", "H", "spikenet: hidden LIF neurons (1..1024)", "64");
  p.option("spikenet-input-scale", "S", "spikenet: features enter as x * S in Q1.14 ([-2, 2) representable)", "1");
  p.option("spikenet-target-scale", "T", "spikenet: regression target enters as y * T in Q1.14", "1");
  p.option("spikenet-eta", "E", "spikenet: hidden e-prop learning rate in Q14 units (16 = 0.001)", "16");
  p.option("spikenet-eta-out", "E", "spikenet eprop readout: learning rate in Q14 units (16384 = 1.0)", "16384");
  p.option("spikenet-readout", "R", "spikenet: rls (float RLS on spike traces, encoder bits and x) | eprop (integer-only)", "rls");
  p.option("spikenet-rls-lambda", "L", "spikenet rls readout: forgetting factor in (0, 1]", "0.999");
  p.option("spikenet-rls-delta", "D", "spikenet rls readout: initial P = delta I", "100");
}

Result<std::unique_ptr<Learner>> make(const ArgParser& args, const ModelContext& ctx) {
  nn::SpikeNetLearnerConfig c;
  c.task = ctx.task;
  c.n_classes = ctx.n_classes;
  c.n_features = ctx.n_features;
  c.net.seed = ctx.seed;
  auto hidden = args.get_int("spikenet-hidden");
  auto eta = args.get_int("spikenet-eta");
  auto eta_out = args.get_int("spikenet-eta-out");
  auto in_scale = args.get_double("spikenet-input-scale");
  auto t_scale = args.get_double("spikenet-target-scale");
  auto lambda = args.get_double("spikenet-rls-lambda");
  auto delta = args.get_double("spikenet-rls-delta");
  for (const Status* s : {&hidden.status(), &eta.status(), &eta_out.status(), &in_scale.status(), &t_scale.status(),
                          &lambda.status(), &delta.status()})
    if (!s->is_ok()) return *s;
  const std::string readout = args.get("spikenet-readout");
  if (readout != "rls" && readout != "eprop")
    return Status::invalid_argument("--spikenet-readout must be rls or eprop, not '" + readout + "'");
  c.readout = readout == "rls" ? nn::SpikeNetReadout::kRls : nn::SpikeNetReadout::kEprop;
  c.rls.forgetting_factor = *lambda;
  c.rls.delta = *delta;
  if (*hidden < 1 || *hidden > 1024 || *eta < 0 || *eta > 16383 || *eta_out < 0 || *eta_out > 32767)
    return Status::invalid_argument("spikenet: --spikenet-hidden in [1, 1024], --spikenet-eta in [0, 16383], --spikenet-eta-out in [0, 32767]");
  c.net.n_hidden = static_cast<std::uint32_t>(*hidden);
  c.net.eta = static_cast<std::int32_t>(*eta);
  c.net.eta_out = static_cast<std::int32_t>(*eta_out);
  c.input_scale = *in_scale;
  c.target_scale = *t_scale;
  auto m = nn::SpikeNetLearner::make(c);
  if (!m.is_ok()) return m.status();
  return std::unique_ptr<Learner>(std::move(m).value());
}

const ModelRegistration kRegistration({"spikenet", "integer (Q1.14) spiking network trained by e-prop, RLS or integer readout", &declare, &make});

}  // namespace
}  // namespace irithyll::cli
