// `irithyll eval --model spikenet`: the Q1.14 integer spiking network trained
// by e-prop. Classification uses one readout per class (one-hot targets).
// Inputs cross into Q1.14 as x * scale, so standardise features first.
#include "irithyll/nn/snn/spike_net_learner.hpp"
#include "model_factory.hpp"

namespace irithyll::cli {
namespace {

void declare(ArgParser& p) {
  p.option("spikenet-hidden", "H", "spikenet: hidden LIF neurons (1..1024)", "64");
  p.option("spikenet-input-scale", "S", "spikenet: features enter as x * S in Q1.14 ([-2, 2) representable)", "1");
  p.option("spikenet-target-scale", "T", "spikenet: regression target enters as y * T in Q1.14", "1");
  p.option("spikenet-eta", "E", "spikenet: hidden e-prop learning rate in Q14 units (16 = 0.001)", "16");
  p.option("spikenet-eta-out", "E", "spikenet: readout learning rate in Q14 units (16384 = 1.0)", "16384");
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
  for (const Status* s : {&hidden.status(), &eta.status(), &eta_out.status(), &in_scale.status(), &t_scale.status()})
    if (!s->is_ok()) return *s;
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

const ModelRegistration kRegistration({"spikenet", "integer (Q1.14) spiking network trained by e-prop", &declare, &make});

}  // namespace
}  // namespace irithyll::cli
