// Every detector on the README's drift example: 0/1 errors at rate 0.1 for
// 5000 rows, then 0.4 (the README builds it with awk; here the same law from
// Xorshift64), over 20 seeds; plus a Gaussian mean shift and 100k-row
// stationary streams. Each row of the table states what the detector
// achieves and the per-seed rates measured over 1000 seeds, from which the
// allowed counts follow; the false-failure rate of each bound (a correct
// detector on a different set of 20 seeds exceeding it) is stated with it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "drift/drift_streams.hpp"

namespace irithyll {
namespace {

constexpr int kSeeds = 20;
constexpr int kChange = 5000;

enum class Shape { kErrors, kGaussian };

struct Tally {
  int before = 0;  // seeds with a drift before the change
  int late = 0;    // seeds whose first drift after the change is missing or >= 300 rows late
  int repeat = 0;  // seeds with more than one drift in the 1000 rows after the change
  int warned_before = 0;  // seeds with a warning before the change
};

Tally run_seeds(DriftKind kind, Shape shape, double mean_after = 1.0, double sd = 1.0) {
  Tally t;
  for (int s = 1; s <= kSeeds; ++s) {
    auto d = std::move(make_drift_detector(default_drift_config(kind))).value();
    Xorshift64 rng(0xD81F7ull + static_cast<std::uint64_t>(s) * 7919ull);
    int before = 0, first = -1, near = 0;
    bool warned = false;
    for (int i = 0; i < 2 * kChange; ++i) {
      const bool after = i >= kChange;
      const double v = shape == Shape::kErrors ? (rng.uniform() < (after ? 0.4 : 0.1) ? 1.0 : 0.0)
                                               : rng.normal(after ? mean_after : 0.0, sd);
      const DriftSignal sig = d->update(v);
      warned = warned || (!after && sig == DriftSignal::kWarning);
      if (sig != DriftSignal::kDrift) continue;
      if (!after) {
        ++before;
        continue;
      }
      if (first < 0) first = i;
      near += i < kChange + 1000 ? 1 : 0;
    }
    t.before += before > 0;
    t.late += first < 0 || first >= kChange + 300;
    t.repeat += near > 1;
    t.warned_before += warned;
  }
  return t;
}

struct StepCase {
  const char* label;
  DriftKind kind;
  Shape shape;
  double mean_after, sd;
  // Allowed seeds (of 20) per failure kind; -1 = not checked (documented weakness).
  int before, late, repeat, warned_before;
};

std::ostream& operator<<(std::ostream& os, const StepCase& c) { return os << c.label; }

class StepStream : public ::testing::TestWithParam<StepCase> {};

TEST_P(StepStream, DetectsTheChangeOnce) {
  const StepCase& c = GetParam();
  const Tally t = run_seeds(c.kind, c.shape, c.mean_after, c.sd);
  EXPECT_LE(t.before, c.before) << c.label << ": seeds with a drift before the change";
  EXPECT_LE(t.late, c.late) << c.label << ": seeds without a drift within 300 rows after it";
  if (c.repeat >= 0) {
    EXPECT_LE(t.repeat, c.repeat) << c.label << ": seeds with a second drift within 1000 rows";
  }
  if (c.warned_before >= 0) {
    EXPECT_LE(t.warned_before, c.warned_before) << c.label << ": seeds with a warning before the change";
  }
}

// Per-seed rates measured over 1000 seeds (same generator, seeds 1..1000):
//   adwin  errors: before 0, late 0, repeat 0.6%, warning before 0.1%
//   pht    errors: before 0.4%, late 0, repeat 0.1%, warning before 3.2%
//   hddm_a errors: before 1.7%, late 0.2%, repeat 4.9%, warning before 13.7%
//   hddm_w errors: before 0, late 0, repeat 3.0%, warning before 0 (defaults: confidences 1e-4 and
//          5e-4, lambda 0.02; at MOA's 0.001, 0.005, 0.05 the W-test re-fired on the new level: 38%)
//   ddm    errors: before 0.1%, late 0, repeat 0, warning before 81%, mean delay 65 rows (drift
//          confirmed by the newest 100 values; as published: before 11.1%, late 9.4%, repeat 6.3%)
//   eddm   errors: before 0, late 14.9%, repeat 0, mean delay 163 rows, none missed within 1000 rows
//          (drift confirmed by the newest 50 error distances; as published: before 84.4%, late 8.9%,
//          repeat 80.2%)
//   kswin  errors: late 66% (KS on 0/1 values with 30 per side rarely reaches p <= 0.005)
//   adwin  N(0,1) -> N(1,1): before 0, late 0, repeat 0.6%
//   pht    N(1,.25) -> N(1.5,.25): all 0 (lambda and delta are in the data's units: on N(0,1) the
//          defaults alarm every ~1500 rows, as MOA's and River's do)
//   kswin  N(0,1) -> N(1,1): before 3.0%, late 0, repeat 0.7% (300 seeds; defaults window 300,
//          100 tested, alpha 1e-5; at River's 100, 30, 0.005: before 99.9%, one test per row)
// Bounds: with a per-seed rate p the count over 20 seeds is Binomial(20, p); each bound
// below leaves a tail probability under 1% (0 allowed where p was 0 in 1000 seeds:
// a true rate of 0.1% would fail that bound 2% of the time).
INSTANTIATE_TEST_SUITE_P(
    Detectors, StepStream,
    ::testing::Values(StepCase{"adwin_errors", DriftKind::kAdwin, Shape::kErrors, 0, 0, 0, 0, 1, 0},
                      StepCase{"pht_errors", DriftKind::kPageHinkley, Shape::kErrors, 0, 0, 1, 0, 1, 3},
                      StepCase{"hddm_a_errors", DriftKind::kHddmA, Shape::kErrors, 0, 0, 2, 1, 4, 7},
                      StepCase{"hddm_w_errors", DriftKind::kHddmW, Shape::kErrors, 0, 0, 0, 0, 3, 0},
                      StepCase{"ddm_errors", DriftKind::kDdm, Shape::kErrors, 0, 0, 1, 0, 0, -1},
                      StepCase{"eddm_errors", DriftKind::kEddm, Shape::kErrors, 0, 0, 0, 7, 0, -1},
                      StepCase{"adwin_gaussian", DriftKind::kAdwin, Shape::kGaussian, 1.0, 1.0, 0, 0, 1, -1},
                      StepCase{"pht_gaussian", DriftKind::kPageHinkley, Shape::kGaussian, 0.5, 0.25, 0, 0, 0, 1},
                      StepCase{"kswin_gaussian", DriftKind::kKswin, Shape::kGaussian, 1.0, 1.0, 3, 0, 2, -1}),
    [](const ::testing::TestParamInfo<StepCase>& p) { return std::string(p.param.label); });

// Stationary 0/1 errors at rate 0.1, 100k rows, 5 seeds: false drifts per
// detector. Means per 5 streams measured over 50 other seeds: adwin 0, pht
// 1.8, hddm_a 0.5, hddm_w 0 (but 57 at a stationary rate of 0.4: its
// range-based bound is tight only for rates far from 0.5), ddm 0.2, kswin 0,
// eddm 0 (none in 500 x 100k rows at rates 0.05, 0.1, 0.2 and 0.4; 3483 as published). Each budget leaves a Poisson
// tail under 1% at that mean (1 where none was seen in 5M rows).
TEST(StepStream, StationaryFalseAlarmsAreBounded) {
  struct Budget {
    DriftKind kind;
    double max_total;
  };
  for (const Budget& b : {Budget{DriftKind::kAdwin, 1}, Budget{DriftKind::kPageHinkley, 6}, Budget{DriftKind::kHddmA, 3},
                          Budget{DriftKind::kHddmW, 2}, Budget{DriftKind::kDdm, 3}, Budget{DriftKind::kKswin, 1},
                          Budget{DriftKind::kEddm, 1}}) {
    std::uint64_t alarms = 0;
    for (int s = 1; s <= 5; ++s) {
      auto d = std::move(make_drift_detector(default_drift_config(b.kind))).value();
      Xorshift64 rng(0x57A7ull + static_cast<std::uint64_t>(s) * 104729ull);
      alarms += testing::run_stream(*d, rng, testing::bernoulli_shift(0.1, 0.1), 100000, 100000).false_alarms;
    }
    EXPECT_LE(static_cast<double>(alarms), b.max_total) << drift_kind_name(b.kind);
    std::printf("%s: %llu false drifts over 5 x 100k\n", std::string(drift_kind_name(b.kind)).c_str(),
                static_cast<unsigned long long>(alarms));
  }
}

// EDDM across error rates: its distances scale with 1 / rate, and the
// confirmation's standard error with them. 5 x 100k rows per rate, budget 1
// each: none seen in 500 x 100k rows at any of these rates (DDM there: 0.0074,
// 0.0030, 0.0008, 0.0002 per 10k rows). Even at 0.0006 per 10k (the 95% upper
// bound from none in 50M rows) two alarms in 500k rows have probability
// 0.04% per rate, so the false-failure rate is under 0.2%.
TEST(StepStream, EddmStationaryFalseAlarmsAtEachRate) {
  for (const double rate : {0.05, 0.2, 0.4}) {
    std::uint64_t alarms = 0;
    for (int s = 1; s <= 5; ++s) {
      auto d = std::move(make_drift_detector(default_drift_config(DriftKind::kEddm))).value();
      Xorshift64 rng(0xEDD0ull + static_cast<std::uint64_t>(s) * 104729ull);
      alarms += testing::run_stream(*d, rng, testing::bernoulli_shift(rate, rate), 100000, 100000).false_alarms;
    }
    EXPECT_LE(alarms, 1u) << "error rate " << rate;
  }
}

}  // namespace
}  // namespace irithyll
