#include <cmath>

#include "irithyll/drift/hddm.hpp"

namespace irithyll {
namespace {
constexpr std::uint8_t kHddmWFormatVersion = 1;

double mcdiarmid(double w2, double conf) { return std::sqrt(w2 * std::log(1.0 / conf) / 2.0); }
}  // namespace

HddmW::HddmW(double drift_confidence, double warning_confidence, double lambda, bool two_sided) noexcept
    : drift_conf_(drift_confidence), warning_conf_(warning_confidence), lambda_(lambda), two_sided_(two_sided) {}

void HddmW::Ewma::add(double value, double lambda) noexcept {
  if (empty) {
    empty = false;
    mean = value;
    w2 = 1.0;
    return;
  }
  const double keep = 1.0 - lambda;
  mean = lambda * value + keep * mean;
  w2 = lambda * lambda + keep * keep * w2;
}

double HddmW::estimated_mean() const noexcept { return total_.empty ? 0.0 : total_.mean; }

void HddmW::update_side(Side& side, double value, double sign) noexcept {
  // sign +1 watches increases (cut where EWMA + bound was smallest), -1 decreases.
  const double here = total_.mean + sign * mcdiarmid(total_.w2, drift_conf_);
  if (!side.has_cut || sign * here < sign * side.cut_bound) {
    side.has_cut = true;
    side.cut_bound = here;
    side.at_cut = total_;
    side.after = Ewma{};
  } else {
    side.after.add(value, lambda_);
  }
}

bool HddmW::shifted(const Side& side, double conf, double sign) const noexcept {
  if (!side.has_cut || side.after.empty) return false;
  const double bound = mcdiarmid(side.at_cut.w2 + side.after.w2, conf);
  return sign * (side.after.mean - side.at_cut.mean) > bound;
}

DriftSignal HddmW::update(double value) noexcept {
  if (!(value >= 0.0 && value <= 1.0)) return DriftSignal::kStable;  // NaN fails both
  total_.add(value, lambda_);
  update_side(up_, value, 1.0);
  if (two_sided_) update_side(down_, value, -1.0);
  if (shifted(up_, drift_conf_, 1.0) || (two_sided_ && shifted(down_, drift_conf_, -1.0))) {
    reset();
    return DriftSignal::kDrift;
  }
  const bool warn = shifted(up_, warning_conf_, 1.0) || (two_sided_ && shifted(down_, warning_conf_, -1.0));
  return warn ? DriftSignal::kWarning : DriftSignal::kStable;
}

void HddmW::reset() noexcept { *this = HddmW(drift_conf_, warning_conf_, lambda_, two_sided_); }

std::unique_ptr<DriftDetector> HddmW::clone_fresh() const {
  return std::make_unique<HddmW>(drift_conf_, warning_conf_, lambda_, two_sided_);
}

std::unique_ptr<DriftDetector> HddmW::clone() const { return std::make_unique<HddmW>(*this); }

namespace {
void put_ewma(ByteWriter& out, bool empty, double mean, double w2) {
  out.boolean(empty);
  out.f64(mean);
  out.f64(w2);
}
}  // namespace

void HddmW::encode(ByteWriter& out) const {
  out.u8(kHddmWFormatVersion);
  out.f64(drift_conf_);
  out.f64(warning_conf_);
  out.f64(lambda_);
  out.boolean(two_sided_);
  put_ewma(out, total_.empty, total_.mean, total_.w2);
  for (const Side* s : {&up_, &down_}) {
    out.boolean(s->has_cut);
    out.f64(s->cut_bound);
    put_ewma(out, s->at_cut.empty, s->at_cut.mean, s->at_cut.w2);
    put_ewma(out, s->after.empty, s->after.mean, s->after.w2);
  }
}

Status HddmW::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("hddm_w version");
  if (in.ok() && version != kHddmWFormatVersion) in.fail("unsupported hddm_w version " + std::to_string(version));
  const double drift_conf = in.f64("hddm_w drift confidence");
  const double warning_conf = in.f64("hddm_w warning confidence");
  const double lambda = in.f64("hddm_w lambda");
  const bool two_sided = in.boolean("hddm_w two_sided");
  HddmW d(drift_conf, warning_conf, lambda, two_sided);
  bool valid = true;
  auto get_ewma = [&in, &valid](Ewma& e) {
    e.empty = in.boolean("hddm_w ewma empty");
    e.mean = in.f64("hddm_w ewma mean");
    e.w2 = in.f64("hddm_w ewma weight");
    valid = valid && std::isfinite(e.mean) && e.mean >= 0.0 && e.mean <= 1.0 && std::isfinite(e.w2) && e.w2 >= 0.0 &&
            e.w2 <= 1.0 && (e.empty ? e.w2 == 0.0 : e.w2 > 0.0);
  };
  get_ewma(d.total_);
  for (Side* s : {&d.up_, &d.down_}) {
    s->has_cut = in.boolean("hddm_w has cut");
    s->cut_bound = in.f64("hddm_w cut bound");
    valid = valid && std::isfinite(s->cut_bound);
    get_ewma(s->at_cut);
    get_ewma(s->after);
  }
  if (!in.ok()) return in.status();
  in.expect(drift_conf > 0.0 && drift_conf < warning_conf && warning_conf < 1.0 && lambda > 0.0 && lambda < 1.0,
            "hddm_w parameters");
  in.expect(valid, "hddm_w statistics");
  if (!in.ok()) return in.status();
  *this = d;
  return Status::ok();
}

}  // namespace irithyll
