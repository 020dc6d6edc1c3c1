// Catalogue rows "mamba" (selective SSM, Mamba-1/Mamba-3), "slstm" (xLSTM's
// sLSTM) and "mgrade" (delay convolution + minGRU): fixed recurrent feature
// extractors feeding an RLS readout, with optional neuron regeneration.
#include "irithyll/nn/rnn/mgrade_learner.hpp"
#include "irithyll/nn/rnn/slstm_learner.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "rows.hpp"
#include "nn/continual/continual_fields.hpp"
#include "readout/rls_fields.hpp"

namespace irithyll::catalogue_detail {
namespace {

using MC = nn::MambaLearnerConfig;
using SC = nn::SlstmLearnerConfig;
using GC = nn::MgradeLearnerConfig;

constexpr std::string_view kRegenHelp = "continual learning: none | regen (the extractor is not trained by gradient)";

Result<nn::MambaVersion> parse_mamba_version(std::string_view v) {
  if (v == "v1") return nn::MambaVersion::kV1;
  if (v == "v3") return nn::MambaVersion::kV3;
  if (v == "v3-tustin") return nn::MambaVersion::kV3Tustin;
  if (v == "v3-mimo") return nn::MambaVersion::kV3Mimo;
  if (v == "bd") return nn::MambaVersion::kBlockDiagonal;
  return Status::invalid_argument("version = '" + std::string(v) + "' is not one of v1|v3|v3-tustin|v3-mimo|bd");
}

std::string_view mamba_version_name(nn::MambaVersion v) {
  switch (v) {
    case nn::MambaVersion::kV1: return "v1";
    case nn::MambaVersion::kV3: return "v3";
    case nn::MambaVersion::kV3Tustin: return "v3-tustin";
    case nn::MambaVersion::kV3Mimo: return "v3-mimo";
    case nn::MambaVersion::kBlockDiagonal: return "bd";
  }
  return "?";
}

std::span<const ConfigField<MC>> mamba_fields() {
  static const std::vector<ConfigField<MC>> own = {
      {FieldInfo::choice("version", "v1", "v1|v3|v3-tustin|v3-mimo|bd", "Mamba-1, Mamba-3 (SISO, Tustin, MIMO) or block-diagonal")
           .aka("mamba-version"),
       IRITHYLL_FIELD_ENUM(MC, version, parse_mamba_version, mamba_version_name)},
      {FieldInfo::integer("n-state", "32", "states per channel (v1) or per group (v3)").in(1, 1024).aka("mamba-n-state"),
       IRITHYLL_FIELD_UINT(MC, n_state)},
      {FieldInfo::integer("groups", "1", "v3: groups of channels sharing B/C (must divide the feature count)")
           .in(1, 4096)
           .aka("mamba-groups"),
       IRITHYLL_FIELD_UINT(MC, n_groups)},
      {FieldInfo::integer("rank", "2", "v3-mimo: rank of the input product B X^T").in(1, 16).aka("mamba-rank"),
       IRITHYLL_FIELD_UINT(MC, rank)},
      {FieldInfo::integer("block", "1", "bd: channels per block (must divide the feature count)")
           .in(1, 4096)
           .aka("mamba-block"),
       IRITHYLL_FIELD_UINT(MC, block_size)},
      {FieldInfo::boolean("bcnorm", "on", "v3: RMS-normalise B and C").aka("mamba-bcnorm"),
       IRITHYLL_FIELD_BOOL(MC, use_bcnorm)},
      {FieldInfo::real("bcnorm-lr", "0.003", "v3: SGD rate of BCNorm's gamma on the readout loss (0 = fixed gamma)")
           .in(0, 1)
           .aka("mamba-bcnorm-lr"),
       IRITHYLL_FIELD_REAL(MC, bcnorm_lr)},
      {FieldInfo::integer("warmup", "10", "samples before the readout trains").in(0, 1e9).aka("mamba-warmup"),
       IRITHYLL_FIELD_UINT(MC, warmup)},
  };
  static const auto rows = join_rows<MC>({own, rls_rows<MC>("0.998", "mamba-rls-lambda", "100", "mamba-rls-delta"),
                                          nn::continual_rows<MC>("none|regen", kRegenHelp)});
  return rows;
}

std::span<const ConfigField<SC>> slstm_fields() {
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
                                          nn::continual_rows<SC>("none|regen", kRegenHelp)});
  return rows;
}

std::span<const ConfigField<GC>> mgrade_fields() {
  static const std::vector<ConfigField<GC>> own = {
      {FieldInfo::integer("hidden", "32", "minGRU hidden units").in(1, 1024).aka("mgrade-hidden"),
       IRITHYLL_FIELD_UINT(GC, d_hidden)},
      {FieldInfo::integer("taps", "4", "delay-convolution taps per feature").in(1, 256).aka("mgrade-taps"),
       IRITHYLL_FIELD_UINT(GC, taps)},
      {FieldInfo::integer("warmup", "10", "samples before the readout trains").in(0, 1e9).aka("mgrade-warmup"),
       IRITHYLL_FIELD_UINT(GC, warmup)},
  };
  static const auto rows = join_rows<GC>({own, rls_rows<GC>("0.998", "mgrade-rls-lambda", "100", "mgrade-rls-delta"),
                                          nn::continual_rows<GC>("none|regen", kRegenHelp)});
  return rows;
}

// The three configs name their context fields alike.
template <class C>
void recurrent_context(C& c, const LearnerContext& ctx) {
  c.task = ctx.task;
  c.n_classes = ctx.n_classes;
  c.n_features = ctx.n_features;
  c.seed = ctx.seed;
  c.continual.seed = ctx.seed;
}

Result<std::unique_ptr<Learner>> make_mamba(const ModelSettings& s, const LearnerContext& ctx) {
  return make<MC, &mamba_fields, &recurrent_context<MC>, &validate_and_construct<nn::MambaLearner, MC>>("mamba", s, ctx);
}
Result<std::unique_ptr<Learner>> make_slstm(const ModelSettings& s, const LearnerContext& ctx) {
  return make<SC, &slstm_fields, &recurrent_context<SC>, &validate_and_construct<nn::SlstmLearner, SC>>("slstm", s, ctx);
}
Result<std::unique_ptr<Learner>> make_mgrade(const ModelSettings& s, const LearnerContext& ctx) {
  return make<GC, &mgrade_fields, &recurrent_context<GC>, &validate_and_construct<nn::MgradeLearner, GC>>("mgrade", s,
                                                                                                          ctx);
}

}  // namespace

CatalogueEntry mamba_row() {
  return {"mamba", "selective state-space model (Mamba-1/Mamba-3) with an RLS readout", true, true, true,
          &infos<MC, &mamba_fields>, &make_mamba, &make_blank<nn::MambaLearner>,
          &settings_of<nn::MambaLearner, MC, &mamba_fields>};
}

CatalogueEntry slstm_row() {
  return {"slstm", "stabilised sLSTM (xLSTM) features with an RLS readout", true, true, true,
          &infos<SC, &slstm_fields>, &make_slstm, &make_blank<nn::SlstmLearner>,
          &settings_of<nn::SlstmLearner, SC, &slstm_fields>};
}

CatalogueEntry mgrade_row() {
  return {"mgrade", "mGRADE (delay convolution + minGRU) with an RLS readout", true, true, true,
          &infos<GC, &mgrade_fields>, &make_mgrade, &make_blank<nn::MgradeLearner>,
          &settings_of<nn::MgradeLearner, GC, &mgrade_fields>};
}

}  // namespace irithyll::catalogue_detail
