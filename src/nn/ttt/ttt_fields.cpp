// Field table of "ttt": the learner's one list of its settings (name,
// default as printed, range, help), read by the catalogue, `irithyll
// models`, the checkpoints and the bindings.
#include "core/field_rows.hpp"
#include "irithyll/nn/ttt/ttt_learner.hpp"
#include "readout/rls_fields.hpp"

namespace irithyll::nn {

std::span<const ConfigField<TttLearnerConfig>> TttLearner::config_fields() {
  using TC = TttLearnerConfig;
  static const std::vector<ConfigField<TC>> own = {
      {FieldInfo::integer("d-model", "32", "width of the fast-weight layer").in(1, 1024), IRITHYLL_FIELD_UINT(TC, d_model)},
      {FieldInfo::real("eta", "0.01", "fast-weight step size (scaled by the readout's noise ratio, 0.5..2x)").in(0, 10),
       IRITHYLL_FIELD_REAL(TC, eta)},
      {FieldInfo::real("alpha", "0.005", "fast-weight decay per step").in(0, 1), IRITHYLL_FIELD_REAL(TC, alpha)},
      {FieldInfo::real("momentum", "0", "momentum of the fast-weight step (0 = plain SGD)").in(0, 1, false, true),
       IRITHYLL_FIELD_REAL(TC, momentum)},
      {FieldInfo::integer("batch-size", "16", "samples whose fast-weight gradients are averaged per step (1 = online)")
           .in(1, 100000),
       IRITHYLL_FIELD_UINT(TC, batch_size)},
      {FieldInfo::integer("warmup", "10", "samples before the readout trains").in(0, 1e9),
       IRITHYLL_FIELD_UINT(TC, warmup)},
  };
  static const auto rows = join_rows<TC>({own, rls_rows<TC>("0.998", "", "100", "")});
  return rows;
}

}  // namespace irithyll::nn
