// Generic estimator checks: every listed catalogue row, for every task it
// supports, must keep the learner contract (learner.hpp). A row added later
// is checked without touching this file, and a row that breaks a check fails
// CI. The checks run on a small deterministic stream (6 features in [0, 1);
// classes from x0 + x1, a regression target from x0, x1, x2), so every
// comparison is exact: "equal" means bit for bit, NaN equal to NaN.
//
//   Reset            reset() then a replay predicts as a freshly made model.
//   Checkpoint       encode, decode into a blank instance, and both continue
//                    bit-identically through more learning.
//   Seed             the same seed gives the same predictions.
//   PredictIsPure    predicting before each learn changes nothing learned.
//   ZeroWeight       a zero-weight sample changes nothing.
//   WrongWidth       a sample of the wrong width is refused by check_sample()
//                    with a message naming the widths, and learn_one skips it.
//   BadValues        NaN/inf features, NaN/inf targets, NaN/inf/negative
//                    weights never leave a non-finite prediction behind, and
//                    bad targets and weights are refused by check_sample().
//   Memory           memory_bytes() grows sub-linearly on a long stable stream.
//   DoubleWeight     weight 2 equals seeing the sample twice, for the rows
//                    that promise it (kWeightIsRepetition below).
//
// Rows are read from the catalogue when the binary starts, so a new row is
// checked without touching this file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll {
namespace {

constexpr std::size_t kFeatures = 6;
constexpr std::size_t kClasses = 3;

// Rows whose learn_one(x, y, 2) is, by design, learn_one twice: counts and
// sums with no order effect.
const std::set<std::string, std::less<>> kWeightIsRepetition = {"bernoulli_nb", "gaussian_nb", "majority", "mean",
                                                                 "multinomial_nb"};

struct Case {
  std::string model;
  Task task;
};

std::string case_name(const testing::TestParamInfo<Case>& info) {
  return info.param.model + (info.param.task == Task::kClassification ? "_classification" : "_regression");
}

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (const CatalogueEntry& e : catalogue()) {
    if (!e.listed) continue;
    if (e.regression) out.push_back({std::string(e.name), Task::kRegression});
    if (e.classification) out.push_back({std::string(e.name), Task::kClassification});
  }
  return out;
}

struct Sample {
  std::vector<double> x;
  double y;
};

// A stable concept: uniform features, a target that depends on three of them.
std::vector<Sample> make_stream(Task task, std::size_t n, std::uint64_t seed) {
  Xorshift64 rng(seed);
  std::vector<Sample> out(n);
  for (auto& s : out) {
    s.x.resize(kFeatures);
    for (double& v : s.x) v = rng.uniform();
    if (task == Task::kClassification) {
      const double t = (s.x[0] + s.x[1]) / 2.0;
      s.y = std::min<double>(kClasses - 1, std::floor(t * kClasses));
    } else {
      s.y = s.x[0] + 2.0 * s.x[1] - s.x[2] + 0.05 * (rng.uniform() - 0.5);
    }
  }
  return out;
}

class EstimatorChecks : public testing::TestWithParam<Case> {
 protected:
  std::unique_ptr<Learner> make(std::uint64_t seed = 7) const {
    LearnerContext ctx{GetParam().task, GetParam().task == Task::kClassification ? kClasses : 0, kFeatures, seed};
    auto m = make_learner(GetParam().model, {}, ctx);
    EXPECT_TRUE(m.is_ok()) << m.status().to_string();
    return m.is_ok() ? std::move(m).value() : nullptr;
  }
  std::vector<Sample> stream(std::size_t n, std::uint64_t seed = 1) const {
    return make_stream(GetParam().task, n, seed);
  }
  // Every output a user can read: the point prediction and, for
  // classification, the probabilities.
  std::vector<double> outputs(const Learner& m, const std::vector<Sample>& probes) const {
    std::vector<double> out;
    std::vector<double> proba(m.n_classes());
    for (const auto& s : probes) {
      out.push_back(m.predict_one(s.x));
      if (!proba.empty()) {
        m.predict_proba_one(s.x, proba);
        out.insert(out.end(), proba.begin(), proba.end());
      }
    }
    return out;
  }
  static void learn(Learner& m, const std::vector<Sample>& s) {
    for (const auto& v : s) m.learn_one(v.x, v.y);
  }
};

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) return false;
  }
  return true;
}

bool all_finite(const std::vector<double>& v) {
  for (double d : v)
    if (!std::isfinite(d)) return false;
  return true;
}

TEST_P(EstimatorChecks, ResetEqualsAFreshModel) {
  auto used = make();
  auto fresh = make();
  ASSERT_TRUE(used && fresh);
  const auto s = stream(300);
  const auto probes = stream(20, 99);
  learn(*used, stream(300, 5));
  used->reset();
  EXPECT_EQ(used->n_samples_seen(), 0u);
  learn(*used, s);
  learn(*fresh, s);
  EXPECT_TRUE(same_bits(outputs(*used, probes), outputs(*fresh, probes)));
}

TEST_P(EstimatorChecks, CheckpointContinuesBitIdentically) {
  auto a = make();
  ASSERT_TRUE(a);
  learn(*a, stream(250));
  ByteWriter w;
  a->encode(w);
  auto b = make_blank_learner(GetParam().model);
  ASSERT_NE(b, nullptr);
  ByteReader r(w.data());
  ASSERT_TRUE(b->decode(r).is_ok()) << b->decode(r).to_string();
  EXPECT_TRUE(r.at_end()) << r.remaining() << " bytes left after decode";
  const auto probes = stream(20, 99);
  EXPECT_TRUE(same_bits(outputs(*a, probes), outputs(*b, probes)));
  // Continue both, predicting before each learn as an evaluation would.
  for (const auto& s : stream(150, 3)) {
    ASSERT_TRUE(same_bits(outputs(*a, {s}), outputs(*b, {s})));
    a->learn_one(s.x, s.y);
    b->learn_one(s.x, s.y);
  }
  EXPECT_EQ(a->n_samples_seen(), b->n_samples_seen());
  // Truncated records are refused, never read past their end.
  const auto bytes = w.data();
  for (std::size_t cut : {std::size_t{0}, bytes.size() / 2, bytes.size() - 1}) {
    auto c = make_blank_learner(GetParam().model);
    ByteReader rc(std::span<const std::uint8_t>(bytes.data(), cut));
    EXPECT_FALSE(c->decode(rc).is_ok() && rc.at_end() && cut < bytes.size()) << "cut at " << cut;
  }
}

TEST_P(EstimatorChecks, SameSeedSamePredictions) {
  auto a = make(11);
  auto b = make(11);
  ASSERT_TRUE(a && b);
  const auto s = stream(300);
  learn(*a, s);
  learn(*b, s);
  const auto probes = stream(20, 99);
  EXPECT_TRUE(same_bits(outputs(*a, probes), outputs(*b, probes)));
}

TEST_P(EstimatorChecks, PredictionDoesNotChangeLearning) {
  auto a = make();
  auto b = make();
  ASSERT_TRUE(a && b);
  std::vector<double> proba(a->n_classes());
  for (const auto& s : stream(300)) {
    (void)a->predict_one(s.x);
    if (!proba.empty()) a->predict_proba_one(s.x, proba);
    a->learn_one(s.x, s.y);
    b->learn_one(s.x, s.y);
  }
  const auto probes = stream(20, 99);
  EXPECT_TRUE(same_bits(outputs(*a, probes), outputs(*b, probes)));
}

TEST_P(EstimatorChecks, ZeroWeightChangesNothing) {
  auto a = make();
  auto b = make();
  ASSERT_TRUE(a && b);
  const auto noise = stream(300, 77);
  std::size_t i = 0;
  for (const auto& s : stream(300)) {
    a->learn_one(s.x, s.y);
    b->learn_one(s.x, s.y);
    if (i % 3 == 0) b->learn_one(noise[i].x, noise[i].y, 0.0);
    ++i;
  }
  const auto probes = stream(20, 99);
  EXPECT_TRUE(same_bits(outputs(*a, probes), outputs(*b, probes)));
}

TEST_P(EstimatorChecks, WrongWidthIsRefusedAndSkipped) {
  auto a = make();
  auto b = make();
  ASSERT_TRUE(a && b);
  const auto s = stream(200);
  learn(*a, s);
  learn(*b, s);
  std::vector<double> narrow(kFeatures - 1, 0.5), wide(kFeatures + 3, 0.5);
  const Status refused = b->check_sample(narrow, 0.0);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.message().find(std::to_string(kFeatures)), std::string::npos) << refused.message();
  EXPECT_FALSE(b->check_sample(wide, 0.0).is_ok());
  EXPECT_TRUE(b->check_sample(s[0].x, s[0].y).is_ok());
  b->learn_one(narrow, 0.0);
  b->learn_one(wide, 1.0);
  const auto probes = stream(20, 99);
  EXPECT_TRUE(same_bits(outputs(*a, probes), outputs(*b, probes)));
}

TEST_P(EstimatorChecks, BadValuesNeverCorruptTheModel) {
  auto m = make();
  ASSERT_TRUE(m);
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto s = stream(400);
  for (std::size_t i = 0; i < s.size(); ++i) {
    Sample v = s[i];
    switch (i % 8) {
      case 1: v.x[i % kFeatures] = nan; break;
      case 2: v.x[i % kFeatures] = inf; break;
      case 3: v.x[i % kFeatures] = -inf; break;
      case 4: m->learn_one(v.x, nan); break;
      case 5: m->learn_one(v.x, GetParam().task == Task::kClassification ? 1e300 : inf); break;
      case 6: m->learn_one(v.x, v.y, nan); m->learn_one(v.x, v.y, -1.0); m->learn_one(v.x, v.y, inf); break;
      default: break;
    }
    m->learn_one(v.x, v.y);
  }
  EXPECT_FALSE(m->check_sample(s[0].x, nan).is_ok());
  EXPECT_FALSE(m->check_sample(s[0].x, s[0].y, -1.0).is_ok());
  EXPECT_FALSE(m->check_sample(s[0].x, s[0].y, nan).is_ok());
  EXPECT_FALSE(m->check_sample(s[0].x, s[0].y, inf).is_ok());
  const auto probes = stream(30, 99);
  const auto out = outputs(*m, probes);
  EXPECT_TRUE(all_finite(out));
  // A probe with a missing feature still predicts a number.
  std::vector<double> x = probes[0].x;
  x[0] = nan;
  EXPECT_TRUE(std::isfinite(m->predict_one(x)));
  // And learning goes on: still finite after more clean samples.
  learn(*m, stream(100, 4));
  EXPECT_TRUE(all_finite(outputs(*m, probes)));
}

TEST_P(EstimatorChecks, MemoryGrowsSublinearlyOnAStableStream) {
  auto m = make();
  ASSERT_TRUE(m);
  const auto s = stream(3000, 21);
  const std::vector<Sample> first(s.begin(), s.begin() + 300);
  learn(*m, first);
  const double early = static_cast<double>(m->memory_bytes());
  learn(*m, std::vector<Sample>(s.begin() + 300, s.end()));
  const double late = static_cast<double>(m->memory_bytes());
  ASSERT_GT(early, 0.0);
  // Ten times the samples; linear growth would be 10x.
  EXPECT_LT(late, 5.0 * early) << "memory_bytes " << early << " after 300 samples, " << late << " after 3000";
}

// Only the rows that promise it: a weight is a repetition for counting
// models, a step size for gradient models.
class WeightChecks : public EstimatorChecks {};

TEST_P(WeightChecks, DoubleWeightEqualsTwoSamples) {
  auto a = make();
  auto b = make();
  for (const auto& s : stream(200)) {
    a->learn_one(s.x, s.y, 2.0);
    b->learn_one(s.x, s.y);
    b->learn_one(s.x, s.y);
  }
  const auto probes = stream(20, 99);
  const auto oa = outputs(*a, probes), ob = outputs(*b, probes);
  ASSERT_EQ(oa.size(), ob.size());
  for (std::size_t i = 0; i < oa.size(); ++i) EXPECT_NEAR(oa[i], ob[i], 1e-12 * (1.0 + std::fabs(ob[i])));
}

INSTANTIATE_TEST_SUITE_P(EveryRow, EstimatorChecks, testing::ValuesIn(all_cases()), case_name);

std::vector<Case> repetition_cases() {
  std::vector<Case> out;
  for (const Case& c : all_cases())
    if (kWeightIsRepetition.contains(c.model)) out.push_back(c);
  return out;
}
INSTANTIATE_TEST_SUITE_P(RepetitionRows, WeightChecks, testing::ValuesIn(repetition_cases()), case_name);

}  // namespace
}  // namespace irithyll
