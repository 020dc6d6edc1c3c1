// Statistical behaviour of every drift detector (style.md #14): detection
// delay after a known change and false-alarm counts on stationary streams,
// each over many seeded streams with an explicit budget. Seeds are fixed, so
// the outcome is reproducible; the budgets leave room for any seed set.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "drift/drift_streams.hpp"

namespace irithyll {
namespace {

using testing::StreamDraw;

struct DelayCase {
  std::string label;
  DriftKind kind;
  StreamDraw draw;
  std::uint64_t change_at;
  std::int64_t max_delay;  // D: a detection counts when it comes within D samples of the change
  int seeds;
  double min_detected_fraction;
};

std::ostream& operator<<(std::ostream& os, const DelayCase& c) { return os << c.label; }

class DriftDelayTest : public ::testing::TestWithParam<DelayCase> {};

TEST_P(DriftDelayTest, DetectsWithinBudget) {
  const DelayCase& c = GetParam();
  int detected = 0;
  std::vector<std::int64_t> delays;
  for (int seed = 1; seed <= c.seeds; ++seed) {
    Xorshift64 rng(0xD1F7u + static_cast<std::uint64_t>(seed) * 7919u);
    auto made = make_drift_detector(default_drift_config(c.kind));
    ASSERT_TRUE(made.is_ok()) << made.status().to_string();
    auto out = testing::run_stream(**made, rng, c.draw, c.change_at, c.change_at + 4 * c.max_delay);
    if (out.delay >= 0 && out.delay < c.max_delay) ++detected;
    delays.push_back(out.delay);
  }
  const double fraction = static_cast<double>(detected) / c.seeds;
  EXPECT_GE(fraction, c.min_detected_fraction)
      << c.label << ": detected " << detected << " of " << c.seeds << " within " << c.max_delay << " samples";
}

// D per case: about twice the worst delay seen while calibrating, so the
// budget states the detector's speed without being a golden value.
INSTANTIATE_TEST_SUITE_P(
    Detectors, DriftDelayTest,
    ::testing::Values(
        // Mean 1 -> 2 at sd 0.25: PH's sum climbs ~1 per sample, so ~lambda = 50 samples.
        DelayCase{"pht_gaussian_mean_shift", DriftKind::kPageHinkley, testing::gaussian_shift(1.0, 2.0, 0.25), 1000,
                  100, 100, 0.95},
        DelayCase{"adwin_gaussian_mean_shift", DriftKind::kAdwin, testing::gaussian_shift(1.0, 2.0, 0.25), 1000, 100,
                  100, 0.95},
        // One-sigma shift of unit-variance noise.
        DelayCase{"adwin_gaussian_unit_shift", DriftKind::kAdwin, testing::gaussian_shift(0.0, 1.0, 1.0), 1000, 200,
                  100, 0.95},
        DelayCase{"adwin_bernoulli_0.2_to_0.5", DriftKind::kAdwin, testing::bernoulli_shift(0.2, 0.5), 1000, 400, 100,
                  0.95},
        // DDM compares against the mean since its last reset, so it is slower.
        DelayCase{"ddm_bernoulli_0.2_to_0.5", DriftKind::kDdm, testing::bernoulli_shift(0.2, 0.5), 1000, 1000, 100,
                  0.95},
        DelayCase{"ddm_continuous_error_scale_doubles", DriftKind::kDdm, testing::abs_gaussian_scale(1.0, 2.0), 1000,
                  600, 100, 0.95}),
    [](const ::testing::TestParamInfo<DelayCase>& param_info) {
      std::string name = param_info.param.label;
      for (char& ch : name)
        if (ch == '.') ch = '_';
      return name;
    });

struct StationaryCase {
  std::string label;
  DriftKind kind;
  StreamDraw draw;
  int seeds;
  std::uint64_t length;
  double max_total_alarms;  // over all seeds together
};

std::ostream& operator<<(std::ostream& os, const StationaryCase& c) { return os << c.label; }

class DriftFalseAlarmTest : public ::testing::TestWithParam<StationaryCase> {};

TEST_P(DriftFalseAlarmTest, StaysWithinBudget) {
  const StationaryCase& c = GetParam();
  std::uint64_t alarms = 0;
  for (int seed = 1; seed <= c.seeds; ++seed) {
    Xorshift64 rng(0x5EA5u + static_cast<std::uint64_t>(seed) * 104729u);
    auto made = make_drift_detector(default_drift_config(c.kind));
    ASSERT_TRUE(made.is_ok());
    alarms += testing::run_stream(**made, rng, c.draw, c.length, c.length).false_alarms;
  }
  EXPECT_LE(static_cast<double>(alarms), c.max_total_alarms)
      << c.label << ": " << alarms << " false drifts over " << c.seeds << " x " << c.length << " samples";
}

constexpr int kStationarySeeds = 50;
constexpr std::uint64_t kStationaryLength = 100000;
constexpr double kStationarySamples = static_cast<double>(kStationarySeeds) * kStationaryLength;

// Page-Hinkley: for i.i.d. noise of variance s^2 the mean run between false
// alarms is about s^2/(2 delta^2) (exp(2 delta lambda/s^2) - 1 - 2 delta lambda/s^2)
// (Siegmund). At s = 0.25, delta = 0.005, lambda = 50 that is ~3.7e6 samples,
// so 5e6 samples expect ~1.4 alarms; the budget is 4x that (Poisson tail < 1e-3).
double page_hinkley_budget(double sd) {
  const double a = 2.0 * 0.005 * 50.0 / (sd * sd);
  const double arl = sd * sd / (2.0 * 0.005 * 0.005) * (std::exp(a) - 1.0 - a);
  return 4.0 * std::max(1.0, kStationarySamples / arl);
}

// ADWIN: each check (every 32 updates past the minimum window) raises a false
// cut with probability at most delta, so the budget is delta x checks.
double adwin_budget() { return kAdwinDefaultDelta * kStationarySamples / 32.0; }

// DDM has no confidence parameter with a stated rate: it compares the running
// mean with its own running minimum, and that comparison crosses 3 s_min about
// once per few e-folds of stream length after each reset (0.2-0.45 per 1e5
// samples measured). Budget: at most 0.6 false drifts per 1e5-sample stream on
// average (a DDM that records s_min = 0 signals every ~31 samples on
// all-zero starts).
constexpr double kDdmBudget = 0.6 * kStationarySamples / 1e5;

INSTANTIATE_TEST_SUITE_P(
    Detectors, DriftFalseAlarmTest,
    ::testing::Values(
        StationaryCase{"pht_gaussian", DriftKind::kPageHinkley, testing::gaussian_shift(1.0, 1.0, 0.25),
                       kStationarySeeds, kStationaryLength, page_hinkley_budget(0.25)},
        StationaryCase{"adwin_gaussian", DriftKind::kAdwin, testing::gaussian_shift(0.0, 0.0, 1.0), kStationarySeeds,
                       kStationaryLength, adwin_budget()},
        StationaryCase{"adwin_bernoulli_0_2", DriftKind::kAdwin, testing::bernoulli_shift(0.2, 0.2), kStationarySeeds,
                       kStationaryLength, adwin_budget()},
        StationaryCase{"ddm_bernoulli_0_2", DriftKind::kDdm, testing::bernoulli_shift(0.2, 0.2), kStationarySeeds,
                       kStationaryLength, kDdmBudget},
        StationaryCase{"ddm_bernoulli_0_01", DriftKind::kDdm, testing::bernoulli_shift(0.01, 0.01), kStationarySeeds,
                       kStationaryLength, kDdmBudget},
        StationaryCase{"ddm_continuous", DriftKind::kDdm, testing::abs_gaussian_scale(1.0, 1.0), kStationarySeeds,
                       kStationaryLength, kDdmBudget}),
    [](const ::testing::TestParamInfo<StationaryCase>& param_info) { return param_info.param.label; });

}  // namespace
}  // namespace irithyll
