#include "irithyll/ensemble/lr_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace irithyll {

namespace {
constexpr double kFloor = 1e-8;
double clamp_rate(double lr) { return std::isfinite(lr) ? std::clamp(lr, kFloor, 1.0) : kFloor; }
}  // namespace

Result<LrSchedule> parse_lr_schedule(std::string_view name) {
  if (name == "constant") return LrSchedule::kConstant;
  if (name == "linear") return LrSchedule::kLinear;
  if (name == "exponential") return LrSchedule::kExponential;
  if (name == "cosine") return LrSchedule::kCosine;
  if (name == "plateau") return LrSchedule::kPlateau;
  return Status::invalid_argument("schedule = '" + std::string(name) +
                                  "' is not one of constant|linear|exponential|cosine|plateau");
}

std::string_view lr_schedule_name(LrSchedule s) {
  switch (s) {
    case LrSchedule::kConstant: return "constant";
    case LrSchedule::kLinear: return "linear";
    case LrSchedule::kExponential: return "exponential";
    case LrSchedule::kCosine: return "cosine";
    case LrSchedule::kPlateau: return "plateau";
  }
  return "?";
}

double LrScheduler::next(double loss) noexcept {
  const double t = static_cast<double>(step_);
  switch (config_.kind) {
    case LrSchedule::kConstant: lr_ = lr0_; break;
    case LrSchedule::kLinear: {
      const double frac = std::min(t / static_cast<double>(config_.decay_steps), 1.0);
      lr_ = lr0_ - (lr0_ - config_.lr_final) * frac;
      break;
    }
    case LrSchedule::kExponential: lr_ = std::max(lr0_ * std::pow(config_.gamma, t), kFloor); break;
    case LrSchedule::kCosine: {
      const double period = static_cast<double>(config_.decay_steps);
      const double phase = static_cast<double>(step_ % config_.decay_steps) / period;
      lr_ = config_.lr_final + 0.5 * (lr0_ - config_.lr_final) * (1.0 + std::cos(std::numbers::pi * phase));
      break;
    }
    case LrSchedule::kPlateau:
      if (std::isfinite(loss)) {
        const double alpha = 1.0 - 1.0 / static_cast<double>(config_.patience + 1);
        smoothed_loss_ = has_best_ ? alpha * smoothed_loss_ + (1.0 - alpha) * loss : loss;
        if (!has_best_ || smoothed_loss_ < best_loss_) {
          best_loss_ = smoothed_loss_;
          has_best_ = true;
          since_best_ = 0;
        } else if (++since_best_ > config_.patience) {
          lr_ = std::max(lr_ * config_.factor, config_.lr_min);
          since_best_ = 0;
        }
      }
      break;
  }
  lr_ = clamp_rate(lr_);
  ++step_;
  return lr_;
}

void LrScheduler::encode(ByteWriter& out) const {
  out.u8(static_cast<std::uint8_t>(config_.kind));
  out.f64(config_.lr_final);
  out.u64(config_.decay_steps);
  out.f64(config_.gamma);
  out.f64(config_.factor);
  out.u64(config_.patience);
  out.f64(config_.lr_min);
  out.f64(lr0_);
  out.f64(lr_);
  out.u64(step_);
  out.f64(best_loss_);
  out.f64(smoothed_loss_);
  out.boolean(has_best_);
  out.u64(since_best_);
}

Status LrScheduler::decode(ByteReader& in) {
  LrScheduler s;
  const std::uint8_t kind = in.u8("schedule");
  s.config_.lr_final = in.f64("lr final");
  s.config_.decay_steps = in.u64("decay steps");
  s.config_.gamma = in.f64("gamma");
  s.config_.factor = in.f64("factor");
  s.config_.patience = in.u64("patience");
  s.config_.lr_min = in.f64("lr min");
  s.lr0_ = in.f64("lr0");
  s.lr_ = in.f64("lr");
  s.step_ = in.u64("step");
  s.best_loss_ = in.f64("best loss");
  s.smoothed_loss_ = in.f64("smoothed loss");
  s.has_best_ = in.u8("has best") != 0;
  s.since_best_ = in.u64("since best");
  if (!in.ok()) return in.status();
  if (kind > 4 || s.config_.decay_steps == 0 || !(s.lr_ >= kFloor && s.lr_ <= 1.0) || !(s.lr0_ > 0.0 && s.lr0_ <= 1.0))
    return Status::corruption("lr schedule: bad state");
  s.config_.kind = static_cast<LrSchedule>(kind);
  *this = s;
  return Status::ok();
}

}  // namespace irithyll
