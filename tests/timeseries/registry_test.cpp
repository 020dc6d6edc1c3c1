// The forecaster registry, the per-horizon metrics, the decompositions, and
// hostile checkpoint bytes for every forecaster.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/timeseries/decomposition.hpp"
#include "irithyll/timeseries/forecasters.hpp"
#include "irithyll/timeseries/horizon_metrics.hpp"

namespace irithyll::timeseries {
namespace {

TEST(ForecasterRegistry, ListsAndBuildsByName) {
  ASSERT_NE(find_forecaster("holt_winters"), nullptr);
  ASSERT_NE(find_forecaster("snarimax"), nullptr);
  auto unknown = make_forecaster("prophet", {});
  ASSERT_FALSE(unknown.is_ok());
  EXPECT_NE(unknown.status().message().find("holt_winters, snarimax"), std::string::npos);
  auto bad = make_forecaster("snarimax", {{"learning_rate", "-1"}});
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("learning-rate"), std::string::npos);
  EXPECT_FALSE(make_forecaster("snarimax", {{"nope", "1"}}).is_ok());
  const std::string json = forecasters_json();
  EXPECT_NE(json.find("\"name\":\"holt_winters\""), std::string::npos);
  EXPECT_NE(json.find("\"python_name\":\"learning_rate\""), std::string::npos);
  for (const auto& e : forecasters()) {
    auto made = e.make({}, {});
    ASSERT_TRUE(made.is_ok()) << e.name;
    EXPECT_EQ((*made)->name(), e.name);
    const ModelSettings s = e.settings_of(**made);
    EXPECT_EQ(s.items().size(), e.fields().size());
    bool has_period = false;
    for (const FieldInfo& f : e.fields()) has_period = has_period || f.name == e.period_field;
    EXPECT_TRUE(has_period) << e.name;
  }
}

// Every prefix of a valid checkpoint, and every single-byte change in its
// header, is refused or decodes to a usable model; nothing crashes.
TEST(ForecasterRegistry, HostileBytesAreRefused) {
  for (const auto& e : forecasters()) {
    auto made = e.make({{std::string(e.period_field), "3"}}, {});
    ASSERT_TRUE(made.is_ok());
    for (int t = 0; t < 20; ++t) ASSERT_TRUE((*made)->learn_one(1.0 + t % 3 + 0.1 * t).is_ok());
    ByteWriter w;
    encode_forecaster(**made, w);
    const std::vector<std::uint8_t> bytes = w.data();
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      ByteReader r(std::span<const std::uint8_t>(bytes.data(), n));
      EXPECT_FALSE(decode_forecaster(r).is_ok()) << e.name << " prefix " << n;
    }
    for (std::size_t i = 0; i < std::min<std::size_t>(bytes.size(), 120); ++i) {
      std::vector<std::uint8_t> bad = bytes;
      bad[i] ^= 0xA5;
      ByteReader r(bad);
      auto d = decode_forecaster(r);
      if (d.is_ok()) {
        std::vector<double> out(3);
        (void)(*d)->forecast({}, out);
        (void)(*d)->learn_one(1.0);
      }
    }
  }
}

TEST(HorizonMetrics, PerStep) {
  HorizonMetrics m(2);
  m.update(0, 10.0, 8.0);
  m.update(0, 10.0, 14.0);
  m.update(1, 0.0, 0.0);
  m.update(1, std::nan(""), 3.0);  // missing: not scored
  EXPECT_DOUBLE_EQ(m.mae()[0], 3.0);
  EXPECT_DOUBLE_EQ(m.rmse()[0], std::sqrt(10.0));
  EXPECT_DOUBLE_EQ(m.smape()[0], 100.0 * (4.0 / 18.0 + 8.0 / 24.0) / 2.0);
  EXPECT_EQ(m.count(1), 1u);
  EXPECT_DOUBLE_EQ(m.smape()[1], 0.0);
}

TEST(Decomposition, WindowRecoversAnAdditiveSeason) {
  const double pattern[4] = {3.0, -1.0, -4.0, 2.0};
  std::vector<double> y;
  for (int t = 0; t < 24; ++t) y.push_back(50.0 + 0.5 * t + pattern[t % 4]);
  auto d = decompose_window(y, 4);
  ASSERT_TRUE(d.is_ok());
  for (int t = 0; t < 24; ++t) EXPECT_NEAR(d->seasonal[t], pattern[t % 4], 1e-12);
  EXPECT_TRUE(std::isnan(d->trend[0]));
  EXPECT_NEAR(d->trend[10], 55.0, 1e-12);
  EXPECT_NEAR(d->resid[10], 0.0, 1e-12);
  EXPECT_FALSE(decompose_window(std::span<const double>(y.data(), 7), 4).is_ok());
  y[3] = std::nan("");
  EXPECT_FALSE(decompose_window(y, 4).is_ok());
}

TEST(Decomposition, StreamingIdentityAndValidation) {
  EXPECT_FALSE(StreamingDecomposition::make(1).is_ok());
  EXPECT_FALSE(StreamingDecomposition::make(4, 1.0).is_ok());
  auto d = StreamingDecomposition::make(4);
  ASSERT_TRUE(d.is_ok());
  for (int t = 0; t < 50; ++t) {
    auto p = d->update(10.0 + (t % 4));
    ASSERT_TRUE(p.is_ok());
    EXPECT_DOUBLE_EQ(p->trend + p->seasonal + p->residual, p->observed);
  }
  EXPECT_EQ(d->current_position(), 2u);
  EXPECT_FALSE(d->update(std::nan("")).is_ok());
  ByteWriter w;
  d->encode(w);
  auto e = StreamingDecomposition::make(9);
  ByteReader r(w.data());
  ASSERT_TRUE(e->decode(r).is_ok());
  EXPECT_EQ(e->n_samples_seen(), 50u);
  EXPECT_EQ(e->update(12.0)->residual, d->update(12.0)->residual);
}

}  // namespace
}  // namespace irithyll::timeseries
