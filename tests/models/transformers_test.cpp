// Properties of every transformer of the registry: each one's defining
// property (range, norm, width, formula, convergence), checkpoint resume
// (bit-identical continuation), non-finite inputs, hostile bytes.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/preprocess/ccipca.hpp"
#include "irithyll/preprocess/feature_hasher.hpp"
#include "irithyll/preprocess/feature_selector.hpp"
#include "irithyll/preprocess/min_max.hpp"
#include "irithyll/preprocess/normalizer.hpp"
#include "irithyll/preprocess/one_hot.hpp"
#include "irithyll/preprocess/polynomial.hpp"
#include "irithyll/preprocess/registry.hpp"
#include "irithyll/preprocess/target_encoder.hpp"

namespace irithyll {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TransformerContext ctx(std::size_t d, Task task = Task::kRegression, std::size_t classes = 0,
                       std::vector<std::uint32_t> categorical = {}) {
  TransformerContext c;
  c.task = task;
  c.n_classes = classes;
  c.n_features = d;
  for (std::size_t i = 0; i < d; ++i) c.feature_names.push_back("x" + std::to_string(i));
  c.categorical = std::move(categorical);
  return c;
}

std::unique_ptr<Transformer> make(std::string_view name, const ModelSettings& s, const TransformerContext& c) {
  auto t = make_transformer(name, s, c);
  EXPECT_TRUE(t.is_ok()) << t.status().message();
  return t.is_ok() ? std::move(t).value() : nullptr;
}

std::vector<double> transformed(const Transformer& t, std::span<const double> x) {
  std::vector<double> out(t.output_size(x.size()));
  t.transform_one(x, out);
  return out;
}

TEST(MinMax, OutputsStayInRangeAndMatchTheLearnedBounds) {
  auto t = make("min_max", {}, ctx(3));
  Xorshift64 rng(1);
  for (int i = 0; i < 2000; ++i) {
    const double x[3] = {rng.uniform(-5, 5), rng.uniform(0, 100) * rng.uniform(), 7.0};
    for (double v : transformed(*t, x)) {
      EXPECT_GE(v, 0.0);
      EXPECT_LE(v, 1.0);
    }
    t->learn_one(x);
  }
  auto& mm = static_cast<MinMaxScaler&>(*t);
  const double probe[3] = {mm.min(0), mm.max(1), 7.0};
  const auto out = transformed(*t, probe);
  EXPECT_DOUBLE_EQ(out[0], 0.0);
  EXPECT_DOUBLE_EQ(out[1], 1.0);
  EXPECT_DOUBLE_EQ(out[2], 0.5);  // constant feature: the middle of the range
}

TEST(MinMax, CustomRangeAndRefusals) {
  auto t = make("min_max", {{"lo", "-1"}, {"hi", "1"}, {"clip", "off"}}, ctx(1));
  for (double v : {0.0, 10.0}) {
    const double x[1] = {v};
    t->learn_one(x);
  }
  const double x[1] = {20.0};
  EXPECT_DOUBLE_EQ(transformed(*t, x)[0], 3.0);  // unclipped extrapolation
  EXPECT_FALSE(make_transformer("min_max", {{"lo", "1"}, {"hi", "1"}}, ctx(1)).is_ok());
}

TEST(Normalizer, UnitNormForEveryOrder) {
  Xorshift64 rng(2);
  for (const char* p : {"1", "2", "3.5"}) {
    auto t = make("normalizer", {{"order", p}}, ctx(5));
    const double order = std::stod(p);
    for (int i = 0; i < 100; ++i) {
      double x[5];
      for (double& v : x) v = rng.uniform(-1e3, 1e3);
      const auto out = transformed(*t, x);
      double s = 0.0;
      for (double v : out) s += std::pow(std::fabs(v), order);
      EXPECT_NEAR(std::pow(s, 1.0 / order), 1.0, 1e-12) << p;
    }
  }
  auto t = make("normalizer", {}, ctx(3));
  const double zeros[3] = {0, 0, 0};
  for (double v : transformed(*t, zeros)) EXPECT_EQ(v, 0.0);
  const double holes[3] = {3.0, kNaN, 4.0};
  const auto out = transformed(*t, holes);
  EXPECT_DOUBLE_EQ(out[0], 0.6);
  EXPECT_TRUE(std::isnan(out[1]));
  EXPECT_DOUBLE_EQ(out[2], 0.8);
}

TEST(Polynomial, WidthAndProductsInOrder) {
  for (const bool inter : {false, true})
    for (const bool bias : {false, true})
      for (std::size_t d = 1; d <= 6; ++d) {
        auto t = make("polynomial", {{"interaction-only", inter ? "on" : "off"}, {"bias", bias ? "on" : "off"}}, ctx(d));
        const std::size_t pairs = inter ? d * (d - 1) / 2 : d * (d + 1) / 2;
        EXPECT_EQ(t->output_size(d), (bias ? 1 : 0) + d + pairs);
      }
  auto t = make("polynomial", {{"bias", "on"}}, ctx(3));
  const double x[3] = {2, 3, 5};
  const std::vector<double> want = {1, 2, 3, 5, 4, 6, 10, 9, 15, 25};
  EXPECT_EQ(transformed(*t, x), want);
  const std::vector<std::string> names = {"a", "b", "c"};
  EXPECT_EQ(t->output_names(names)[8], "b*c");
  const double hole[3] = {2, kInf, 5};
  const auto out = transformed(*t, hole);
  EXPECT_TRUE(std::isnan(out[2]) && std::isnan(out[5]) && std::isnan(out[7]));
  EXPECT_DOUBLE_EQ(out[9], 25.0);
}

TEST(OneHot, SlotsInOrderOfFirstAppearanceThenOther) {
  auto t = make("one_hot", {{"columns", "x1"}, {"max-categories", "2"}}, ctx(3));
  ASSERT_EQ(t->output_size(3), 2u + 3u);
  const double a[3] = {0.5, 7.0, 1.0}, b[3] = {0.5, 3.0, 1.0}, c[3] = {0.5, 9.0, 1.0}, d[3] = {0.5, 11.0, 1.0};
  // Unseen: no slot; the passthrough columns come first.
  EXPECT_EQ(transformed(*t, a), (std::vector<double>{0.5, 1.0, 0, 0, 0}));
  t->learn_one(a);
  t->learn_one(b);
  EXPECT_EQ(transformed(*t, a), (std::vector<double>{0.5, 1.0, 1, 0, 0}));
  EXPECT_EQ(transformed(*t, b), (std::vector<double>{0.5, 1.0, 0, 1, 0}));
  EXPECT_EQ(transformed(*t, c), (std::vector<double>{0.5, 1.0, 0, 0, 0}));
  t->learn_one(c);  // beyond the two slots: "other"
  EXPECT_EQ(transformed(*t, c), (std::vector<double>{0.5, 1.0, 0, 0, 1}));
  EXPECT_EQ(transformed(*t, d), (std::vector<double>{0.5, 1.0, 0, 0, 1}));
  const double hole[3] = {0.5, kNaN, 1.0};
  EXPECT_EQ(transformed(*t, hole), (std::vector<double>{0.5, 1.0, 0, 0, 0}));
  t->learn_one(hole);
  EXPECT_EQ(static_cast<OneHotEncoder&>(*t).categories(0).size(), 2u);
  const std::vector<std::string> names = {"a", "colour", "c"};
  EXPECT_EQ(t->output_names(names), (std::vector<std::string>{"a", "c", "colour=1", "colour=2", "colour=other"}));
}

TEST(OneHot, DefaultColumnsAreTheCategoricalOnesAndUnknownNamesAreRefused) {
  auto t = make("one_hot", {}, ctx(3, Task::kRegression, 0, {2}));
  EXPECT_EQ(static_cast<OneHotEncoder&>(*t).columns(), (std::vector<std::uint32_t>{2}));
  auto bad = make_transformer("one_hot", {{"columns", "nope"}}, ctx(3));
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("no column 'nope'"), std::string::npos) << bad.status().message();
  EXPECT_FALSE(make_transformer("one_hot", {}, ctx(3)).is_ok());  // nothing to encode
}

TEST(TargetEncoder, EqualsTheSmoothedMeanFormula) {
  auto t = make("target_encoder", {{"columns", "0"}, {"smoothing", "3"}}, ctx(2));
  Xorshift64 rng(4);
  double n_cat[3] = {0, 0, 0}, s_cat[3] = {0, 0, 0}, n = 0, s = 0;
  for (int i = 0; i < 500; ++i) {
    const double cat = std::floor(rng.uniform() * 3.0);
    const double y = cat * 2.0 + rng.uniform();
    const double x[2] = {cat, 0.25};
    // The encoding uses only the past (the pipeline order: transform, then learn).
    const auto out = transformed(*t, x);
    const double prior = n > 0 ? s / n : 0.0;
    const auto c = static_cast<int>(cat);
    EXPECT_NEAR(out[1], (s_cat[c] + 3.0 * prior) / (n_cat[c] + 3.0), 1e-12);
    EXPECT_DOUBLE_EQ(out[0], 0.25);
    t->learn_supervised(x, y);
    n_cat[c] += 1, s_cat[c] += y, n += 1, s += y;
  }
  const double unseen[2] = {42.0, 0.0};
  EXPECT_NEAR(transformed(*t, unseen)[1], s / n, 1e-12);
}

TEST(TargetEncoder, ClassificationGivesSmoothedClassRates) {
  auto t = make("target_encoder", {{"columns", "0"}, {"smoothing", "0"}}, ctx(1, Task::kClassification, 3));
  ASSERT_EQ(t->output_size(1), 2u);
  const double a[1] = {1.0};
  for (double y : {0.0, 1.0, 2.0, 2.0}) t->learn_supervised(a, y);
  const auto out = transformed(*t, a);
  EXPECT_DOUBLE_EQ(out[0], 0.25);
  EXPECT_DOUBLE_EQ(out[1], 0.5);
}

TEST(FeatureHasher, StableSignedBucketsAndNameValueHashing) {
  // Pinned: the hash must not change across runs, builds or machines.
  // (Values from an independent Python transcription of FNV-1a + SplitMix64.)
  EXPECT_EQ(FeatureHasher::hash("", 0), 0xe9d327596b869820ULL);
  EXPECT_EQ(FeatureHasher::hash("colour=3", 0), 0x586adf307afb5ca8ULL);
  EXPECT_EQ(FeatureHasher::hash("colour=3", 7), 0x239f668902bb7d8cULL);
  auto t = make("feature_hasher", {{"n-buckets", "16"}, {"columns", "x0"}}, ctx(3));
  const double x[3] = {2.0, 1.5, -3.0};
  const auto out = transformed(*t, x);
  ASSERT_EQ(out.size(), 16u);
  double total = 0.0;
  for (double v : out) total += std::fabs(v);
  EXPECT_LE(total, 1.0 + 1.5 + 3.0 + 1e-12);  // collisions can only cancel
  auto again = make("feature_hasher", {{"n-buckets", "16"}, {"columns", "x0"}}, ctx(3));
  EXPECT_EQ(transformed(*again, x), out);
  // Another category of x0 lands (almost surely) elsewhere; a numeric column scales linearly.
  const double y[3] = {0.0, 3.0, -6.0};
  const auto out2 = transformed(*t, y);
  const double z[3] = {kNaN, 0.0, 0.0};
  for (double v : transformed(*t, z)) EXPECT_EQ(v, 0.0);
  const double u[3] = {kNaN, 1.5, -3.0}, w[3] = {kNaN, 3.0, -6.0};
  const auto ou = transformed(*t, u), ow = transformed(*t, w);
  for (std::size_t i = 0; i < 16; ++i) EXPECT_DOUBLE_EQ(ow[i], 2.0 * ou[i]);
  (void)out2;
}

TEST(FeatureHasher, InnerProductsArePreservedOnAverage) {
  // 200 numeric features into 4096 buckets: the hashed inner product of two
  // random vectors is unbiased with standard deviation about
  // |x||y|/sqrt(4096); |error| < 6 of those fails with probability < 1e-8.
  const std::size_t d = 200;
  auto t = make("feature_hasher", {{"n-buckets", "4096"}}, ctx(d));
  Xorshift64 rng(5);
  std::vector<double> a(d), b(d);
  for (std::size_t i = 0; i < d; ++i) a[i] = rng.uniform(-1, 1), b[i] = a[i] + rng.uniform(-0.5, 0.5);
  double exact = 0, na = 0, nb = 0;
  for (std::size_t i = 0; i < d; ++i) exact += a[i] * b[i], na += a[i] * a[i], nb += b[i] * b[i];
  const auto ha = transformed(*t, a), hb = transformed(*t, b);
  double hashed = 0;
  for (std::size_t i = 0; i < ha.size(); ++i) hashed += ha[i] * hb[i];
  EXPECT_NEAR(hashed, exact, 6.0 * std::sqrt(na * nb / 4096.0) + 1e-9);
}

TEST(Ccipca, ConvergesToTheTopEigenvectorsOfAKnownCovariance) {
  // x = R·diag(5, 3, 1, 0.5, 0.2)·z with z standard normal and R a fixed
  // rotation: the top two eigenvectors are R's first two columns. After 20,000
  // samples the cosine is > 0.99 (CCIPCA's error decays as 1/sqrt(n); the
  // margin is many standard deviations: false-failure rate < 1e-6).
  const std::size_t d = 5;
  Xorshift64 rng(6);
  // A rotation from Gram-Schmidt of a fixed random matrix.
  std::vector<std::vector<double>> r(d, std::vector<double>(d));
  for (auto& row : r)
    for (double& v : row) v = rng.uniform(-1, 1);
  for (std::size_t i = 0; i < d; ++i) {
    for (std::size_t k = 0; k < i; ++k) {
      double dot = 0;
      for (std::size_t j = 0; j < d; ++j) dot += r[i][j] * r[k][j];
      for (std::size_t j = 0; j < d; ++j) r[i][j] -= dot * r[k][j];
    }
    double n = 0;
    for (double v : r[i]) n += v * v;
    for (double& v : r[i]) v /= std::sqrt(n);
  }
  const double sd[5] = {5, 3, 1, 0.5, 0.2};
  auto t = make("ccipca", {{"n-components", "2"}}, ctx(d));
  std::vector<double> x(d);
  for (int n = 0; n < 20000; ++n) {
    for (double& v : x) v = 10.0;  // a mean the component must not absorb
    for (std::size_t i = 0; i < d; ++i) {
      const double z = sd[i] * rng.normal();
      for (std::size_t j = 0; j < d; ++j) x[j] += z * r[i][j];
    }
    t->learn_one(x);
  }
  auto& pca = static_cast<Ccipca&>(*t);
  for (std::size_t c = 0; c < 2; ++c) {
    const auto e = pca.component(c);
    double cos = 0;
    for (std::size_t j = 0; j < d; ++j) cos += e[j] * r[c][j];
    EXPECT_GT(std::fabs(cos), 0.99) << "component " << c;
    EXPECT_NEAR(pca.eigenvalue(c), sd[c] * sd[c], 0.15 * sd[c] * sd[c]) << "component " << c;
  }
}

TEST(Ccipca, SecondComponentIsNotStuckAtZero) {
  auto t = make("ccipca", {{"n-components", "2"}}, ctx(2));
  Xorshift64 rng(7);
  for (int i = 0; i < 500; ++i) {
    const double x[2] = {rng.normal(), 0.5 * rng.normal()};
    t->learn_one(x);
  }
  EXPECT_GT(static_cast<Ccipca&>(*t).eigenvalue(1), 0.05);
}

TEST(FeatureSelector, KeepsTheInformativeFeatures) {
  auto t = make("feature_selector", {{"keep", "0.4"}, {"alpha", "0.02"}, {"warmup", "50"}}, ctx(5));
  Xorshift64 rng(8);
  for (int i = 0; i < 3000; ++i) {
    double x[5];
    for (double& v : x) v = rng.normal();
    t->learn_supervised(x, 3.0 * x[1] - 2.0 * x[3] + 0.1 * rng.normal());
  }
  auto& fs = static_cast<FeatureSelector&>(*t);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(fs.active(i), i == 1 || i == 3) << i;
  const double x[5] = {1, 2, 3, 4, 5};
  EXPECT_EQ(transformed(*t, x), (std::vector<double>{0, 2, 0, 4, 0}));
}

// Every transformer: learn half a stream, save, decode into a blank, and the
// two continue with the same bytes and outputs; NaN/inf inputs leave every
// state able to give finite outputs for finite inputs.
struct Case {
  const char* name;
  ModelSettings settings;
  Task task;
  std::size_t classes;
};

class EveryTransformer : public ::testing::TestWithParam<std::size_t> {};

std::vector<Case> cases() {
  return {{"attention_features", {{"d-model", "8"}}, Task::kRegression, 0},
          {"ccipca", {{"n-components", "3"}}, Task::kRegression, 0},
          {"feature_hasher", {{"n-buckets", "8"}}, Task::kRegression, 0},
          {"feature_selector", {{"warmup", "10"}}, Task::kClassification, 3},
          {"min_max", {}, Task::kRegression, 0},
          {"normalizer", {}, Task::kRegression, 0},
          {"one_hot", {}, Task::kRegression, 0},
          {"polynomial", {}, Task::kRegression, 0},
          {"standard_scaler", {}, Task::kRegression, 0},
          {"target_encoder", {}, Task::kClassification, 3}};
}

TEST_P(EveryTransformer, CheckpointContinuesBitIdenticallyAndNonFiniteIsHandled) {
  const Case c = cases()[GetParam()];
  SCOPED_TRACE(c.name);
  const TransformerContext context = ctx(4, c.task, c.classes, {0});
  auto t = make(c.name, c.settings, context);
  ASSERT_NE(t, nullptr);
  Xorshift64 rng(11);
  auto sample = [&](std::vector<double>& x) {
    x = {std::floor(rng.uniform() * 5.0), rng.normal(), rng.uniform(-3, 3), rng.normal(2.0, 1.0)};
    return std::floor(rng.uniform() * 3.0);
  };
  std::vector<double> x;
  for (int i = 0; i < 300; ++i) {
    const double y = sample(x);
    if (i % 17 == 0) x[i % 4] = i % 2 ? kNaN : -kInf;
    t->learn_supervised(x, y);
  }
  ByteWriter w;
  t->encode(w);
  auto blank = find_transformer(c.name)->make_blank();
  ByteReader r(w.data());
  ASSERT_TRUE(blank->decode(r).is_ok());
  EXPECT_TRUE(r.at_end());
  for (int i = 0; i < 200; ++i) {
    const double y = sample(x);
    const auto a = transformed(*t, x), b = transformed(*blank, x);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t j = 0; j < a.size(); ++j) {
      EXPECT_TRUE(std::isfinite(a[j])) << j;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(a[j]), std::bit_cast<std::uint64_t>(b[j])) << j;
    }
    t->learn_supervised(x, y);
    blank->learn_supervised(x, y);
  }
  ByteWriter w1, w2;
  t->encode(w1);
  blank->encode(w2);
  EXPECT_EQ(w1.data(), w2.data());
  // Hostile bytes: every truncation and a flipped byte at each position are
  // refused or decode to something usable, never crash.
  const auto& bytes = w1.data();
  for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + bytes.size() / 64) {
    auto b = find_transformer(c.name)->make_blank();
    ByteReader rr(std::span<const std::uint8_t>(bytes.data(), cut));
    EXPECT_FALSE(b->decode(rr).is_ok() && rr.at_end() && cut < bytes.size()) << "cut " << cut;
  }
  for (std::size_t pos = 0; pos < bytes.size(); pos += 1 + bytes.size() / 64) {
    auto copy = bytes;
    copy[pos] ^= 0xA5;
    auto b = find_transformer(c.name)->make_blank();
    ByteReader rr(copy);
    // (A flipped width byte may claim millions of features: not run then.)
    if (b->decode(rr).is_ok() && b->output_size(x.size()) <= 4096) (void)transformed(*b, x);
  }
  // Reset equals fresh.
  t->reset();
  auto fresh = make(c.name, c.settings, context);
  ByteWriter w3, w4;
  t->encode(w3);
  fresh->encode(w4);
  EXPECT_EQ(w3.data(), w4.data());
}

INSTANTIATE_TEST_SUITE_P(All, EveryTransformer, ::testing::Range<std::size_t>(0, 10),
                         [](const auto& p) { return std::string(cases()[p.param].name); });

TEST(AttentionFeatures, PeekEqualsWhatLearningCommitsAndTheStateCarriesThePast) {
  auto t = make("attention_features", {{"mode", "gla"}, {"d-model", "8"}}, ctx(3));
  ASSERT_EQ(t->output_size(3), 3u + 8u);
  Xorshift64 rng(12);
  std::vector<double> x(3);
  for (int i = 0; i < 50; ++i) {
    for (double& v : x) v = rng.normal();
    t->learn_one(x);
  }
  // Two transforms of one sample agree (transform does not learn), and the
  // same sample after another history gives other features.
  const auto a = transformed(*t, x), b = transformed(*t, x);
  EXPECT_EQ(a, b);
  EXPECT_DOUBLE_EQ(a[0], x[0]);  // passthrough first
  std::vector<double> other(3, 4.0);
  for (int i = 0; i < 5; ++i) t->learn_one(other);
  const auto c = transformed(*t, x);
  bool differs = false;
  for (std::size_t j = 3; j < c.size(); ++j) differs = differs || c[j] != a[j];
  EXPECT_TRUE(differs);
  for (double v : c) EXPECT_TRUE(std::isfinite(v));
  EXPECT_FALSE(make_transformer("attention_features", {{"mode", "nope"}}, ctx(3)).is_ok());
}

TEST(Registry, EveryRowBuildsWithDefaultsAndRefusesUnknownSettings) {
  for (const auto& e : transformer_catalogue()) {
    const TransformerContext c = ctx(4, Task::kClassification, 2, {1});
    EXPECT_TRUE(e.make({}, c).is_ok()) << e.name;
    EXPECT_FALSE(e.make({{"no-such-setting", "1"}}, c).is_ok()) << e.name;
    for (const FieldInfo& f : e.fields()) EXPECT_FALSE(f.help.empty()) << e.name << " " << f.name;
  }
  EXPECT_NE(transformers_json().find("\"one_hot\""), std::string::npos);
  EXPECT_FALSE(make_transformer("nope", {}, ctx(2)).is_ok());
}

}  // namespace
}  // namespace irithyll
