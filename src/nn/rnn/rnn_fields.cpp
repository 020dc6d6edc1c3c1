// Field tables of "slstm", "lstm" and "mgrade": each learner's one list of its
// settings (name, default as printed, range, help, older option names), read
// by the catalogue, `irithyll models`, the checkpoints and the bindings.
#include "core/field_rows.hpp"
#include "irithyll/nn/rnn/lstm_learner.hpp"
#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"
#include "nn/continual/continual_fields.hpp"
#include "readout/rls_fields.hpp"

namespace irithyll::nn {

std::span<const ConfigField<SlstmLearnerConfig>> SlstmLearner::config_fields() {
  using SC = SlstmLearnerConfig;
  static const std::vector<ConfigField<SC>> own = {
      {FieldInfo::integer("hidden", "32", "hidden units").in(1, 1024).aka("slstm-hidden"),
       IRITHYLL_FIELD_UINT(SC, d_hidden)},
      {FieldInfo::integer("heads", "4", "heads of the block-diagonal recurrence (must divide hidden)")
           .in(1, 1024)
           .aka("slstm-heads"),
       IRITHYLL_FIELD_UINT(SC, n_heads)},
      {FieldInfo::real("forget-bias-start", "3", "forget-gate bias of the first unit (linspace to the last)").in(-100, 100),
       IRITHYLL_FIELD_REAL(SC, forget_bias_start)},
      {FieldInfo::real("forget-bias-stop", "6", "forget-gate bias of the last unit").in(-100, 100),
       IRITHYLL_FIELD_REAL(SC, forget_bias_stop)},
      {FieldInfo::integer("warmup", "10", "samples before the readout trains").in(0, 1e9).aka("slstm-warmup"),
       IRITHYLL_FIELD_UINT(SC, warmup)},
  };
  static const auto rows = join_rows<SC>({own, rls_rows<SC>("0.998", "slstm-rls-lambda", "100", "slstm-rls-delta"),
                                          continual_rows<SC>("none|regen", kRegenOnlyHelp)});
  return rows;
}

std::span<const ConfigField<LstmLearnerConfig>> LstmLearner::config_fields() {
  using LC = LstmLearnerConfig;
  static const std::vector<ConfigField<LC>> own = {
      {FieldInfo::integer("hidden", "32", "hidden units").in(1, 1024), IRITHYLL_FIELD_UINT(LC, d_hidden)},
      {FieldInfo::real("forget-bias", "1", "forget-gate bias of every unit").in(-100, 100),
       IRITHYLL_FIELD_REAL(LC, forget_bias)},
      {FieldInfo::integer("warmup", "10", "samples before the readout trains").in(0, 1e9), IRITHYLL_FIELD_UINT(LC, warmup)},
  };
  static const auto rows = join_rows<LC>({own, rls_rows<LC>("0.998", "lstm-rls-lambda", "100", "lstm-rls-delta"),
                                          continual_rows<LC>("none|regen", kRegenOnlyHelp)});
  return rows;
}

std::span<const ConfigField<MgradeLearnerConfig>> MgradeLearner::config_fields() {
  using GC = MgradeLearnerConfig;
  static const std::vector<ConfigField<GC>> own = {
      {FieldInfo::integer("hidden", "32", "minGRU hidden units").in(1, 1024).aka("mgrade-hidden"),
       IRITHYLL_FIELD_UINT(GC, d_hidden)},
      {FieldInfo::integer("taps", "4", "delay-convolution taps per feature").in(1, 256).aka("mgrade-taps"),
       IRITHYLL_FIELD_UINT(GC, taps)},
      {FieldInfo::integer("warmup", "10", "samples before the readout trains").in(0, 1e9).aka("mgrade-warmup"),
       IRITHYLL_FIELD_UINT(GC, warmup)},
  };
  static const auto rows = join_rows<GC>({own, rls_rows<GC>("0.998", "mgrade-rls-lambda", "100", "mgrade-rls-delta"),
                                          continual_rows<GC>("none|regen", kRegenOnlyHelp)});
  return rows;
}

}  // namespace irithyll::nn
