// Continual learning's rows in a learner's field table (core/field_rows.hpp):
// a template over the config type, so every learner with a `continual` member
// (ContinualConfig) lists them as its own rows, with one definition of each
// bound and help text.
#pragma once

#include <string_view>
#include <vector>

#include "core/field_rows.hpp"
#include "irithyll/drift/drift_detector.hpp"
#include "irithyll/nn/continual/continual_config.hpp"

namespace irithyll::nn {

// The help of "continual" for learners whose features are not trained by
// gradient, so that only regeneration applies.
inline constexpr std::string_view kRegenOnlyHelp =
    "continual learning: none | regen (the extractor is not trained by gradient)";

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
        IRITHYLL_FIELD_ENUM(Config, continual.kind, parse_continual_kind, continual_kind_name)},
      R{FieldInfo::choice("continual-detector", "pht", "pht|adwin|ddm|none", "continual: drift detector on the loss"),
        IRITHYLL_FIELD_ENUM(Config, continual.detector, parse_drift_kind, drift_kind_name)},
      R{FieldInfo::real("continual-fraction", "0.01",
                        "continual: share frozen per drift (mask; give e.g. 0.3) or replaced (regen)")
            .in(0, 1, true),
        [](Config& c, std::string_view v) -> Status {
          auto r = parse_field_real("continual-fraction", v);
          if (!r) return r.status();
          (c.continual.kind == ContinualKind::kMask ? c.continual.freeze_fraction : c.continual.regen_fraction) = *r;
          return Status::ok();
        },
        [](const Config& c) {
          return format_field_real(c.continual.kind == ContinualKind::kMask ? c.continual.freeze_fraction
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

}  // namespace irithyll::nn
