// Tunable: a narrow capability for learners whose settings can be read as
// signals and nudged while they learn, by a person watching a deployed model
// (`irithyll inspect`, `irithyll adjust`, Python `config_diagnostics()` /
// `adjust_config()` / `apply_structural_change()`) or by an online tuner.
// Front ends ask a Learner for it with dynamic_cast, as for ModelReport;
// models without settings worth tuning carry no empty hook.
//
// Every change is part of the model from then on: it is written into the
// checkpoint's settings, so a model saved after an adjustment resumes
// bit-identically to the one that was adjusted in memory.
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <string_view>

#include "irithyll/core/status.hpp"

namespace irithyll {

// Five signals about whether the settings fit the stream, each defined by
// the model that reports it (0 where a model has nothing to say). The order
// is fixed so that a tuner can read them as a vector.
struct ConfigDiagnostics {
  // In [-1, 1]: > 0 when successive corrections keep pushing the same way
  // (the model under-steps: a larger learning rate would help), < 0 when
  // they alternate (it over-steps).
  double residual_alignment = 0.0;
  // In [0, 1]: how much the regularisation shrinks what the data asks for
  // (0: it does not bind; 1: it decides everything).
  double regularization_sensitivity = 0.0;
  // In [0, 1]: the share of the model's evidence held where its structure
  // cannot grow further (1: the depth or size limit binds).
  double depth_sufficiency = 0.0;
  // The number of free parameters the model currently fits.
  double effective_dof = 0.0;
  // A model-scale spread of its predictions (0 before it has learned).
  double uncertainty = 0.0;

  std::array<double, 5> as_array() const {
    return {residual_alignment, regularization_sensitivity, depth_sufficiency, effective_dof, uncertainty};
  }
};

// The names of the five signals, in ConfigDiagnostics::as_array's order.
inline constexpr std::array<std::string_view, 5> kConfigDiagnosticNames = {
    "residual_alignment", "regularization_sensitivity", "depth_sufficiency", "effective_dof", "uncertainty"};

// The argument rule of every adjust_config: a finite multiplier > 0 and a
// finite lambda change, else a message prefixed by the model's name.
inline Status check_adjustment(std::string_view model, double lr_multiplier, double lambda_delta) {
  if (!(lr_multiplier > 0.0) || !std::isfinite(lr_multiplier))
    return Status::invalid_argument(std::string(model) + ": the learning-rate multiplier must be a finite number > 0, not " +
                                    std::to_string(lr_multiplier));
  if (!std::isfinite(lambda_delta))
    return Status::invalid_argument(std::string(model) + ": the lambda change must be a finite number");
  return Status::ok();
}

// The range of a prune half-life in samples (0 = off); SGBT's
// prune-half-life setting takes the same.
inline constexpr double kMinPruneHalfLife = 1.0;
inline constexpr double kMaxPruneHalfLife = 1e12;

// The argument rule of every set_prune_half_life: 0 (off) or a number of
// samples in [kMinPruneHalfLife, kMaxPruneHalfLife].
inline Status check_prune_half_life(std::string_view model, double half_life) {
  if (half_life == 0.0 || (half_life >= kMinPruneHalfLife && half_life <= kMaxPruneHalfLife)) return Status::ok();
  return Status::invalid_argument(std::string(model) +
                                  ": the prune half-life must be 0 (off) or a number of samples in [1, 1e12], not " +
                                  std::to_string(half_life));
}

class Tunable {
 public:
  virtual ~Tunable() = default;
  // O(model size); reads the model only.
  virtual ConfigDiagnostics config_diagnostics() const = 0;
  // Multiplies the learning rate by lr_multiplier (> 0, finite) and adds
  // lambda_delta (finite) to the L2 regularisation. The results are held in
  // the setting's documented range: the rate is clamped to it and lambda
  // never drops below 0. A bad argument changes nothing and says why.
  virtual Status adjust_config(double lr_multiplier, double lambda_delta) = 0;
  // Grows or shrinks the model's structure: depth_delta levels of tree
  // depth and steps_delta boosting steps, each clamped to the setting's
  // range. A model without that structure refuses a non-zero delta by name.
  virtual Status apply_structural_change(int depth_delta, int steps_delta) = 0;
  // Sets the half-life, in samples, of the running averages by which the
  // model judges its parts for pruning (0 turns it off). A model without
  // such parts refuses a non-zero half-life by name.
  virtual Status set_prune_half_life(double half_life) = 0;
  // Applies the model's proactive pruning rule once, now: true when a part
  // was replaced, false when none qualified or the model keeps no averages
  // to judge by (then nothing changes).
  virtual Result<bool> check_proactive_prune() = 0;
};

}  // namespace irithyll
