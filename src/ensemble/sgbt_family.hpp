// What the SGBT family members (built on SGBT committees) share: one field
// table and one checkpoint settings record.
//
// The one field table of an SGBT family member (adaptive, quantile,
// distributional and the MoE SGBTs): its own rows, then the SGBT rows it
// shares, re-targeted at its `base` member, so `--learning-rate` means the
// same in every member. The loss and its parameter are not shared: each
// member fixes its own (pinball per quantile, Gaussian, the task's).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/nested_rows.hpp"
#include "irithyll/core/config_codec.hpp"
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

// The SGBT settings inside a member's config (`base`, bagging's `sgbt`, or
// the config itself).
template <class Config>
SGBTConfig& shared_sgbt(Config& c) {
  if constexpr (std::is_same_v<Config, SGBTConfig>) return c;
  else if constexpr (requires { c.sgbt; }) return c.sgbt;
  else return c.base;
}

// A member's checkpoint opens with its settings, by name through its one
// table (core/config_codec.hpp, compact lengths), and its context; the state follows, with
// the inner SGBTs' states alone (their configs are derived from these
// settings, so nothing is written twice). `threads` is a run-time setting:
// a multi-thread model writes its sequential twin's bytes.
template <class T>
void encode_settings(const typename T::Config& config, const LearnerContext& context, ByteWriter& out) {
  typename T::Config settings = config;
  shared_sgbt(settings).threads = 1;
  encode_config(T::config_fields(), settings, out, ConfigLengths::kVarint);
  encode_context(context, out);
}

// Reads what encode_settings wrote and builds the blank model it describes
// (T::make checks the settings and the context as for a new model).
template <class T>
Result<std::unique_ptr<T>> decode_settings(ByteReader& in) {
  typename T::Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(T::kName, T::config_fields(), in, config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  auto made = T::make(config, context);
  if (!made) return made.status().with_context(std::string(T::kName) + " checkpoint");
  return made;
}

// The regression-only members refuse a classification context by name.
inline Status require_regression(std::string_view model, const LearnerContext& context) {
  if (context.task == Task::kRegression) return Status::ok();
  return Status::invalid_argument(std::string(model) + ": regression only (the task is classification)");
}

// make() of a regression-only member built from its config alone: the
// seed from the context, the width from the first sample.
template <class T>
Result<std::unique_ptr<T>> make_regressor(const typename T::Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(require_regression(T::kName, context));
  typename T::Config c = config;
  shared_sgbt(c).seed = context.seed;
  IRITHYLL_RETURN_IF_ERROR(c.validate());
  return std::make_unique<T>(c);
}

}  // namespace irithyll::ensemble_detail
