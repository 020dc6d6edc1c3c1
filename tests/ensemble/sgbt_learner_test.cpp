#include "irithyll/ensemble/sgbt_learner.hpp"
#include "support/sgbt_direct.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

SGBTConfig fast_config() {
  SGBTConfig c;
  c.n_steps = 15;
  c.learning_rate = 0.2;
  c.tree.grace_period = 40;
  c.tree.n_bins = 16;
  c.tree.max_depth = 4;
  c.drift.lambda = 10.0;  // sensitive, so checkpoints carry live alternates and detector state
  return c;
}

// Threshold task: class 1 iff x0 + x1 > 1 (10% label noise); x2 irrelevant.
double threshold_sample(Xorshift64& rng, double* x) {
  for (int i = 0; i < 3; ++i) x[i] = rng.uniform();
  const double y = x[0] + x[1] > 1.0 ? 1.0 : 0.0;
  return rng.uniform() < 0.1 ? 1.0 - y : y;
}

// Three classes by which third of [0,1) x0 falls in.
double three_class_sample(Xorshift64& rng, double* x) {
  for (int i = 0; i < 3; ++i) x[i] = rng.uniform();
  return std::floor(x[0] * 3.0);
}

TEST(SGBTLearner, BinaryThresholdClassification) {
  SGBTLearner m = testing::sgbt_learner(fast_config(), Task::kClassification, 2);
  EXPECT_EQ(m.name(), "sgbt");
  EXPECT_EQ(m.n_committees(), 1u);
  Xorshift64 rng(1);
  double x[3];
  int correct = 0;
  for (int i = 0; i < 20000; ++i) {
    const double y = threshold_sample(rng, x);
    if (i >= 15000) correct += m.predict_one(x) == y;
    double proba[2];
    m.predict_proba_one(x, proba);
    ASSERT_NEAR(proba[0] + proba[1], 1.0, 1e-12);
    m.learn_one(x, y);
  }
  EXPECT_GT(correct / 5000.0, 0.84);  // Bayes rate 0.9
}

TEST(SGBTLearner, MulticlassSoftmaxCommittees) {
  SGBTLearner m = testing::sgbt_learner(fast_config(), Task::kClassification, 3);
  EXPECT_EQ(m.n_committees(), 3u);
  EXPECT_EQ(m.n_classes(), 3u);
  Xorshift64 rng(2);
  double x[3], proba[3];
  m.predict_proba_one(x, proba);
  EXPECT_NEAR(proba[0], 1.0 / 3, 1e-12);  // uniform before any data
  int correct = 0;
  for (int i = 0; i < 15000; ++i) {
    const double y = three_class_sample(rng, x);
    if (i >= 12000) correct += m.predict_one(x) == y;
    m.predict_proba_one(x, proba);
    ASSERT_NEAR(proba[0] + proba[1] + proba[2], 1.0, 1e-12);
    m.learn_one(x, y);
  }
  EXPECT_GT(correct / 3000.0, 0.9);
}

TEST(SGBTLearner, NonFiniteTargetsAndBadLabelsAreSkippedWithoutStateChange) {
  SGBTLearner a = testing::sgbt_learner(fast_config(), Task::kClassification, 2),
              b = testing::sgbt_learner(fast_config(), Task::kClassification, 2);
  Xorshift64 rng(3);
  double x[3];
  for (int i = 0; i < 2000; ++i) {
    const double y = threshold_sample(rng, x);
    a.learn_one(x, y);
    b.learn_one(x, y);
    if (i % 100 == 0) {
      b.learn_one(x, kNaN);
      b.learn_one(x, kInf);
      b.learn_one(x, 2.0);        // not a class
      b.learn_one(x, 0.5);        // not an integer
      b.learn_one(x, 1.0, -1.0);  // negative weight
      b.learn_one(std::span<const double>(x, 2), 1.0);  // wrong length
    }
  }
  EXPECT_EQ(b.n_skipped(), 20u * 6);
  EXPECT_EQ(b.n_samples_seen(), a.n_samples_seen() + 120);
  for (int i = 0; i < 200; ++i) {
    threshold_sample(rng, x);
    ASSERT_EQ(a.predict_one(x), b.predict_one(x));
  }
  ByteWriter wa, wb;
  a.committee(0).encode_state(wa);
  b.committee(0).encode_state(wb);
  EXPECT_EQ(wa.data(), wb.data());  // committee state identical
}

TEST(SGBTLearner, NonFiniteFeaturesAreMissingAndPredictionsStayFinite) {
  SGBTLearner m = testing::sgbt_learner(fast_config(), Task::kRegression);
  Xorshift64 rng(4);
  double x[3];
  for (int i = 0; i < 6000; ++i) {
    for (double& v : x) {
      const double u = rng.uniform();
      v = u < 0.05 ? kNaN : u < 0.08 ? kInf : u < 0.1 ? -kInf : rng.normal();
    }
    const double y = std::isfinite(x[0]) ? x[0] : 0.0;
    ASSERT_TRUE(std::isfinite(m.predict_one(x)));
    m.learn_one(x, y);
  }
  EXPECT_EQ(m.n_skipped(), 0u);
  const double all_nan[3] = {kNaN, kNaN, kNaN};
  EXPECT_TRUE(std::isfinite(m.predict_one(all_nan)));
  const double short_x[1] = {0.3};
  EXPECT_TRUE(std::isfinite(m.predict_one(short_x)));  // padded with missing values
}

TEST(SGBTLearner, CheckpointContinuesBitIdentically) {
  for (std::size_t classes : {std::size_t{0}, std::size_t{2}, std::size_t{3}}) {
    SGBTConfig c = fast_config();
    c.variant = classes == 3 ? SGBTVariant::kSkip : SGBTVariant::kStandard;
    c.leaf_half_life = classes == 2 ? 500.0 : 0.0;
    const Task task = classes == 0 ? Task::kRegression : Task::kClassification;
    SGBTLearner a = testing::sgbt_learner(c, task, classes);
    Xorshift64 rng(5);
    double x[3];
    auto sample = [&](int i) {
      const double y = classes == 3 ? three_class_sample(rng, x) : threshold_sample(rng, x);
      // A concept flip mid-stream so detectors, alternates and swaps are live.
      return i > 3000 && classes != 3 ? 1.0 - y : y;
    };
    for (int i = 0; i < 4000; ++i) a.learn_one(x, sample(i));
    ByteWriter w;
    a.encode(w);
    SGBTLearner b;
    ByteReader r(w.data());
    const Status st = b.decode(r);
    ASSERT_TRUE(st.is_ok()) << st.to_string();
    EXPECT_TRUE(r.at_end());
    EXPECT_EQ(b.n_samples_seen(), a.n_samples_seen());
    std::vector<double> pa(std::max<std::size_t>(classes, 1)), pb(pa.size());
    for (int i = 4000; i < 8000; ++i) {
      const double y = sample(i);
      a.predict_raw(x, pa);
      b.predict_raw(x, pb);
      ASSERT_EQ(pa, pb) << "classes " << classes << " step " << i;
      a.learn_one(x, y);
      b.learn_one(x, y);
    }
    ByteWriter wa, wb;
    a.encode(wa);
    b.encode(wb);
    EXPECT_EQ(wa.data(), wb.data());
  }
}

TEST(SGBTLearner, TruncatedOrCorruptedBytesNeverCrash) {
  SGBTLearner a = testing::sgbt_learner(fast_config(), Task::kClassification, 3);
  Xorshift64 rng(6);
  double x[3];
  for (int i = 0; i < 1500; ++i) a.learn_one(x, three_class_sample(rng, x));
  ByteWriter w;
  a.encode(w);
  const std::vector<std::uint8_t> bytes = w.data();
  const double probe[3] = {0.2, 0.5, 0.9};
  for (std::size_t cut = 0; cut < bytes.size(); cut += 97) {
    SGBTLearner t = testing::sgbt_learner(fast_config(), Task::kRegression);
    ByteReader r(std::span<const std::uint8_t>(bytes).first(cut));
    ASSERT_FALSE(t.decode(r).is_ok()) << cut;
    EXPECT_EQ(t.task(), Task::kRegression);  // untouched on failure
  }
  Xorshift64 flip(7);
  int accepted = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::uint8_t> bad = bytes;
    const int n_flips = 1 + static_cast<int>(flip.below(4));
    for (int k = 0; k < n_flips; ++k) bad[flip.below(bad.size())] ^= static_cast<std::uint8_t>(1 + flip.below(255));
    SGBTLearner t;
    ByteReader r(bad);
    if (t.decode(r).is_ok()) {
      // A flip in a value field can decode; the model must still be usable.
      ++accepted;
      double proba[3];
      if (t.n_classes() == 3) t.predict_proba_one(probe, proba);
      (void)t.predict_one(probe);
      t.learn_one(probe, 1.0);
    }
  }
  SUCCEED() << accepted << " corrupted copies decoded to a usable model";
}

TEST(SGBTLearner, ResetEqualsFreshAndMakeValidates) {
  SGBTLearner a = testing::sgbt_learner(fast_config(), Task::kClassification, 2),
              fresh = testing::sgbt_learner(fast_config(), Task::kClassification, 2);
  Xorshift64 r1(8);
  double x[3];
  for (int i = 0; i < 3000; ++i) a.learn_one(x, threshold_sample(r1, x));
  a.reset();
  Xorshift64 r2(9);
  for (int i = 0; i < 3000; ++i) {
    const double y = threshold_sample(r2, x);
    double pa[1], pb[1];
    a.predict_raw(x, pa);
    fresh.predict_raw(x, pb);
    ASSERT_EQ(pa[0], pb[0]) << i;
    a.learn_one(x, y);
    fresh.learn_one(x, y);
  }
  EXPECT_FALSE(SGBTLearner::make(fast_config(), {.task = Task::kClassification, .n_classes = 1}).is_ok());
  SGBTConfig bad = fast_config();
  bad.learning_rate = 0.0;
  EXPECT_FALSE(SGBTLearner::make(bad, {}).is_ok());
  EXPECT_TRUE(SGBTLearner::make(fast_config(), {}).is_ok());
}

}  // namespace
}  // namespace irithyll
