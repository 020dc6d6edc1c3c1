// Field tables of "attention" and "loglinear": each learner's one list of
// its settings (name, default as printed, range, help, older option names),
// read by the catalogue, `irithyll models`, the checkpoints and the
// bindings. Shapes and bounds follow the layers' own validate().
#include <string>

#include "core/field_rows.hpp"
#include "irithyll/nn/attention/attention_learner.hpp"
#include "irithyll/nn/attention/log_linear_learner.hpp"
#include "nn/continual/continual_fields.hpp"
#include "readout/rls_fields.hpp"

namespace irithyll::nn {

std::span<const ConfigField<AttentionLearnerConfig>> AttentionLearner::config_fields() {
  using AC = AttentionLearnerConfig;
  static const std::vector<ConfigField<AC>> own = {
      {FieldInfo::text("mode", "gla",
                       "retnet | hawk | gla | gla_vector | deltanet | gated_deltanet | rwkv | mlstm | deltaproduct | "
                       "rwkv7 | rwkv7:upstream | hgrn2 | loglinear[:INNER] | loglinear_mamba2 | loglinear_gated_deltanet"),
       [](AC& c, std::string_view v) -> Status {
         auto mode = parse_attention_mode(v);
         if (!mode) return mode.status();
         c.attention.mode = *mode;
         return Status::ok();
       },
       [](const AC& c) {
         AttentionMode m = c.attention.mode;
         m.max_levels = 32;  // printed by "levels"
         return attention_mode_name(m);
       }},
      {FieldInfo::integer("d-model", "32", "layer width").in(1, 4096), IRITHYLL_FIELD_UINT(AC, attention.d_model)},
      {FieldInfo::integer("n-heads", "4", "heads (n-heads * (d-key + d-value) <= 16384)").in(1, 1024), IRITHYLL_FIELD_UINT(AC, attention.n_heads)},
      {FieldInfo::integer("d-key", "8", "key dimension per head").in(1, 2048), IRITHYLL_FIELD_UINT(AC, attention.d_key)},
      {FieldInfo::integer("d-value", "8", "value dimension per head").in(1, 2048),
       IRITHYLL_FIELD_UINT(AC, attention.d_value)},
      {FieldInfo::integer("levels", "32", "loglinear modes: Fenwick levels").in(1, 62).aka("attention-levels"),
       IRITHYLL_FIELD_UINT(AC, attention.mode.max_levels)},
  };
  static const auto rows = join_rows<AC>({own, rls_rows<AC>("0.9999", "attention-rls-lambda", "100", "attention-rls-delta")});
  return rows;
}

std::span<const ConfigField<LogLinearLearnerConfig>> LogLinearLearner::config_fields() {
  using LC = LogLinearLearnerConfig;
  static const std::vector<ConfigField<LC>> own = {
      {FieldInfo::choice("inner", "gated_deltanet",
                         "retnet|hawk|gla|gla_vector|deltanet|gated_deltanet|rwkv|mlstm|deltaproduct|rwkv7|hgrn2|"
                         "loglinear_mamba2|loglinear_gated_deltanet",
                         "inner mode of the counter form (delta-family modes L2-normalise keys), or the paper's "
                         "Log-Linear Mamba-2 / Gated DeltaNet (Guo et al. 2025)")
           .aka("loglinear-inner"),
       [](LC& c, std::string_view v) -> Status {
         auto mode = parse_attention_mode(v);
         if (!mode) return mode.status();
         c.layer.form = LogLinearForm::kCounter;
         if (mode->kind == AttentionKind::kLogLinearMamba2) c.layer.form = LogLinearForm::kMamba2;
         else if (mode->kind == AttentionKind::kLogLinearGatedDeltaNet) c.layer.form = LogLinearForm::kGatedDeltaNet;
         else c.layer.inner = mode->kind;
         return Status::ok();
       },
       [](const LC& c) {
         if (c.layer.form == LogLinearForm::kMamba2) return std::string("loglinear_mamba2");
         if (c.layer.form == LogLinearForm::kGatedDeltaNet) return std::string("loglinear_gated_deltanet");
         return std::string(attention_kind_name(c.layer.inner));
       }},
      {FieldInfo::integer("d-model", "16", "projected input width").in(1, 4096).aka("loglinear-d-model"),
       IRITHYLL_FIELD_UINT(LC, layer.d_model)},
      {FieldInfo::integer("d-key", "8", "key dimension").in(1, 4096).aka("loglinear-d-key"),
       IRITHYLL_FIELD_UINT(LC, layer.d_key)},
      {FieldInfo::integer("d-value", "8", "value (output) dimension").in(1, 4096).aka("loglinear-d-value"),
       IRITHYLL_FIELD_UINT(LC, layer.d_value)},
      {FieldInfo::integer("levels", "32", "Fenwick levels").in(1, 62).aka("loglinear-levels"),
       IRITHYLL_FIELD_UINT(LC, layer.max_levels)},
      {FieldInfo::real("lr", "0.05", "SGD learning rate of the layer").in(0, 10).aka("loglinear-lr"),
       IRITHYLL_FIELD_REAL(LC, layer.learning_rate)},
  };
  static const auto rows = join_rows<LC>({own, rls_rows<LC>("0.9999", "loglinear-rls-lambda", "100", ""),
                                          continual_rows<LC>("none|ewc|mask|regen", "continual learning: none | ewc | mask | regen")});
  return rows;
}

}  // namespace irithyll::nn
