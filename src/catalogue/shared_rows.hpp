// Rows that several models' tables share: the RLS readout and continual
// learning. Templates over the config type, so each model's table lists them
// as its own rows (one definition of each bound and help text).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/field_rows.hpp"
#include "irithyll/drift/drift_detector.hpp"
#include "irithyll/nn/continual/continual_config.hpp"

namespace irithyll::catalogue_detail {

// Joins a model's own rows with shared ones, once (tables are static).
template <class Config>
std::vector<ConfigField<Config>> join_rows(std::initializer_list<std::span<const ConfigField<Config>>> parts) {
  std::vector<ConfigField<Config>> out;
  for (auto part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

// RLS readout: forgetting factor and initial P = delta I. `lambda_default`
// and `delta_default` are the model's own defaults as printed.
template <class Config>
std::vector<ConfigField<Config>> rls_rows(std::string_view lambda_default, std::string_view lambda_alias,
                                          std::string_view delta_default, std::string_view delta_alias) {
  return {
      ConfigField<Config>{FieldInfo::real("rls-lambda", lambda_default, "RLS forgetting factor of the readout")
                              .in(0, 1, true)
                              .aka(lambda_alias),
                          IRITHYLL_FIELD_REAL(Config, rls.forgetting_factor)},
      ConfigField<Config>{
          FieldInfo::real("rls-delta", delta_default, "RLS initial P = delta I").in(0, 1e12, true).aka(delta_alias),
          IRITHYLL_FIELD_REAL(Config, rls.delta)},
  };
}

// Continual learning on a learner's `continual` member. "continual-fraction"
// is the share frozen per drift (mask) or replaced (regen): one option, read
// by whichever strategy is chosen, so it comes after "continual".
// `kinds` lists the strategies the learner accepts ("none|regen" where the
// features are not trained by gradient, so EWC and masking have no weights).
template <class Config>
std::vector<ConfigField<Config>> continual_rows(std::string_view kinds, std::string_view kinds_help) {
  using R = ConfigField<Config>;
  return {
      R{FieldInfo::choice("continual", "none", kinds, kinds_help),
        IRITHYLL_FIELD_ENUM(Config, continual.kind, nn::parse_continual_kind, nn::continual_kind_name)},
      R{FieldInfo::choice("continual-detector", "pht", "pht|adwin|ddm|none", "continual: drift detector on the loss"),
        IRITHYLL_FIELD_ENUM(Config, continual.detector, parse_drift_kind, drift_kind_name)},
      R{FieldInfo::real("continual-fraction", "0.01",
                        "continual: share frozen per drift (mask; give e.g. 0.3) or replaced (regen)")
            .in(0, 1, true),
        [](Config& c, std::string_view v) -> Status {
          auto r = parse_field_real("continual-fraction", v);
          if (!r) return r.status();
          (c.continual.kind == nn::ContinualKind::kMask ? c.continual.freeze_fraction : c.continual.regen_fraction) = *r;
          return Status::ok();
        },
        [](const Config& c) {
          return format_field_real(c.continual.kind == nn::ContinualKind::kMask ? c.continual.freeze_fraction
                                                                                 : c.continual.regen_fraction);
        }},
      R{FieldInfo::real("continual-alpha", "0.99", "continual: EWMA decay of Fisher / importance / utility")
            .in(0, 1, false, true),
        IRITHYLL_FIELD_REAL(Config, continual.alpha)},
      R{FieldInfo::real("ewc-lambda", "1", "continual ewc: penalty strength").in(0, 1e9),
        IRITHYLL_FIELD_REAL(Config, continual.ewc_lambda)},
      R{FieldInfo::integer("regen-interval", "1000", "continual regen: updates between regenerations").in(1, 1e12),
        IRITHYLL_FIELD_UINT(Config, continual.interval)},
      R{FieldInfo::boolean("regen-on-drift", "on", "continual regen: also regenerate after a drift"),
        IRITHYLL_FIELD_BOOL(Config, continual.regen_on_drift)},
  };
}

}  // namespace irithyll::catalogue_detail
