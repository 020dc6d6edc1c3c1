// Field table of "mamba": the learner's one list of its settings (name,
// default as printed, range, help, older option names), read by the
// catalogue, `irithyll models`, the checkpoints and the bindings.
#include <string>

#include "core/field_rows.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "nn/continual/continual_fields.hpp"
#include "readout/rls_fields.hpp"

namespace irithyll::nn {

namespace {

Result<MambaVersion> parse_mamba_version(std::string_view v) {
  if (v == "v1") return MambaVersion::kV1;
  if (v == "v3") return MambaVersion::kV3;
  if (v == "v3-tustin") return MambaVersion::kV3Tustin;
  if (v == "v3-mimo") return MambaVersion::kV3Mimo;
  if (v == "bd") return MambaVersion::kBlockDiagonal;
  return Status::invalid_argument("version = '" + std::string(v) + "' is not one of v1|v3|v3-tustin|v3-mimo|bd");
}

std::string_view mamba_version_name(MambaVersion v) {
  switch (v) {
    case MambaVersion::kV1: return "v1";
    case MambaVersion::kV3: return "v3";
    case MambaVersion::kV3Tustin: return "v3-tustin";
    case MambaVersion::kV3Mimo: return "v3-mimo";
    case MambaVersion::kBlockDiagonal: return "bd";
  }
  return "?";
}

}  // namespace

std::span<const ConfigField<MambaLearnerConfig>> MambaLearner::config_fields() {
  using MC = MambaLearnerConfig;
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
      {FieldInfo::integer("state-feature-cap", "64",
                          "the readout also sees the SSM state h_{t-1} when it has at most this many entries")
           .in(0, 1e9),
       IRITHYLL_FIELD_UINT(MC, state_feature_cap)},
      {FieldInfo::integer("warmup", "10", "samples before the readout trains").in(0, 1e9).aka("mamba-warmup"),
       IRITHYLL_FIELD_UINT(MC, warmup)},
  };
  static const auto rows = join_rows<MC>({own, rls_rows<MC>("0.998", "mamba-rls-lambda", "100", "mamba-rls-delta"),
                                          continual_rows<MC>("none|regen", kRegenOnlyHelp)});
  return rows;
}

}  // namespace irithyll::nn
