#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/nn/kan/kan.hpp"
#include "nn/kan/kan_core.hpp"

namespace irithyll::nn {
namespace {

std::unique_ptr<KolmogorovArnoldNetwork> make(std::size_t n_features, std::uint64_t seed = 42, KanConfig c = {}) {
  LearnerContext ctx;
  ctx.n_features = n_features;
  ctx.seed = seed;
  auto m = KolmogorovArnoldNetwork::make(c, ctx);
  EXPECT_TRUE(m.is_ok()) << m.status().to_string();
  return m.is_ok() ? std::move(m).value() : nullptr;
}

TEST(KolmogorovArnoldNetwork, ValidatesClassesAndSize) {
  LearnerContext ctx;
  ctx.task = Task::kClassification;
  ctx.n_classes = 1;
  EXPECT_FALSE(KolmogorovArnoldNetwork::make({}, ctx).is_ok());
  ctx.n_classes = 1025;
  EXPECT_FALSE(KolmogorovArnoldNetwork::make({}, ctx).is_ok());
  ctx.n_classes = 3;
  EXPECT_TRUE(KolmogorovArnoldNetwork::make({}, ctx).is_ok());
  KanConfig c;
  c.hidden = 1024;
  c.hidden_layers = 2;
  EXPECT_FALSE(KolmogorovArnoldNetwork::make(c, {Task::kRegression, 0, 4096, 1}).is_ok());
  c.spline_order = 0;
  EXPECT_FALSE(KolmogorovArnoldNetwork::make(c, {}).is_ok());
}

// n_params = sum over layers of n_out * n_in * (g + k + 2).
TEST(KolmogorovArnoldNetwork, LayerSizesAndParameterCount) {
  KanConfig c;
  c.hidden = 4;
  c.hidden_layers = 2;
  c.grid_size = 6;
  c.spline_order = 2;
  auto m = make(3, 1, c);
  const auto& core = m->core();
  EXPECT_EQ(core.layer_sizes(), (std::vector<std::size_t>{3, 4, 4, 1}));
  EXPECT_EQ(core.n_params(), (3u * 4u + 4u * 4u + 4u * 1u) * (6u + 2u + 2u));
  EXPECT_EQ(KolmogorovArnoldNetwork::n_edges(c, 3, 1), 3u * 4u + 4u * 4u + 4u);
  EXPECT_EQ(KolmogorovArnoldNetwork::n_edges(c, 3, 5), 3u * 4u + 4u * 4u + 4u * 5u);
}

TEST(KolmogorovArnoldNetwork, WidthFromFirstSampleAndOthersRefused) {
  auto m = make(0);
  EXPECT_EQ(m->n_features(), 0u);
  EXPECT_EQ(m->predict_one(std::vector<double>{1.0, 2.0}), 0.0);  // nothing seen: 0
  m->learn_one(std::vector<double>{1.0, 2.0}, 3.0);
  EXPECT_EQ(m->n_features(), 2u);
  EXPECT_EQ(m->core().layer_sizes(), (std::vector<std::size_t>{2, 5, 1}));
  // Extra columns are an error, not silently misaligned edges.
  EXPECT_FALSE(m->check_sample(std::vector<double>{1.0, 2.0, 3.0}, 1.0).is_ok());
  const std::uint64_t seen = m->n_samples_seen();
  m->learn_one(std::vector<double>{1.0, 2.0, 3.0}, 1.0);
  EXPECT_EQ(m->n_samples_seen(), seen);
}

// The first sample only seeds the statistics; training starts with the second.
TEST(KolmogorovArnoldNetwork, FirstSampleSeedsStatisticsOnly) {
  auto m = make(1);
  const std::vector<double> before(m->core().layers()[0].coefficients().begin(),
                                   m->core().layers()[0].coefficients().end());
  m->learn_one(std::vector<double>{0.3}, 5.0);
  EXPECT_EQ(m->core().n_trained(), 0u);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), m->core().layers()[0].coefficients().begin()));
  EXPECT_EQ(m->predict_one(std::vector<double>{0.3}), 5.0);  // the target mean until trained
  m->learn_one(std::vector<double>{-0.3}, 1.0);
  EXPECT_EQ(m->core().n_trained(), 1u);
}

// predict(x) is the network's answer for x, not the previous sample's output.
TEST(KolmogorovArnoldNetwork, PredictionDependsOnTheInput) {
  auto m = make(1, 3);
  Xorshift64 rng(5);
  for (int t = 0; t < 3000; ++t) {
    const double x = rng.uniform(-1.0, 1.0);
    m->learn_one(std::vector<double>{x}, 3.0 * x);
  }
  const double lo = m->predict_one(std::vector<double>{-0.8});
  const double hi = m->predict_one(std::vector<double>{0.8});
  EXPECT_LT(lo, -1.0);
  EXPECT_GT(hi, 1.0);
  // Two predictions in a row without learning agree, whatever came between.
  EXPECT_EQ(m->predict_one(std::vector<double>{-0.8}), lo);
}

// y = x^2 on [-1, 1], prequential: the RMSE of the last 2,000 of 10,000
// samples against that of predicting the mean (sd of x^2 = sqrt(4/45) = 0.298).
TEST(KolmogorovArnoldNetwork, LearnsASquare) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    auto m = make(1, seed);
    Xorshift64 rng(seed + 100);
    double se = 0.0;
    for (int t = 0; t < 10000; ++t) {
      const double x = rng.uniform(-1.0, 1.0);
      const std::vector<double> row = {x};
      const double e = m->predict_one(row) - x * x;
      if (t >= 8000) se += e * e;
      m->learn_one(row, x * x);
    }
    const double rmse = std::sqrt(se / 2000.0);
    EXPECT_LT(rmse, 0.3 * 0.298) << "seed " << seed;
  }
}

TEST(KolmogorovArnoldNetwork, SameSeedSameModelOtherSeedOther) {
  auto a = make(2, 9), b = make(2, 9), c = make(2, 10);
  Xorshift64 rng(1);
  for (int t = 0; t < 500; ++t) {
    const std::vector<double> x = {rng.normal(), rng.normal()};
    const double y = std::sin(x[0]) + x[1];
    a->learn_one(x, y);
    b->learn_one(x, y);
    c->learn_one(x, y);
  }
  const std::vector<double> q = {0.2, -0.4};
  EXPECT_EQ(a->predict_one(q), b->predict_one(q));
  EXPECT_NE(a->predict_one(q), c->predict_one(q));
}

// reset() draws the same initial network from the seed as a fresh model.
TEST(KolmogorovArnoldNetwork, ResetReseeds) {
  for (std::size_t width : {0u, 2u}) {
    auto a = make(width, 4), fresh = make(width, 4);
    Xorshift64 rng(2);
    for (int t = 0; t < 200; ++t) a->learn_one(std::vector<double>{rng.normal(), rng.normal()}, rng.normal());
    a->reset();
    ByteWriter wa, wf;
    a->encode(wa);
    fresh->encode(wf);
    EXPECT_EQ(wa.data(), wf.data()) << "width " << width;
  }
}

TEST(KolmogorovArnoldNetwork, CheckpointContinuesIdentically) {
  KanConfig c;
  c.momentum = 0.5;
  c.coefficient_decay = 1e-4;
  c.hidden_layers = 2;
  auto a = make(3, 8, c);
  Xorshift64 rng(3);
  auto sample = [&](std::vector<double>& x) {
    for (double& v : x) v = rng.normal();
    return std::sin(2 * x[0]) + x[1] * x[2];
  };
  std::vector<double> x(3);
  for (int t = 0; t < 2500; ++t) a->learn_one(x, sample(x));
  ByteWriter w;
  a->encode(w);
  KolmogorovArnoldNetwork b;
  ByteReader r(w.data());
  ASSERT_TRUE(b.decode(r).is_ok());
  for (int t = 0; t < 500; ++t) {
    const double y = sample(x);
    ASSERT_EQ(a->predict_one(x), b.predict_one(x)) << t;
    a->learn_one(x, y);
    b.learn_one(x, y);
  }
  ByteWriter wa, wb;
  a->encode(wa);
  b.encode(wb);
  EXPECT_EQ(wa.data(), wb.data());
}

// Every truncation and many single-byte corruptions are refused or decode
// into a model that still predicts finite values; none crash.
TEST(KolmogorovArnoldNetwork, HostileBytesRefused) {
  auto a = make(2, 1);
  Xorshift64 rng(4);
  for (int t = 0; t < 100; ++t) a->learn_one(std::vector<double>{rng.normal(), rng.normal()}, rng.normal());
  ByteWriter w;
  a->encode(w);
  const auto& bytes = w.data();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    KolmogorovArnoldNetwork b;
    ByteReader r(std::span<const std::uint8_t>(bytes.data(), n));
    EXPECT_FALSE(b.decode(r).is_ok()) << "truncated at " << n;
  }
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    auto bad = bytes;
    bad[i] ^= 0xA5;
    KolmogorovArnoldNetwork b;
    ByteReader r(bad);
    if (b.decode(r).is_ok()) {
      const double p = b.predict_one(std::vector<double>{0.1, 0.2});
      EXPECT_TRUE(std::isfinite(p)) << "byte " << i;
      b.learn_one(std::vector<double>{0.1, 0.2}, 1.0);
    }
  }
}

TEST(KolmogorovArnoldNetwork, NonFiniteFeaturesAndLargeTargets) {
  auto m = make(2, 6);
  Xorshift64 rng(6);
  for (int t = 0; t < 2000; ++t) {
    std::vector<double> x = {rng.normal(), rng.normal()};
    if (t % 7 == 0) x[t % 2] = t % 3 ? std::nan("") : double(INFINITY);
    m->learn_one(x, 1e9 * (x[0] == x[0] ? x[0] : 0.0) + 3e9);
    const double p = m->predict_one(x);
    ASSERT_TRUE(std::isfinite(p)) << t;
  }
  // Large targets keep their scale (no clamp of the de-standardised answer).
  EXPECT_GT(m->predict_one(std::vector<double>{0.0, 0.0}), 1e9);
}

// Decay starts after 2000 trained samples: until then the two runs agree
// bit for bit; on the next step every coefficient of the decayed run is the
// other's times the same factor in [0.99, 1).
TEST(KolmogorovArnoldNetwork, DecayShrinksCoefficientsAfterItsWarmUp) {
  KanConfig with, without;
  with.coefficient_decay = 0.001;
  auto a = make(1, 2, with), b = make(1, 2, without);
  Xorshift64 rng(8);
  auto coefs = [](const KolmogorovArnoldNetwork& m) {
    std::vector<double> out;
    for (const auto& l : m.core().layers()) out.insert(out.end(), l.coefficients().begin(), l.coefficients().end());
    return out;
  };
  for (int t = 0; t < 2003; ++t) {
    if (t == 2002) {
      EXPECT_EQ(coefs(*a), coefs(*b));
    }
    const double x = rng.uniform(-1.0, 1.0);
    a->learn_one(std::vector<double>{x}, x * x);
    b->learn_one(std::vector<double>{x}, x * x);
  }
  const auto ca = coefs(*a), cb = coefs(*b);
  const double keep = ca[0] / cb[0];
  EXPECT_GE(keep, 0.99);
  EXPECT_LT(keep, 1.0);
  for (std::size_t q = 0; q < ca.size(); ++q) EXPECT_NEAR(ca[q], cb[q] * keep, 1e-12 * std::fabs(cb[q]) + 1e-300) << q;
}

// Classification: three classes by the sign pattern of a nonlinear score,
// prequential accuracy of the last 2,000 of 8,000 samples far above the
// majority rate (about 1/3), probabilities that sum to 1, and uniform
// probabilities before any training.
TEST(KolmogorovArnoldNetwork, ClassifiesThreeClasses) {
  LearnerContext ctx;
  ctx.task = Task::kClassification;
  ctx.n_classes = 3;
  ctx.n_features = 2;
  auto made = KolmogorovArnoldNetwork::make({}, ctx);
  ASSERT_TRUE(made.is_ok());
  auto& m = **made;
  std::vector<double> proba(3);
  m.predict_proba_one(std::vector<double>{0.1, 0.2}, proba);
  for (double p : proba) EXPECT_DOUBLE_EQ(p, 1.0 / 3.0);
  Xorshift64 rng(12);
  std::size_t right = 0;
  for (int t = 0; t < 8000; ++t) {
    const std::vector<double> x = {rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)};
    const double s = x[0] * x[0] + x[1];
    const double y = s < 0.0 ? 0.0 : (s < 0.7 ? 1.0 : 2.0);
    if (t >= 6000) right += m.predict_one(x) == y;
    m.learn_one(x, y);
  }
  EXPECT_GT(static_cast<double>(right) / 2000.0, 0.85);
  m.predict_proba_one(std::vector<double>{0.3, -0.5}, proba);
  EXPECT_NEAR(proba[0] + proba[1] + proba[2], 1.0, 1e-12);
  EXPECT_GT(proba[0], 0.5);
}

}  // namespace
}  // namespace irithyll::nn
