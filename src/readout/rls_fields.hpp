// The RLS readout's rows in a learner's field table (core/field_rows.hpp):
// a template over the config type, so every learner with an `rls` member
// (RlsConfig) lists them as its own rows, with one definition of each bound
// and help text.
#pragma once

#include <string_view>
#include <vector>

#include "core/field_rows.hpp"

namespace irithyll {

// Forgetting factor and initial P = delta I. `lambda_default` and
// `delta_default` are the model's own defaults as printed; the aliases are
// the older option names (empty: none).
template <class Config>
std::vector<ConfigField<Config>> rls_rows(std::string_view lambda_default, std::string_view lambda_alias,
                                          std::string_view delta_default, std::string_view delta_alias) {
  return {
      ConfigField<Config>{FieldInfo::real("rls-lambda", lambda_default, "RLS forgetting factor of the readout")
                              .in(kMinForgettingFactor, 1)
                              .aka(lambda_alias),
                          IRITHYLL_FIELD_REAL(Config, rls.forgetting_factor)},
      ConfigField<Config>{
          FieldInfo::real("rls-delta", delta_default, "RLS initial P = delta I").in(kMinRlsDelta, kMaxRlsDelta).aka(delta_alias),
          IRITHYLL_FIELD_REAL(Config, rls.delta)},
  };
}

}  // namespace irithyll
