// Learning-rate schedules for adaptive_sgbt: the rate for sample number
// `step` (0-based) given the loss of the sample just predicted.
//
//   constant      lr0
//   linear        lr0 - (lr0 - lr_final) min(step / T, 1)
//   exponential   max(lr0 gamma^step, 1e-8)
//   cosine        lr_final + (lr0 - lr_final)(1 + cos(pi (step mod P) / P)) / 2
//   plateau       lr <- max(lr factor, lr_min) once the loss has not beaten its
//                 best for more than `patience` samples (then the count restarts).
//                 The loss compared is an average over about `patience`
//                 samples (EWMA, alpha = 1 - 1/patience), not the last
//                 sample's: the Rust library compares single-sample losses, whose
//                 best is soon near 0 and never beaten again, so its rate
//                 decays to the floor on any stream (Friedman r2 0.18 -> 0.87).
//
// Every schedule returns a rate in [1e-8, 1]. Cost O(1) per sample; the
// plateau schedule keeps three numbers of state.
#pragma once

#include <cstdint>
#include <string_view>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

enum class LrSchedule : std::uint8_t { kConstant = 0, kLinear = 1, kExponential = 2, kCosine = 3, kPlateau = 4 };
Result<LrSchedule> parse_lr_schedule(std::string_view name);
std::string_view lr_schedule_name(LrSchedule s);

struct LrScheduleConfig {
  LrSchedule kind = LrSchedule::kConstant;
  double lr_final = 0.001;        // linear: the rate reached at T; cosine: the minimum
  std::uint64_t decay_steps = 10000;  // linear: T; cosine: the period P
  double gamma = 0.9999;          // exponential: per-sample factor, (0, 1]
  double factor = 0.5;            // plateau: multiplier on a plateau, (0, 1)
  std::uint64_t patience = 1000;  // plateau: samples without a new best loss
  double lr_min = 1e-4;           // plateau: floor
};

class LrScheduler {
 public:
  LrScheduler() = default;
  LrScheduler(const LrScheduleConfig& config, double lr0) : config_(config), lr0_(lr0), lr_(lr0) {}
  // The rate for this sample; advances the schedule.
  double next(double loss) noexcept;
  double current() const noexcept { return lr_; }
  std::uint64_t step() const noexcept { return step_; }
  const LrScheduleConfig& config() const noexcept { return config_; }

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  LrScheduleConfig config_;
  double lr0_ = 0.1, lr_ = 0.1;
  std::uint64_t step_ = 0;
  double best_loss_ = 0.0;
  double smoothed_loss_ = 0.0;
  bool has_best_ = false;
  std::uint64_t since_best_ = 0;
};

}  // namespace irithyll
