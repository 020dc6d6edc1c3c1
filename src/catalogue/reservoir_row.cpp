// Catalogue rows "esn" (cycle-reservoir echo state network), "ngrc" (next-
// generation reservoir) and "spikenet" (Q1.14 spiking network, e-prop): fixed
// or locally trained features read by RLS (or, for spikenet, an integer
// readout).
#include "irithyll/nn/reservoir/esn.hpp"
#include "irithyll/nn/reservoir/ngrc.hpp"
#include "irithyll/nn/snn/spike_net_learner.hpp"
#include "rows.hpp"
#include "shared_rows.hpp"

namespace irithyll::catalogue_detail {
namespace {

using EC = nn::EsnConfig;
using NC = nn::NgrcLearnerConfig;
using PC = nn::SpikeNetLearnerConfig;

std::span<const ConfigField<EC>> esn_fields() {
  static const std::vector<ConfigField<EC>> own = {
      {FieldInfo::integer("neurons", "100", "reservoir size (readout cost grows as N^2; N + features < 4096)").in(1, 2048).aka("esn-neurons"),
       IRITHYLL_FIELD_UINT(EC, n_neurons)},
      {FieldInfo::real("spectral-radius", "0.9", "ring weight magnitude (< 1 for fading memory)")
           .in(0, 10, true)
           .aka("esn-spectral-radius"),
       IRITHYLL_FIELD_REAL(EC, spectral_radius)},
      {FieldInfo::real("input-scaling", "0.5", "input weights U[-s, s]").in(0, 100, true).aka("esn-input-scaling"),
       IRITHYLL_FIELD_REAL(EC, input_scaling)},
      {FieldInfo::real("leak", "0.3", "leak rate").in(0, 1, true).aka("esn-leak"), IRITHYLL_FIELD_REAL(EC, leak)},
      {FieldInfo::real("bias-scaling", "0.1", "bias U[-b, b], 0 = none").in(0, 100).aka("esn-bias-scaling"),
       IRITHYLL_FIELD_REAL(EC, bias_scaling)},
      {FieldInfo::boolean("include-input", "on", "the readout also sees the raw features"),
       IRITHYLL_FIELD_BOOL(EC, include_input)},
      {FieldInfo::integer("washout", "0", "samples that only drive the state").in(0, 1e12).aka("esn-washout"),
       IRITHYLL_FIELD_UINT(EC, washout)},
  };
  static const auto rows = join_rows<EC>({own, rls_rows<EC>("0.999", "esn-rls-lambda", "100", "esn-rls-delta")});
  return rows;
}

std::span<const ConfigField<NC>> ngrc_fields() {
  static const std::vector<ConfigField<NC>> own = {
      {FieldInfo::integer("k", "2", "number of delay taps").in(1, 64).aka("ngrc-k"), IRITHYLL_FIELD_UINT(NC, k)},
      {FieldInfo::integer("s", "1", "spacing between taps in samples").in(1, 4096).aka("ngrc-s"),
       IRITHYLL_FIELD_UINT(NC, s)},
      {FieldInfo::integer("degree", "2", "monomial degree, 0 (linear only) or 2..4").in(0, 4).aka("ngrc-degree"),
       IRITHYLL_FIELD_UINT(NC, degree)},
  };
  static const auto rows = join_rows<NC>({own, rls_rows<NC>("0.9999", "ngrc-rls-lambda", "100", "ngrc-rls-delta")});
  return rows;
}

Result<nn::SpikeNetReadout> parse_readout(std::string_view v) {
  if (v == "rls") return nn::SpikeNetReadout::kRls;
  if (v == "eprop") return nn::SpikeNetReadout::kEprop;
  return Status::invalid_argument("readout = '" + std::string(v) + "' is not one of rls|eprop");
}
std::string_view readout_name(nn::SpikeNetReadout r) { return r == nn::SpikeNetReadout::kRls ? "rls" : "eprop"; }

std::span<const ConfigField<PC>> spikenet_fields() {
  static const std::vector<ConfigField<PC>> own = {
      {FieldInfo::integer("hidden", "64", "hidden LIF neurons").in(1, 1024).aka("spikenet-hidden"),
       IRITHYLL_FIELD_UINT(PC, net.n_hidden)},
      {FieldInfo::real("input-scale", "1", "features enter as x * S in Q1.14 ([-2, 2) representable)")
           .in(0, 1e6, true)
           .aka("spikenet-input-scale"),
       IRITHYLL_FIELD_REAL(PC, input_scale)},
      {FieldInfo::real("target-scale", "1", "regression target enters as y * T in Q1.14")
           .in(0, 1e6, true)
           .aka("spikenet-target-scale"),
       IRITHYLL_FIELD_REAL(PC, target_scale)},
      {FieldInfo::integer("eta", "16", "hidden e-prop learning rate in Q14 units (16 = 0.001)")
           .in(0, 16383)
           .aka("spikenet-eta"),
       IRITHYLL_FIELD_UINT(PC, net.eta)},
      {FieldInfo::integer("eta-out", "16384", "eprop readout: learning rate in Q14 units (16384 = 1.0)")
           .in(0, 32767)
           .aka("spikenet-eta-out"),
       IRITHYLL_FIELD_UINT(PC, net.eta_out)},
      {FieldInfo::choice("readout", "rls", "rls|eprop",
                         "rls (float RLS on spike traces, encoder bits and x) | eprop (integer-only)")
           .aka("spikenet-readout"),
       IRITHYLL_FIELD_ENUM(PC, readout, parse_readout, readout_name)},
  };
  static const auto rows =
      join_rows<PC>({own, rls_rows<PC>("0.999", "spikenet-rls-lambda", "100", "spikenet-rls-delta")});
  return rows;
}

template <class C>
void reservoir_context(C& c, const LearnerContext& ctx) {
  c.task = ctx.task;
  c.n_classes = ctx.n_classes;
  c.n_features = ctx.n_features;
}

Result<std::unique_ptr<Learner>> make_esn(const ModelSettings& s, const LearnerContext& ctx) {
  return make<EC, &esn_fields,
              [](EC& c, const LearnerContext& x) {
                reservoir_context(c, x);
                c.seed = x.seed;
              },
              &via_make<nn::EchoStateNetwork, EC>>("esn", s, ctx);
}
Result<std::unique_ptr<Learner>> make_ngrc(const ModelSettings& s, const LearnerContext& ctx) {
  return make<NC, &ngrc_fields, &reservoir_context<NC>, &via_make<nn::NextGenReservoir, NC>>("ngrc", s, ctx);
}
Result<std::unique_ptr<Learner>> make_spikenet(const ModelSettings& s, const LearnerContext& ctx) {
  return make<PC, &spikenet_fields,
              [](PC& c, const LearnerContext& x) {
                reservoir_context(c, x);
                c.net.seed = x.seed;
              },
              &via_make<nn::SpikeNetLearner, PC>>("spikenet", s, ctx);
}

}  // namespace

CatalogueEntry esn_row() {
  return {"esn", "cycle-reservoir echo state network with an RLS readout", true, true, true,
          &infos<EC, &esn_fields>, &make_esn, &make_blank<nn::EchoStateNetwork>,
          &settings_of<nn::EchoStateNetwork, EC, &esn_fields>};
}

CatalogueEntry ngrc_row() {
  return {"ngrc", "next-generation reservoir (NVAR features) with an RLS readout", true, true, true,
          &infos<NC, &ngrc_fields>, &make_ngrc, &make_blank<nn::NextGenReservoir>,
          &settings_of<nn::NextGenReservoir, NC, &ngrc_fields>};
}

CatalogueEntry spikenet_row() {
  return {"spikenet", "integer (Q1.14) spiking network trained by e-prop, RLS or integer readout", true, true, true,
          &infos<PC, &spikenet_fields>, &make_spikenet, &make_blank<nn::SpikeNetLearner>,
          &settings_of<nn::SpikeNetLearner, PC, &spikenet_fields>};
}

}  // namespace irithyll::catalogue_detail
