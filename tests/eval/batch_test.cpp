// learn_batch: the progress cadence (every N rows and once at the end for a
// partial block), the same model as a learn_one loop, and sizes that do not
// agree refused before anything is learned.
#include <gtest/gtest.h>

#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/eval/batch.hpp"

namespace irithyll {
namespace {

// A learner whose state is the sequence it was taught (x, y, weight), so two
// learners encode the same bytes exactly when they learned the same rows in
// the same order with the same weights.
class RecordingLearner final : public Learner {
 public:
  std::string_view name() const override { return "recording"; }
  Task task() const override { return Task::kRegression; }
  std::size_t n_features() const override { return 2; }
  void learn_one(std::span<const double> x, double y, double weight) override {
    seen_.insert(seen_.end(), x.begin(), x.end());
    seen_.push_back(y);
    seen_.push_back(weight);
  }
  double predict_one(std::span<const double>) const override { return 0.0; }
  void reset() override { seen_.clear(); }
  std::uint64_t n_samples_seen() const override { return seen_.size() / 4; }
  std::size_t memory_bytes() const override { return seen_.capacity() * sizeof(double); }
  void encode(ByteWriter& out) const override {
    for (double v : seen_) out.f64(v);
  }
  Status decode(ByteReader&) override { return Status::ok(); }

 private:
  std::vector<double> seen_;
};

std::unique_ptr<Learner> fresh() { return std::make_unique<RecordingLearner>(); }

std::vector<std::uint8_t> bytes_of(const Learner& l) {
  ByteWriter w;
  l.encode(w);
  return w.take();
}

TEST(LearnBatch, CadenceAndTheSameModelAsALoop) {
  const std::size_t n = 1003, d = 2;
  std::vector<double> rows(n * d), y(n), w(n);
  Xorshift64 rng(5);
  for (std::size_t i = 0; i < n; ++i) {
    rows[i * d] = rng.uniform();
    rows[i * d + 1] = rng.uniform();
    y[i] = 2.0 * rows[i * d] - rows[i * d + 1];
    w[i] = 0.5 + rng.uniform();
  }
  auto batch = fresh(), loop = fresh();
  std::vector<std::size_t> calls;
  ASSERT_TRUE(learn_batch(*batch, rows, d, y, w, 100, [&](std::size_t done) { calls.push_back(done); }).is_ok());
  for (std::size_t i = 0; i < n; ++i) loop->learn_one(std::span<const double>(rows).subspan(i * d, d), y[i], w[i]);
  EXPECT_EQ(bytes_of(*batch), bytes_of(*loop));
  ASSERT_EQ(calls.size(), 11u);
  EXPECT_EQ(calls.front(), 100u);
  EXPECT_EQ(calls[9], 1000u);
  EXPECT_EQ(calls.back(), 1003u);  // the partial block's call

  // A multiple of the cadence: no extra call at the end; every 0: none.
  calls.clear();
  auto exact = fresh();
  ASSERT_TRUE(learn_batch(*exact, std::span<const double>(rows).first(1000 * d), d, std::span<const double>(y).first(1000),
                          {}, 250, [&](std::size_t done) { calls.push_back(done); })
                  .is_ok());
  EXPECT_EQ(calls, (std::vector<std::size_t>{250, 500, 750, 1000}));
  calls.clear();
  ASSERT_TRUE(learn_batch(*exact, rows, d, y, {}, 0, [&](std::size_t done) { calls.push_back(done); }).is_ok());
  EXPECT_TRUE(calls.empty());
}

TEST(LearnBatch, MismatchedSizesLearnNothing) {
  auto m = fresh();
  const std::vector<double> rows(10, 0.5), y(4, 1.0), w(3, 1.0);
  EXPECT_FALSE(learn_batch(*m, rows, 2, y).is_ok());      // 10 values are not 4 rows of 2
  EXPECT_FALSE(learn_batch(*m, rows, 0, y).is_ok());
  EXPECT_FALSE(learn_batch(*m, std::span<const double>(rows).first(8), 2, y, w).is_ok());
  EXPECT_EQ(m->n_samples_seen(), 0u);
}

}  // namespace
}  // namespace irithyll
