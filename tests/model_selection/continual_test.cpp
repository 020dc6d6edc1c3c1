// ContinualLearner ("continual", selection/continual.hpp) around catalogue
// models: recovery after an abrupt concept change, falls in the loss left
// alone, the guard strategies handed to models that have them (and refused,
// by name, for models that do not), and exact resumption from a checkpoint.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/selection/continual.hpp"
#include "irithyll/stream/generators/friedman.hpp"

namespace irithyll {
namespace {

constexpr std::uint64_t kFlipAt = 6000;

// Two uniform features; the label is x0 > x1 before kFlipAt and x0 < x1 after
// (every label flips at once, or over `ramp` samples where the new concept's
// share grows linearly), with 5% of labels noise.
struct FlipStream {
  explicit FlipStream(std::uint64_t seed, std::uint64_t ramp_samples = 0) : rng(seed), ramp(ramp_samples) {}
  void next(std::vector<double>& x, double& y) {
    x[0] = rng.uniform(), x[1] = rng.uniform();
    const bool above = x[0] > x[1];
    const double share_new =
        t < kFlipAt ? 0.0 : ramp == 0 ? 1.0 : std::min(1.0, static_cast<double>(t - kFlipAt) / static_cast<double>(ramp));
    ++t;
    y = (rng.uniform() < share_new ? !above : above) ? 1.0 : 0.0;
    if (rng.uniform() < 0.05) y = 1.0 - y;
  }
  Xorshift64 rng;
  std::uint64_t t = 0, ramp = 0;
};

std::unique_ptr<Learner> build(const std::string& name, const ModelSettings& settings, Task task, std::uint64_t seed) {
  LearnerContext context;
  context.task = task;
  context.n_classes = task == Task::kClassification ? 2 : 0;
  context.seed = seed;
  auto made = make_learner(name, settings, context);
  EXPECT_TRUE(made.is_ok()) << name << ": " << made.status().to_string();
  return made ? std::move(made).value() : nullptr;
}

// Prequential accuracy over [from, to) of the flip stream.
double accuracy_after_flip(Learner& model, std::uint64_t seed, std::uint64_t from, std::uint64_t to) {
  FlipStream s(seed);
  std::vector<double> x(2);
  double y = 0.0;
  std::uint64_t right = 0;
  for (std::uint64_t t = 0; t < to; ++t) {
    s.next(x, y);
    if (t >= from) right += model.predict_one(x) == y;
    model.learn_one(x, y);
  }
  return static_cast<double>(right) / static_cast<double>(to - from);
}

// A flip of every label is a drift ADWIN cannot miss; the replacement has
// learned the new concept since the warning, while the bare tree must grow
// new splits under leaves that still vote for the old one. 5 seeds, each
// must show a margin of 0.1 (the gap is 0.65-0.68 on every seed: the
// bound leaves room for ordinary variation, and a wrapper that never
// replaced its model would fail it outright).
TEST(Continual, RecoversFromAnAbruptChangeFasterThanTheBareModel) {
  std::uint64_t promotions = 0;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    auto bare = build("hoeffding_tree", {}, Task::kClassification, seed);
    auto wrapped = build("continual", {}, Task::kClassification, seed);
    ASSERT_TRUE(bare && wrapped);
    const double a_bare = accuracy_after_flip(*bare, seed, kFlipAt, kFlipAt + 3000);
    const double a_wrapped = accuracy_after_flip(*wrapped, seed, kFlipAt, kFlipAt + 3000);
    EXPECT_GT(a_wrapped, a_bare + 0.1) << "seed " << seed;
    const auto& c = dynamic_cast<const ContinualLearner&>(*wrapped);
    EXPECT_GE(c.n_drifts(), 1u) << "seed " << seed;
    promotions += c.n_promotions();
  }
  // Where ADWIN warned before it cut (its check runs every few samples, so a
  // flip this abrupt can give both at once), the warning-trained model took over.
  EXPECT_GE(promotions, 1u);
}

TEST(Continual, WithoutBackgroundAFreshModelTakesOver) {
  auto wrapped = build("continual", {{"background", "off"}}, Task::kClassification, 3);
  ASSERT_TRUE(wrapped);
  accuracy_after_flip(*wrapped, 3, kFlipAt, kFlipAt + 3000);
  const auto& c = dynamic_cast<const ContinualLearner&>(*wrapped);
  EXPECT_GE(c.n_drifts(), 1u);
  EXPECT_EQ(c.n_promotions(), 0u);
  EXPECT_FALSE(c.has_background());
}

// On a stationary regression stream the tree's error only falls; ADWIN sees
// those falls as changes, and the wrapper must leave the model alone, so its
// predictions are the bare model's, bit for bit.
TEST(Continual, AFallInTheLossReplacesNothing) {
  auto bare = build("hoeffding_tree", {}, Task::kRegression, 7);
  auto wrapped = build("continual", {}, Task::kRegression, 7);
  ASSERT_TRUE(bare && wrapped);
  Xorshift64 rng(7);
  std::vector<double> x(10);
  for (int t = 0; t < 20000; ++t) {
    for (double& v : x) v = rng.uniform();
    const double y = FriedmanGenerator::target(x) + rng.normal();
    ASSERT_EQ(bare->predict_one(x), wrapped->predict_one(x)) << "sample " << t;
    bare->learn_one(x, y);
    wrapped->learn_one(x, y);
  }
  const auto& c = dynamic_cast<const ContinualLearner&>(*wrapped);
  EXPECT_EQ(c.n_drifts(), 0u);
  EXPECT_GE(c.n_improvements(), 1u);  // the falls were seen, and ignored
}

TEST(Continual, DetectorsOfZeroOneErrorsAreForClassificationOnly) {
  for (const char* d : {"ddm", "eddm", "hddm_a", "hddm_w"}) {
    LearnerContext context;
    auto made = make_learner("continual", {{"detector", d}}, context);
    ASSERT_FALSE(made.is_ok()) << d;
    EXPECT_NE(made.status().message().find("[0, 1]"), std::string::npos) << made.status().to_string();
    context.task = Task::kClassification, context.n_classes = 2;
    EXPECT_TRUE(make_learner("continual", {{"detector", d}}, context).is_ok()) << d;
  }
  EXPECT_FALSE(make_learner("continual", {{"detector", "none"}}, LearnerContext{}).is_ok());
}

TEST(Continual, GuardStrategiesGoToModelsThatExposeWeightsOrUnits) {
  LearnerContext context;
  context.task = Task::kClassification, context.n_classes = 2, context.n_features = 4;
  // A tree ensemble has neither: the error names it and the way out.
  auto arf = make_learner("continual", {{"base", "arf"}, {"strategy", "ewc"}}, context);
  ASSERT_FALSE(arf.is_ok());
  EXPECT_NE(arf.status().message().find("'arf'"), std::string::npos) << arf.status().to_string();
  EXPECT_NE(arf.status().message().find("--strategy reset"), std::string::npos) << arf.status().to_string();
  // sLSTM's features are not trained by gradient: regeneration only.
  auto slstm = make_learner("continual", {{"base", "slstm"}, {"strategy", "mask"}}, context);
  ASSERT_FALSE(slstm.is_ok());
  EXPECT_NE(slstm.status().message().find("'slstm' offers continual none|regen"), std::string::npos)
      << slstm.status().to_string();
  EXPECT_TRUE(make_learner("continual", {{"base", "slstm"}, {"strategy", "regen"}}, context).is_ok());
  // A linear model's coefficients are trained weights, but it has no units.
  auto linear = make_learner("continual", {{"base", "logistic_regression"}, {"strategy", "regen"}}, context);
  ASSERT_FALSE(linear.is_ok());
  EXPECT_NE(linear.status().message().find("offers continual none|ewc|mask, not regen"), std::string::npos)
      << linear.status().to_string();
  // loglinear and the SGD linear models train their weights by gradient: the
  // guard reaches their settings.
  for (const auto& [base, strategy] : {std::pair{"loglinear", "ewc"}, std::pair{"loglinear", "mask"},
                                       std::pair{"loglinear", "regen"}, std::pair{"logistic_regression", "ewc"},
                                       std::pair{"softmax_regression", "mask"}}) {
    auto made = make_learner("continual", {{"base", base}, {"strategy", strategy}, {"detector", "pht"}}, context);
    ASSERT_TRUE(made.is_ok()) << base << " " << strategy << ": " << made.status().to_string();
    const auto& c = dynamic_cast<const ContinualLearner&>(**made);
    const ModelSettings inner = find_model(base)->settings_of(c.model());
    std::string kind, detector;
    for (const auto& [k, v] : inner.items()) {
      if (k == "continual") kind = v;
      if (k == "continual-detector") detector = v;
    }
    EXPECT_EQ(kind, strategy);
    EXPECT_EQ(detector, "pht");
  }
  // A detector the model's own guard does not offer is refused by name.
  auto kswin = make_learner("continual", {{"base", "loglinear"}, {"strategy", "ewc"}, {"detector", "kswin"}}, context);
  ASSERT_FALSE(kswin.is_ok());
  EXPECT_NE(kswin.status().message().find("not kswin"), std::string::npos) << kswin.status().to_string();
}

// Saved mid-stream, on a gradual change (so ADWIN warns before it cuts): at
// the first sample a background model is learning, or just after the change
// begins without background models; then
// resumed: the copy takes the same decisions and predictions as the model
// that went on, and ends with the same bytes.
TEST(Continual, ResumesExactlyFromACheckpoint) {
  for (const char* background : {"on", "off"}) {
    auto a = build("continual", {{"background", background}}, Task::kClassification, 11);
    ASSERT_TRUE(a);
    FlipStream s(11, 2000);
    std::vector<double> x(2);
    double y = 0.0;
    std::unique_ptr<Learner> b;
    bool saw_background = false;
    for (std::uint64_t t = 0; t < kFlipAt + 4000; ++t) {
      s.next(x, y);
      const bool learning = dynamic_cast<const ContinualLearner&>(*a).has_background();
      saw_background = saw_background || learning;
      if (!b && (learning || t == kFlipAt + 40)) {
        ByteWriter out;
        a->encode(out);
        b = make_blank_learner("continual");
        ASSERT_TRUE(b);
        ByteReader in(out.data());
        ASSERT_TRUE(b->decode(in).is_ok());
        ASSERT_TRUE(in.at_end());
      }
      if (b) {
        ASSERT_EQ(a->predict_one(x), b->predict_one(x)) << "sample " << t;
        b->learn_one(x, y);
      }
      a->learn_one(x, y);
    }
    EXPECT_EQ(saw_background, std::string(background) == "on");
    ByteWriter ea, eb;
    a->encode(ea);
    b->encode(eb);
    EXPECT_EQ(ea.data(), eb.data());
    EXPECT_GE(dynamic_cast<const ContinualLearner&>(*b).n_drifts(), 1u);
  }
}

// Every prefix of a record (cut anywhere) and every single-byte change is
// refused with a Status or decodes to a working model; never a crash.
TEST(Continual, HostileRecordsAreRefusedNotObeyed) {
  auto a = build("continual", {}, Task::kClassification, 5);
  ASSERT_TRUE(a);
  FlipStream s(5);
  std::vector<double> x(2);
  double y = 0.0;
  for (int t = 0; t < 300; ++t) {
    s.next(x, y);
    a->learn_one(x, y);
  }
  ByteWriter out;
  a->encode(out);
  const std::vector<std::uint8_t> bytes(out.data().begin(), out.data().end());
  for (std::size_t cut = 0; cut < bytes.size(); cut += 7) {
    auto b = make_blank_learner("continual");
    ByteReader in(std::span<const std::uint8_t>(bytes.data(), cut));
    EXPECT_FALSE(b->decode(in).is_ok() && in.at_end()) << "cut at " << cut;
  }
  for (std::size_t i = 0; i < bytes.size(); i += 5) {
    std::vector<std::uint8_t> bad = bytes;
    bad[i] ^= 0xA5;
    auto b = make_blank_learner("continual");
    ByteReader in(bad);
    if (b->decode(in).is_ok()) {
      b->learn_one(x, y);
      (void)b->predict_one(x);
    }
  }
}

}  // namespace
}  // namespace irithyll
