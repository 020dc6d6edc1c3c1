// AutoLearner ("auto") with stand-in members of known accuracy: the leader,
// the race, revival, checkpoints and hostile bytes. The stand-ins read the
// label from feature 0 and predict it right when their own feature (col)
// is below their accuracy p, so their rewards are i.i.d. Bernoulli(p) and
// independent of each other.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "irithyll/core/rng.hpp"
#include "irithyll/selection/auto_learner.hpp"

namespace irithyll {
namespace {

class Oracle final : public Learner {
 public:
  double p = 0.5;
  std::size_t col = 1;
  std::uint64_t seen = 0;
  LearnerContext ctx;
  std::string_view name() const override { return "oracle"; }
  Task task() const override { return ctx.task; }
  std::size_t n_classes() const override { return ctx.n_classes; }
  std::size_t n_features() const override { return ctx.n_features; }
  void learn_one(std::span<const double>, double, double) override { ++seen; }
  double predict_one(std::span<const double> x) const override {
    if (x.size() <= col || !(x[0] == 0.0 || x[0] == 1.0)) return 0.0;
    return x[col] < p ? x[0] : 1.0 - x[0];
  }
  void predict_proba_one(std::span<const double> x, std::span<double> proba) const override {
    const double c = predict_one(x);
    proba[0] = c == 0.0 ? 1.0 : 0.0;
    proba[1] = 1.0 - proba[0];
  }
  void reset() override { seen = 0; }
  std::uint64_t n_samples_seen() const override { return seen; }
  std::size_t memory_bytes() const override { return sizeof(*this); }
  void encode(ByteWriter& out) const override {
    out.f64(p);
    out.u64(col);
    out.u64(seen);
    encode_context(ctx, out);
  }
  Status decode(ByteReader& in) override {
    p = in.f64();
    col = in.u64();
    seen = in.u64();
    if (!in.ok()) return in.status();
    return decode_context(in, ctx);
  }
};

bool oracle_available(std::string_view name, Task task) { return name == "oracle" && task == Task::kClassification; }

Result<std::unique_ptr<Learner>> make_oracle(std::string_view, const ModelSettings& settings,
                                             const LearnerContext& context) {
  auto o = std::make_unique<Oracle>();
  o->ctx = context;
  for (const auto& [k, v] : settings.items()) {
    if (k == "p") o->p = std::stod(v);
    else if (k == "col") o->col = std::stoul(v);
    else return Status::invalid_argument("oracle: unknown setting '" + k + "'");
  }
  return std::unique_ptr<Learner>(std::move(o));
}

std::unique_ptr<Learner> blank_oracle(std::string_view name) {
  return name == "oracle" ? std::make_unique<Oracle>() : nullptr;
}

const MemberFactory kFactory{&oracle_available, &make_oracle, &blank_oracle};
constexpr std::size_t kWidth = 6;

std::unique_ptr<AutoLearner> make_auto(const std::string& pool, std::uint64_t seed = 1, std::uint32_t revive = 0) {
  AutoConfig c;
  c.pool = pool;
  c.revive_after = revive;
  auto made = AutoLearner::make(c, LearnerContext{Task::kClassification, 2, kWidth, seed}, kFactory);
  EXPECT_TRUE(made.is_ok()) << made.status().to_string();
  return made.is_ok() ? std::move(made).value() : nullptr;
}

void feed(AutoLearner& a, Xorshift64& rng, std::uint64_t n) {
  std::vector<double> x(kWidth);
  for (std::uint64_t i = 0; i < n; ++i) {
    const double y = rng.uniform() < 0.5 ? 0.0 : 1.0;
    x[0] = y;
    for (std::size_t j = 1; j < kWidth; ++j) x[j] = rng.uniform();
    a.learn_one(x, y);
  }
}

TEST(Auto, TheWorseConfigurationIsDroppedAndTheBetterLeads) {
  auto a = make_auto("oracle:p=0.7,col=1;oracle:p=0.85,col=2;oracle:p=0.6,col=3");
  ASSERT_TRUE(a);
  Xorshift64 rng(5);
  feed(*a, rng, 20000);
  EXPECT_EQ(a->leader_entry(), 1u);
  EXPECT_EQ(a->n_members(), 1u);  // both worse ones dropped (false-failure rate < 1e-9, as in race_test)
  EXPECT_EQ(a->eliminations(), 2u);
  EXPECT_GT(a->samples_led(1), 15000u);
}

TEST(Auto, EqualConfigurationsSurviveAStationaryStream) {
  // Four equal arms, delta = 0.05: P(any drop in a run) <= 0.05. 40 runs:
  // at most 10 may drop one; a correct race exceeds that with probability
  // below 1e-4 (Binomial(40, 0.05) tail), the test's false-failure rate.
  int runs_with_drops = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    auto a = make_auto("oracle:p=0.8,col=1;oracle:p=0.8,col=2;oracle:p=0.8,col=3;oracle:p=0.8,col=4", seed);
    ASSERT_TRUE(a);
    Xorshift64 rng(seed * 7919);
    feed(*a, rng, 10000);
    runs_with_drops += a->eliminations() > 0;
  }
  EXPECT_LE(runs_with_drops, 10);
}

TEST(Auto, ADroppedConfigurationIsRevived) {
  auto a = make_auto("oracle:p=0.9,col=1;oracle:p=0.5,col=2", 3, 1000);
  ASSERT_TRUE(a);
  Xorshift64 rng(9);
  std::uint64_t fed = 0;
  while (a->eliminations() == 0 && fed < 5000) feed(*a, rng, 1), ++fed;
  ASSERT_EQ(a->eliminations(), 1u) << "never dropped";
  EXPECT_EQ(a->n_members(), 1u);
  feed(*a, rng, 999);
  EXPECT_EQ(a->n_members(), 1u);  // the slot waits revive-after samples
  feed(*a, rng, 1);
  EXPECT_EQ(a->n_members(), 2u);  // then the dropped configuration starts afresh
  EXPECT_NE(a->report_json().find("\"started\":2"), std::string::npos) << a->report_json();
  EXPECT_NE(a->report_text().find("race dropped 1, revived 1"), std::string::npos) << a->report_text();
}

TEST(Auto, PoolEntriesForOtherModelsAreSkipped) {
  auto a = make_auto("knn;oracle:p=0.9,col=1;naive_bayes:alpha=1");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->n_entries(), 1u);
  AutoConfig c;
  c.pool = "knn;naive_bayes";
  EXPECT_FALSE(AutoLearner::make(c, LearnerContext{Task::kClassification, 2, kWidth, 1}, kFactory).is_ok());
  c.pool = "oracle:bogus=1";
  EXPECT_FALSE(AutoLearner::make(c, LearnerContext{Task::kClassification, 2, kWidth, 1}, kFactory).is_ok());
  c.pool = "auto;oracle";
  EXPECT_FALSE(AutoLearner::make(c, LearnerContext{Task::kClassification, 2, kWidth, 1}, kFactory).is_ok());
  c.pool = "oracle;;oracle";
  EXPECT_FALSE(AutoLearner::make(c, LearnerContext{Task::kClassification, 2, kWidth, 1}, kFactory).is_ok());
  EXPECT_FALSE(AutoLearner::make(AutoConfig{}, LearnerContext{Task::kClassification, 2, kWidth, 1}, MemberFactory{})
                   .is_ok());
}

TEST(Auto, CheckpointResumesTheRaceBitIdentically) {
  const std::string pool = "oracle:p=0.9,col=1;oracle:p=0.6,col=2;oracle:p=0.88,col=3";
  auto a = make_auto(pool, 4, 500);
  ASSERT_TRUE(a);
  Xorshift64 rng(11);
  feed(*a, rng, 2500);  // past a drop, before its revival
  ByteWriter w;
  a->encode(w);
  AutoLearner b(kFactory);
  ByteReader r(w.data());
  ASSERT_TRUE(b.decode(r).is_ok());
  Xorshift64 rng_b = rng;
  feed(*a, rng, 3000);
  feed(b, rng_b, 3000);
  EXPECT_EQ(a->report_json(), b.report_json());
  ByteWriter wa, wb;
  a->encode(wa);
  b.encode(wb);
  EXPECT_EQ(wa.data(), wb.data());
}

TEST(Auto, HostileBytesAreRefused) {
  auto a = make_auto("oracle:p=0.9,col=1;oracle:p=0.6,col=2", 4);
  ASSERT_TRUE(a);
  Xorshift64 rng(1);
  feed(*a, rng, 500);
  ByteWriter w;
  a->encode(w);
  const auto& bytes = w.data();
  for (std::size_t cut = 0; cut < bytes.size(); cut += 7) {
    AutoLearner b(kFactory);
    ByteReader r(std::span(bytes.data(), cut));
    EXPECT_FALSE(b.decode(r).is_ok()) << "cut at " << cut;
  }
  Xorshift64 flip(3);
  for (int i = 0; i < 300; ++i) {
    auto copy = bytes;
    copy[flip.below(copy.size())] ^= static_cast<std::uint8_t>(1u << flip.below(8));
    AutoLearner b(kFactory);
    ByteReader r(copy);
    if (b.decode(r).is_ok()) {  // a flip in a value that stays valid: must still run
      feed(b, flip, 10);
    }
  }
  AutoLearner blank;
  ByteReader r(bytes);
  EXPECT_FALSE(blank.decode(r).is_ok());  // no factory
}

}  // namespace
}  // namespace irithyll
