// SNARIMAX with a catalogue regressor (River's regressor=): built through the
// catalogue's factory at the first fitted row, checkpointed with its kind and
// state so decoding continues bit-identically, and refused when the text
// names no regressor.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/core/bytes.hpp"
#include "irithyll/timeseries/forecasters.hpp"
#include "irithyll/timeseries/snarimax.hpp"

namespace irithyll::timeseries {
namespace {

double series(int t) { return 10.0 + 3.0 * std::sin(t * 3.14159265358979 / 2.0) + 0.05 * t; }

TEST(SnarimaxRegressor, LearnsThroughTheRegressorAndResumesBitIdentically) {
  const ModelSettings s{{"p", "2"}, {"m", "4"}, {"sp", "1"},
                        {"regressor", "standard_scaler|linear_regression(learning-rate=0.05;intercept-lr=0.3)"}};
  auto a = make_forecaster("snarimax", s, catalogue_member_factory());
  ASSERT_TRUE(a.is_ok()) << a.status().to_string();
  double err = 0.0;
  for (int t = 0; t < 400; ++t) {
    const double x[1] = {t / 400.0};
    double f = 0.0;
    ASSERT_TRUE((*a)->forecast(x, std::span<double>(&f, 1)).is_ok());
    if (t >= 300) err += std::fabs(f - series(t));
    ASSERT_TRUE((*a)->learn_one(series(t), x).is_ok());
  }
  const auto* sn = dynamic_cast<const Snarimax*>(a->get());
  ASSERT_NE(sn, nullptr);
  ASSERT_NE(sn->regressor(), nullptr);
  EXPECT_EQ(sn->regressor()->n_features(), 4u);  // 2 AR lags, 1 seasonal lag, 1 exogenous
  // The lags explain the season: the last 100 one-step errors are a
  // fraction of the series' spread (sd ~2.2).
  EXPECT_LT(err / 100.0, 0.5);

  ByteWriter out;
  encode_forecaster(**a, out);
  ByteReader without(out.data());
  EXPECT_FALSE(decode_forecaster(without).is_ok());  // the regressor needs the catalogue to decode
  ByteReader in(out.data());
  auto b = decode_forecaster(in, catalogue_member_factory());
  ASSERT_TRUE(b.is_ok()) << b.status().to_string();
  for (int t = 400; t < 500; ++t) {
    const double x[1] = {t / 400.0};
    double fa = 0.0, fb = 0.0;
    ASSERT_TRUE((*a)->forecast(x, std::span<double>(&fa, 1)).is_ok());
    ASSERT_TRUE((*b)->forecast(x, std::span<double>(&fb, 1)).is_ok());
    ASSERT_EQ(fa, fb) << t;
    ASSERT_TRUE((*a)->learn_one(series(t), x).is_ok());
    ASSERT_TRUE((*b)->learn_one(series(t), x).is_ok());
  }
  ByteWriter oa, ob;
  encode_forecaster(**a, oa);
  encode_forecaster(**b, ob);
  EXPECT_EQ(oa.data(), ob.data());
}

TEST(SnarimaxRegressor, RefusesWhatIsNotARegressor) {
  for (const char* bad : {"logistic_regression", "no_such_model", "standard_scaler", "linear_regression(nope=1)"}) {
    auto m = make_forecaster("snarimax", {{"regressor", bad}}, catalogue_member_factory());
    EXPECT_FALSE(m.is_ok()) << bad;
  }
  // Without the catalogue's factory the setting cannot be honoured.
  EXPECT_FALSE(make_forecaster("snarimax", {{"regressor", "linear_regression"}}).is_ok());
}

}  // namespace
}  // namespace irithyll::timeseries
