#include "irithyll/ensemble/quantile_sgbt.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tree/streams.hpp"

namespace irithyll {
namespace {

std::vector<double> pava(std::vector<double> v) {
  std::vector<double> s, c;
  pava_non_decreasing(v, s, c);
  return v;
}

TEST(Pava, InventoryExamples) {
  EXPECT_EQ(pava({3, 1, 2}), (std::vector<double>{2, 2, 2}));
  EXPECT_EQ(pava({5, 4, 3, 2, 1}), (std::vector<double>{3, 3, 3, 3, 3}));
  EXPECT_EQ(pava({1, 5, 3, 4, 6}), (std::vector<double>{1, 4, 4, 4, 6}));
  EXPECT_EQ(pava({1, 2, 3}), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(pava({}), (std::vector<double>{}));
}

TEST(Pava, OutputIsMonotoneAndKeepsTheSum) {
  Xorshift64 rng(4);
  std::vector<double> s, c;
  for (int t = 0; t < 1000; ++t) {
    std::vector<double> v(1 + rng.below(9));
    double sum = 0.0;
    for (double& x : v) sum += x = rng.normal();
    pava_non_decreasing(v, s, c);
    double after = 0.0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      after += v[i];
      if (i > 0) {
        ASSERT_LE(v[i - 1], v[i]);
      }
    }
    EXPECT_NEAR(after, sum, 1e-9);
  }
}

QuantileSGBTConfig fast_config() {
  QuantileSGBTConfig c;
  c.sgbt.n_steps = 20;
  c.sgbt.learning_rate = 0.1;
  c.sgbt.grace_period = 50;
  return c;
}

TEST(QuantileSGBT, CoversItsLevelsAndNeverCrosses) {
  auto m = QuantileSGBT::make(fast_config(), Task::kRegression, 3).value();
  test::FriedmanStream s;
  std::vector<double> q(3);
  int below[3] = {0, 0, 0}, n = 0;
  for (int i = 0; i < 12000; ++i) {
    const double y = s.next();
    m->predict_quantiles(s.x, q);
    ASSERT_LE(q[0], q[1]);
    ASSERT_LE(q[1], q[2]);
    if (i >= 6000) {
      for (int k = 0; k < 3; ++k) below[k] += y <= q[k];
      ++n;
    }
    m->learn_one(s.x, y);
  }
  // Observed P(y <= q_tau) near tau; a loose band: the point is that each
  // committee tracks its own level (a shared model would put all at ~0.5).
  EXPECT_NEAR(static_cast<double>(below[0]) / n, 0.05, 0.05);
  EXPECT_NEAR(static_cast<double>(below[1]) / n, 0.5, 0.08);
  EXPECT_NEAR(static_cast<double>(below[2]) / n, 0.95, 0.05);
  EXPECT_EQ(m->predict_one(s.x), (m->predict_quantiles(s.x, q), q[1]));
}

TEST(QuantileSGBT, ResumeIsBitIdenticalAndHostileBytesGiveStatus) {
  auto a = QuantileSGBT::make(fast_config(), Task::kRegression, 8).value();
  test::FriedmanStream s;
  for (int i = 0; i < 1500; ++i) {
    const double y = s.next();
    a->learn_one(s.x, y);
  }
  ByteWriter w;
  a->encode(w);
  const auto bytes = w.take();
  QuantileSGBT b;
  ByteReader in(bytes);
  ASSERT_TRUE(b.decode(in).is_ok());
  test::FriedmanStream s2 = s;
  for (int i = 0; i < 1000; ++i) {
    const double y = s.next();
    s2.next();
    ASSERT_EQ(a->predict_one(s.x), b.predict_one(s2.x));
    a->learn_one(s.x, y);
    b.learn_one(s2.x, y);
  }
  for (std::size_t cut = 0; cut < bytes.size(); cut += bytes.size() / 40 + 1) {
    QuantileSGBT c;
    ByteReader r(std::span<const std::uint8_t>(bytes.data(), cut));
    EXPECT_FALSE(c.decode(r).is_ok()) << "cut " << cut;
  }
}

TEST(QuantileSGBT, BadLevelsAreRefused) {
  EXPECT_FALSE(parse_quantile_list("0.5,1.2").is_ok());
  EXPECT_FALSE(parse_quantile_list("0.5,0.5").is_ok());
  EXPECT_FALSE(parse_quantile_list("").is_ok());
  EXPECT_FALSE(parse_quantile_list("0,0.5").is_ok());
  auto sorted = parse_quantile_list("0.9,0.1,0.5");
  ASSERT_TRUE(sorted.is_ok());
  EXPECT_EQ(*sorted, (std::vector<double>{0.1, 0.5, 0.9}));
  EXPECT_FALSE(QuantileSGBT::make(fast_config(), Task::kClassification, 1).is_ok());
  QuantileSGBTConfig c;
  auto s = apply_settings<QuantileSGBTConfig>("quantile_sgbt", quantile_sgbt_config_fields(),
                                              ModelSettings{{"quantiles", "0.1,0.9"}, {"n-steps", "5"}}, c);
  ASSERT_TRUE(s.is_ok()) << s.to_string();
  EXPECT_EQ(c.quantiles.size(), 2u);
  EXPECT_EQ(c.sgbt.n_steps, 5u);
  for (const auto& row : quantile_sgbt_config_fields()) EXPECT_NE(row.info.name, "loss");
}

}  // namespace
}  // namespace irithyll
