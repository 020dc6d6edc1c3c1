#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/pipeline.hpp"
#include "irithyll/preprocess/standard_scaler.hpp"
#include "irithyll/stream/generators.hpp"

namespace irithyll {
namespace {

std::unique_ptr<Pipeline> scaled_sgbt() {
  SGBTConfig config;
  config.n_steps = 10;
  config.tree.grace_period = 50;
  config.learning_rate = 0.1;
  std::vector<std::unique_ptr<Transformer>> steps;
  steps.push_back(std::make_unique<StandardScaler>());
  auto sgbt = SGBTLearner::make(config, {.task = Task::kClassification, .n_classes = 2, .seed = config.seed});
  EXPECT_TRUE(sgbt.is_ok());
  return std::make_unique<Pipeline>(std::move(steps), std::unique_ptr<Learner>(std::move(sgbt).value()));
}

// Records what it is taught, to see what the pipeline hands the learner.
class RecordingLearner final : public Learner {
 public:
  std::string_view name() const override { return "recording"; }
  Task task() const override { return Task::kRegression; }
  std::size_t n_features() const override { return 1; }
  void learn_one(std::span<const double> x, double, double) override { seen.push_back(x[0]); }
  double predict_one(std::span<const double> x) const override { return x[0]; }
  void reset() override { seen.clear(); }
  std::uint64_t n_samples_seen() const override { return seen.size(); }
  std::size_t memory_bytes() const override { return 0; }
  void encode(ByteWriter&) const override {}
  Status decode(ByteReader&) override { return Status::ok(); }
  std::vector<double> seen;
};

TEST(Pipeline, StepsLearnOnlyAfterTransforming) {
  // The scaler counts the transformed sample in on the fly, so a step that
  // had already learned it would count it twice. With the past plus the
  // sample: 5 alone -> 0; 7 with 5 -> mean 6, sd sqrt(2), z = 1 / sqrt(2);
  // 9 with 5, 7 -> mean 7, sd 2, z = 1.
  std::vector<std::unique_ptr<Transformer>> steps;
  steps.push_back(std::make_unique<StandardScaler>());
  auto owned = std::make_unique<RecordingLearner>();
  RecordingLearner* rec = owned.get();
  Pipeline p(std::move(steps), std::move(owned));
  for (double v : {5.0, 7.0, 9.0}) {
    const double x[1] = {v};
    p.learn_one(x, 0.0);
  }
  ASSERT_EQ(rec->seen.size(), 3u);
  EXPECT_EQ(rec->seen[0], 0.0);
  EXPECT_NEAR(rec->seen[1], 1.0 / std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(rec->seen[2], 1.0, 1e-12);
  // 8 with 5, 7, 9: mean 7.25, sample variance 8.75 / 3.
  const double q[1] = {8.0};
  EXPECT_NEAR(p.predict_one(q), 0.75 / std::sqrt(8.75 / 3.0), 1e-12);
}

TEST(Pipeline, SavesAndResumesBitIdentically) {
  auto stream = make_generator("sea", 3, 4000);
  ASSERT_TRUE(stream.is_ok());
  auto a = scaled_sgbt();
  std::vector<double> x(3), pa(2), pb(2);
  double y = 0;
  for (int i = 0; i < 2500 && (*stream)->next(x, y); ++i) a->learn_one(x, y);
  auto b = decode_learner(encode_learner(*a));
  ASSERT_TRUE(b.is_ok()) << b.status().to_string();
  ASSERT_EQ((*b)->name(), "pipeline");
  int compared = 0;
  while ((*stream)->next(x, y)) {
    a->predict_proba_one(x, pa);
    (*b)->predict_proba_one(x, pb);
    ASSERT_EQ(pa, pb) << "after " << compared << " samples";
    a->learn_one(x, y);
    (*b)->learn_one(x, y);
    ++compared;
  }
  EXPECT_EQ(compared, 1500);
}

TEST(Pipeline, TruncatedStateIsRefused) {
  auto a = scaled_sgbt();
  const double x[3] = {1, 2, 3};
  for (int i = 0; i < 100; ++i) a->learn_one(x, i % 2);
  const auto bytes = encode_learner(*a);
  for (std::size_t cut = kCheckpointHeaderBytes; cut < bytes.size(); cut += 211) {
    std::vector<std::uint8_t> part(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
    EXPECT_FALSE(decode_learner(part).is_ok()) << "accepted a file cut at " << cut;
  }
}

}  // namespace
}  // namespace irithyll
