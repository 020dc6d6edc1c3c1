// Field tables of "esn" and "ngrc": each learner's one list of its settings
// (name, default as printed, range, help, older option names), read by the
// catalogue, `irithyll models`, the checkpoints and the bindings.
#include "core/field_rows.hpp"
#include "irithyll/nn/reservoir/esn.hpp"
#include "irithyll/nn/reservoir/ngrc.hpp"
#include "readout/rls_fields.hpp"

namespace irithyll::nn {

std::span<const ConfigField<EsnConfig>> EchoStateNetwork::config_fields() {
  using EC = EsnConfig;
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

std::span<const ConfigField<NgrcLearnerConfig>> NextGenReservoir::config_fields() {
  using NC = NgrcLearnerConfig;
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

}  // namespace irithyll::nn
