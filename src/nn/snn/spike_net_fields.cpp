// Field table of "spikenet": the learner's one list of its settings (name,
// default as printed, range, help, older option names), read by the
// catalogue, `irithyll models`, the checkpoints and the bindings.
#include <string>

#include "core/field_rows.hpp"
#include "irithyll/nn/snn/spike_net_learner.hpp"
#include "readout/rls_fields.hpp"

namespace irithyll::nn {

namespace {
Result<SpikeNetReadout> parse_readout(std::string_view v) {
  if (v == "rls") return SpikeNetReadout::kRls;
  if (v == "eprop") return SpikeNetReadout::kEprop;
  return Status::invalid_argument("readout = '" + std::string(v) + "' is not one of rls|eprop");
}
std::string_view readout_name(SpikeNetReadout r) { return r == SpikeNetReadout::kRls ? "rls" : "eprop"; }
}  // namespace

std::span<const ConfigField<SpikeNetLearnerConfig>> SpikeNetLearner::config_fields() {
  using PC = SpikeNetLearnerConfig;
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

}  // namespace irithyll::nn
