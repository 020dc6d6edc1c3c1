// What the SGBT family members (built on SGBT committees) share: one field
// table and one checkpoint settings record.
//
// The one field table of an SGBT family member (adaptive, quantile,
// distributional and the MoE SGBTs): its own rows, then the SGBT rows it
// shares, re-targeted at its `base` member, so `--learning-rate` means the
// same in every member. The loss and its parameter are not shared: each
// member fixes its own (pinball per quantile, Gaussian, the task's).
#pragma once

#include <algorithm>
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
template <class Config>
const SGBTConfig& shared_sgbt(const Config& c) {
  return shared_sgbt(const_cast<Config&>(c));
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

// Each tree slot's state takes at least this many bytes of a record: a
// slot never trained, with no drift detector, 2 bins and depth 1, writes
// about 150.
inline constexpr double kMinSlotRecordBytes = 32.0;

// A lower bound on the tree slots a member's settings and context build:
// the boosting steps, times each factor that multiplies them (experts,
// bags, quantiles, targets, a committee per class beyond two; the
// distributional models' location and scale, and the mixture's shadow of
// each expert). Settings name a model in a few bytes; this many slots need
// gigabytes at 64 experts of 10,000 steps.
template <class T>
double min_tree_slots(const typename T::Config& c, const LearnerContext& context) {
  double slots = shared_sgbt(c).n_steps;
  if constexpr (requires { c.n_experts; }) slots *= c.n_experts;
  if constexpr (requires { c.n_bags; }) slots *= c.n_bags;
  if constexpr (requires { c.quantiles.size(); }) slots *= static_cast<double>(std::max<std::size_t>(1, c.quantiles.size()));
  if constexpr (requires { c.expert.honest_sigma; }) slots *= 4;  // each expert and its shadow, two committees each
  else if constexpr (requires { c.honest_sigma; }) slots *= 2;    // location and scale
  slots *= static_cast<double>(std::max<std::size_t>(1, context.n_targets));
  if (context.task == Task::kClassification && context.n_classes > 2) slots *= static_cast<double>(context.n_classes);
  return slots;
}

// A record too short for the tree slots its settings name is refused before
// anything is built: a few hostile bytes could otherwise make the reader
// allocate more than the machine holds.
template <class T>
Status check_slots_fit(const typename T::Config& config, const LearnerContext& context, const ByteReader& in) {
  const double slots = min_tree_slots<T>(config, context);
  if (slots * kMinSlotRecordBytes <= static_cast<double>(in.remaining())) return Status::ok();
  return Status::corruption(std::string(T::kName) + " checkpoint: its settings name at least " +
                            std::to_string(static_cast<std::uint64_t>(slots)) + " tree slots, but only " +
                            std::to_string(in.remaining()) + " bytes of state follow");
}

// Reads what encode_settings wrote and builds the blank model it describes
// (T::make checks the settings and the context as for a new model).
template <class T>
Result<std::unique_ptr<T>> decode_settings(ByteReader& in) {
  typename T::Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(T::kName, T::config_fields(), in, config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  IRITHYLL_RETURN_IF_ERROR(check_slots_fit<T>(config, context, in));
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
