// What the SGBT family members (built on SGBT committees) share.
//
// The one field table of an SGBT family member (adaptive, quantile,
// distributional and the MoE SGBTs): its own rows, then the SGBT rows it
// shares, re-targeted at its `base` member, so `--learning-rate` means the
// same in every member. The loss and its parameter are not shared: each
// member fixes its own (pinball per quantile, Gaussian, the task's).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/nested_rows.hpp"
#include "irithyll/ensemble/sgbt_config.hpp"
#include "irithyll/learner.hpp"

namespace irithyll::ensemble_detail {

inline bool family_shares(const FieldInfo& f) { return f.name != "loss" && f.name != "loss-param"; }

template <class Config, auto kOwn>
std::span<const ConfigField<Config>> family_table() {
  static const std::vector<ConfigField<Config>> rows = [] {
    const auto own = kOwn();
    std::vector<ConfigField<Config>> out(own.begin(), own.end());
    append_nested_rows<Config, SGBTConfig, &Config::base, &sgbt_config_fields>(out, &family_shares);
    return out;
  }();
  return rows;
}

// The regression-only members refuse a classification context by name.
inline Status require_regression(std::string_view model, const LearnerContext& context) {
  if (context.task == Task::kRegression) return Status::ok();
  return Status::invalid_argument(std::string(model) + ": regression only (the task is classification)");
}

}  // namespace irithyll::ensemble_detail
