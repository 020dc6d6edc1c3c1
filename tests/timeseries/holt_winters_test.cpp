#include "irithyll/timeseries/holt_winters.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/timeseries/forecasters.hpp"

namespace irithyll::timeseries {
namespace {

HoltWintersConfig cfg(double a, double b, double g, double phi, bool trend, std::uint32_t m, bool mul) {
  HoltWintersConfig c;
  c.alpha = a, c.beta = b, c.gamma = g, c.phi = phi, c.trend = trend, c.seasonality = m, c.multiplicative = mul;
  return c;
}

double one(const Forecaster& f) {
  double v = 0.0;
  EXPECT_TRUE(f.forecast({}, std::span<double>(&v, 1)).is_ok());
  return v;
}

// Two steps of the additive recursion worked by hand: m = 2, l0 = 10,
// b0 = 1, s = (2, -2), alpha = 0.5, beta = 0.5, gamma = 0.5, phi = 1.
TEST(HoltWinters, RecurrenceByHandAdditive) {
  HoltWinters hw(cfg(0.5, 0.5, 0.5, 1.0, true, 2, false));
  ASSERT_TRUE(hw.set_initial_states({10.0, 1.0, {2.0, -2.0}}).is_ok());
  EXPECT_DOUBLE_EQ(one(hw), 13.0);  // 10 + 1 + 2
  ASSERT_TRUE(hw.learn_one(15.0).is_ok());
  // l = .5(15-2) + .5(11) = 12; b = .5(12-10) + .5(1) = 1.5; s0 = .5(15-11) + .5(2) = 3
  EXPECT_DOUBLE_EQ(hw.level(), 12.0);
  EXPECT_DOUBLE_EQ(hw.trend(), 1.5);
  EXPECT_DOUBLE_EQ(one(hw), 12.0 + 1.5 - 2.0);
  ASSERT_TRUE(hw.learn_one(9.0).is_ok());
  // l = .5(9+2) + .5(13.5) = 12.25; b = .5(.25) + .5(1.5) = .875; s1 = .5(9-13.5) + .5(-2) = -3.25
  EXPECT_DOUBLE_EQ(hw.level(), 12.25);
  EXPECT_DOUBLE_EQ(hw.trend(), 0.875);
  EXPECT_EQ(hw.seasonals(), (std::vector<double>{3.0, -3.25}));
  std::vector<double> out(3);
  ASSERT_TRUE(hw.forecast({}, out).is_ok());
  EXPECT_DOUBLE_EQ(out[0], 12.25 + 0.875 + 3.0);
  EXPECT_DOUBLE_EQ(out[1], 12.25 + 2 * 0.875 - 3.25);
  EXPECT_DOUBLE_EQ(out[2], 12.25 + 3 * 0.875 + 3.0);
}

TEST(HoltWinters, RecurrenceByHandMultiplicative) {
  HoltWinters hw(cfg(0.5, 0.5, 0.5, 1.0, false, 2, true));
  ASSERT_TRUE(hw.set_initial_states({10.0, 0.0, {1.2, 0.8}}).is_ok());
  EXPECT_DOUBLE_EQ(one(hw), 12.0);
  ASSERT_TRUE(hw.learn_one(18.0).is_ok());
  // l = .5 * 18/1.2 + .5 * 10 = 12.5; s0 = .5 * 18/10 + .5 * 1.2 = 1.5
  EXPECT_DOUBLE_EQ(hw.level(), 12.5);
  EXPECT_DOUBLE_EQ(one(hw), 12.5 * 0.8);
}

// Damping: the h-step trend contribution is (phi + ... + phi^h) b.
TEST(HoltWinters, DampedTrendFlattens) {
  HoltWinters hw(cfg(0.5, 0.5, 0.0, 0.5, true, 0, false));
  ASSERT_TRUE(hw.set_initial_states({10.0, 4.0, {}}).is_ok());
  std::vector<double> out(4);
  ASSERT_TRUE(hw.forecast({}, out).is_ok());
  EXPECT_DOUBLE_EQ(out[0], 10.0 + 0.5 * 4.0);
  EXPECT_DOUBLE_EQ(out[1], 10.0 + 0.75 * 4.0);
  EXPECT_DOUBLE_EQ(out[3], 10.0 + 0.9375 * 4.0);
}

// A pure seasonal pattern on a line is learned: after the warm-up the
// initial states are exact, so every forecast is exact.
TEST(HoltWinters, SeasonalityOnALineIsExact) {
  const double pattern[4] = {3.0, -1.0, -4.0, 2.0};
  HoltWinters hw(cfg(0.3, 0.1, 0.2, 1.0, true, 4, false));
  for (int t = 0; t < 40; ++t) {
    const double y = 100.0 + 0.5 * (t + 1) + pattern[t % 4];
    if (t >= 8) {
      EXPECT_NEAR(one(hw), y, 1e-9) << "t = " << t;
    }
    ASSERT_TRUE(hw.learn_one(y).is_ok());
  }
  std::vector<double> out(8);
  ASSERT_TRUE(hw.forecast({}, out).is_ok());
  for (int h = 1; h <= 8; ++h) EXPECT_NEAR(out[h - 1], 100.0 + 0.5 * (40 + h) + pattern[(39 + h) % 4], 1e-9);
}

TEST(HoltWinters, InitialStatesFromTwoSeasons) {
  const HoltWintersConfig c = cfg(0.3, 0.1, 0.1, 1.0, true, 2, false);
  const std::vector<double> y = {11.0, 9.0, 15.0, 13.0};  // line 8 + 2t, season (+1, -1)... shifted
  const HoltWintersStates st = holt_winters_initial_states(c, y);
  EXPECT_DOUBLE_EQ(st.trend, 2.0);               // ((15-11) + (13-9)) / 2 / 2
  EXPECT_DOUBLE_EQ(st.level, 10.0 - 2.0 * 1.5);  // mean of the first season - b (m+1)/2
  EXPECT_DOUBLE_EQ(st.seasonals[0] + st.seasonals[1], 0.0);
  EXPECT_DOUBLE_EQ(st.seasonals[0], 2.0);        // 11 - (7 + 2), 15 - (7 + 6)
}

TEST(HoltWinters, BeforeInitialisationRepeatsTheLastValue) {
  HoltWinters hw(cfg(0.3, 0.1, 0.1, 1.0, true, 12, true));
  EXPECT_DOUBLE_EQ(one(hw), 0.0);
  ASSERT_TRUE(hw.learn_one(5.0).is_ok());
  EXPECT_DOUBLE_EQ(one(hw), 5.0);
  EXPECT_FALSE(hw.is_initialized());
}

// A missing value advances the clock on the model's own forecast: the
// season stays aligned and the count does not include it.
TEST(HoltWinters, MissingValuesCoast) {
  const double pattern[3] = {5.0, 0.0, -5.0};
  HoltWinters hw(cfg(0.3, 0.1, 0.2, 1.0, true, 3, false));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int t = 0; t < 30; ++t) {
    const double y = 50.0 + t + pattern[t % 3];
    ASSERT_TRUE(hw.learn_one(t % 7 == 6 ? nan : y).is_ok());
  }
  EXPECT_EQ(hw.n_samples_seen(), 26u);
  EXPECT_NEAR(one(hw), 50.0 + 30 + pattern[0], 1e-6);
  ASSERT_TRUE(hw.learn_one(std::numeric_limits<double>::infinity()).is_ok());
  EXPECT_TRUE(std::isfinite(hw.level()));
  HoltWinters fresh(cfg(0.3, 0.1, 0.2, 1.0, true, 3, false));
  ASSERT_TRUE(fresh.learn_one(nan).is_ok());  // nothing to coast on: ignored
  EXPECT_EQ(fresh.n_samples_seen(), 0u);
}

TEST(HoltWinters, CheckpointResumesBitIdentically) {
  auto made = make_forecaster("holt_winters", {{"seasonality", "5"}, {"multiplicative", "on"}, {"phi", "0.9"}});
  ASSERT_TRUE(made.is_ok());
  Forecaster& a = **made;
  auto series = [](int t) { return 20.0 + 0.1 * t + 3.0 * std::sin(t * 1.3) + (t % 5); };
  for (int cut : {3, 12, 40}) {
    a.reset();
    for (int t = 0; t < cut; ++t) ASSERT_TRUE(a.learn_one(series(t)).is_ok());
    ByteWriter w;
    encode_forecaster(a, w);
    ByteReader r(w.data());
    auto b = decode_forecaster(r);
    ASSERT_TRUE(b.is_ok()) << b.status().message();
    EXPECT_TRUE(r.at_end());
    for (int t = cut; t < cut + 60; ++t) {
      std::vector<double> fa(7), fb(7);
      ASSERT_TRUE(a.forecast({}, fa).is_ok());
      ASSERT_TRUE((*b)->forecast({}, fb).is_ok());
      ASSERT_EQ(fa, fb) << "cut " << cut << " t " << t;
      ASSERT_TRUE(a.learn_one(series(t)).is_ok());
      ASSERT_TRUE((*b)->learn_one(series(t)).is_ok());
    }
    EXPECT_EQ(a.n_samples_seen(), (*b)->n_samples_seen());
  }
}

TEST(HoltWinters, ConfigIsValidated) {
  EXPECT_FALSE(make_forecaster("holt_winters", {{"alpha", "0"}}).is_ok());
  EXPECT_FALSE(make_forecaster("holt_winters", {{"beta", "1.5"}}).is_ok());
  EXPECT_FALSE(make_forecaster("holt_winters", {{"seasonality", "1"}}).is_ok());
  EXPECT_FALSE(make_forecaster("holt_winters", {{"multiplicative", "on"}}).is_ok());
  auto bad = make_forecaster("holt_winters", {{"gamma", "nan"}});
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("gamma"), std::string::npos);
  HoltWinters hw(cfg(0.3, 0.1, 0.1, 1.0, true, 3, false));
  EXPECT_FALSE(hw.set_initial_states({1.0, 0.0, {1.0}}).is_ok());  // 1 seasonal for m = 3
}

}  // namespace
}  // namespace irithyll::timeseries

namespace irithyll::timeseries {
namespace {

// State version 1 wrote the settings as fixed binary fields; such a record
// still decodes, and the current one writes them by name and round-trips.
TEST(HoltWinters, VersionOneSettingsStillDecode) {
  ByteWriter w;
  w.u32(1);
  w.f64(0.3), w.f64(0.1), w.f64(0.2), w.f64(0.9);  // alpha, beta, gamma, phi
  w.boolean(true), w.u32(0), w.boolean(false);      // trend, seasonality, multiplicative
  w.boolean(true), w.f64(5.0), w.f64(0.5);          // initialised, level, trend
  w.f64s(std::vector<double>{0.0});                 // the one-slot season ring
  w.u32(0), w.f64s(std::vector<double>{});          // position, warm-up buffer
  w.f64(5.0), w.u64(10);                            // last value, samples seen
  HoltWinters v1;
  ByteReader r(w.data());
  ASSERT_TRUE(v1.decode(r).is_ok());
  EXPECT_TRUE(r.at_end());
  std::vector<double> out(1);
  ASSERT_TRUE(v1.forecast({}, out).is_ok());
  EXPECT_DOUBLE_EQ(out[0], 5.0 + 0.9 * 0.5);
  ByteWriter again;
  v1.encode(again);
  HoltWinters back;
  ByteReader r2(again.data());
  ASSERT_TRUE(back.decode(r2).is_ok());
  std::vector<double> out2(1);
  ASSERT_TRUE(back.forecast({}, out2).is_ok());
  EXPECT_EQ(out2[0], out[0]);
}

}  // namespace
}  // namespace irithyll::timeseries
