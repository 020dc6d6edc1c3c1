// SRPConfig's field table (its own settings, then its member trees').
#include <algorithm>
#include <cmath>
#include <string>

#include "ensemble/member_tree_rows.hpp"
#include "irithyll/ensemble/srp.hpp"

namespace irithyll {

Result<SRPTraining> parse_srp_training(std::string_view name) {
  if (name == "patches") return SRPTraining::kPatches;
  if (name == "subspaces") return SRPTraining::kSubspaces;
  if (name == "resampling") return SRPTraining::kResampling;
  return Status::invalid_argument("unknown SRP training method '" + std::string(name) +
                                  "' (patches|subspaces|resampling)");
}

std::string_view srp_training_name(SRPTraining t) {
  switch (t) {
    case SRPTraining::kPatches: return "patches";
    case SRPTraining::kSubspaces: return "subspaces";
    case SRPTraining::kResampling: return "resampling";
  }
  return "?";
}

std::size_t SRPConfig::subspace(std::size_t d) const {
  if (training == SRPTraining::kResampling) return d;
  // MOA's percentage mode: round(d * p / 100), at least one feature.
  const auto m = static_cast<std::size_t>(std::lround(static_cast<double>(d) * subspace_size / 100.0));
  return std::clamp<std::size_t>(m, 1, std::max<std::size_t>(d, 1));
}

std::span<const ConfigField<SRPConfig>> StreamingRandomPatches::config_fields() {
  static const std::vector<ConfigField<SRPConfig>> rows = [] {
    using Row = ConfigField<SRPConfig>;
    std::vector<Row> table = {
        Row{FieldInfo::integer("n-models", "10", "members (MOA's default is 100)").in(1, 1000),
            IRITHYLL_FIELD_UINT(SRPConfig, n_models)},
        Row{FieldInfo::choice("training-method", "patches", "patches|subspaces|resampling",
                              "subspace per member plus online bagging, subspace only, or bagging only"),
            IRITHYLL_FIELD_ENUM(SRPConfig, training, parse_srp_training, srp_training_name)},
        Row{FieldInfo::real("subspace-size", "60", "percent of the features each member sees").in(0, 100, true),
            IRITHYLL_FIELD_REAL(SRPConfig, subspace_size)},
        Row{FieldInfo::real("lambda", "6", "Poisson rate of each member's sample weight (online bagging)").in(0, 30, true),
            IRITHYLL_FIELD_REAL(SRPConfig, lambda)},
        Row{FieldInfo::real("warning-delta", "0.0001", "ADWIN confidence of the warning that starts a background member")
                .in(0, 1, true, true)
                .or_off(),
            IRITHYLL_FIELD_REAL(SRPConfig, warning_delta)},
        Row{FieldInfo::real("drift-delta", "1e-05", "ADWIN confidence of the drift that replaces a member")
                .in(0, 1, true, true)
                .or_off(),
            IRITHYLL_FIELD_REAL(SRPConfig, drift_delta)},
        Row{FieldInfo::choice("vote", "weighted", "weighted|majority", "classification vote: accuracy-weighted or one per member"),
            IRITHYLL_FIELD_ENUM(SRPConfig, vote, parse_arf_vote, arf_vote_name)},
    };
    ensemble_detail::append_member_tree_rows(table, "50", "0.01", /*classification_only=*/false, "adaptive");
    // Last row: checkpoints write every row but this one (srp_codec.cpp).
    table.push_back(Row{FieldInfo::integer("threads", "1", "training threads: members split into that many groups, same results (not stored in checkpoints)").in(1, 256),
                        IRITHYLL_FIELD_UINT(SRPConfig, threads)});
    return table;
  }();
  return rows;
}

}  // namespace irithyll
