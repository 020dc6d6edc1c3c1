#include "irithyll/eval/prequential.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <vector>

#include "irithyll/eval/report.hpp"

namespace irithyll {
namespace {

// Stream over fixed rows (one feature, the row index); optionally fails after
// `fail_after` rows, like a CSV with a bad row.
class VectorStream final : public Stream {
 public:
  VectorStream(Task task, std::vector<double> ys, std::size_t n_classes = 0, std::size_t fail_after = SIZE_MAX)
      : ys_(std::move(ys)), fail_after_(fail_after) {
    schema_.task = task;
    schema_.feature_names = {"i"};
    schema_.target_name = "y";
    for (std::size_t k = 0; k < n_classes; ++k) schema_.class_names.push_back(std::to_string(k));
  }
  const Schema& schema() const override { return schema_; }
  const Status& status() const override { return status_; }
  std::optional<std::uint64_t> size_hint() const override { return ys_.size(); }
  bool next(std::span<double> x, double& y) override {
    if (i_ == fail_after_) {
      status_ = Status::invalid_argument("rows.csv:9:2: not a number: 'abc' in numeric column 'i'");
      return false;
    }
    if (i_ == ys_.size()) return false;
    x[0] = static_cast<double>(i_);
    y = ys_[i_++];
    return true;
  }

 private:
  Schema schema_;
  Status status_;
  std::vector<double> ys_;
  std::size_t i_ = 0;
  std::size_t fail_after_;
};

// Predicts the class frequencies seen so far (uniform before any).
class MajorityClass final : public Learner {
 public:
  explicit MajorityClass(std::size_t k) : counts_(k, 0.0) {}
  std::string_view name() const override { return "majority"; }
  Task task() const override { return Task::kClassification; }
  std::size_t n_classes() const override { return counts_.size(); }
  std::size_t n_features() const override { return 1; }
  void learn_one(std::span<const double>, double y, double) override {
    counts_[static_cast<std::size_t>(y)] += 1.0;
    ++n_;
  }
  double predict_one(std::span<const double>) const override { return 0.0; }
  void predict_proba_one(std::span<const double>, std::span<double> p) const override {
    for (std::size_t k = 0; k < p.size(); ++k)
      p[k] = n_ == 0 ? 1.0 / static_cast<double>(p.size()) : counts_[k] / static_cast<double>(n_);
  }
  void reset() override {}
  std::uint64_t n_samples_seen() const override { return n_; }
  std::size_t memory_bytes() const override { return 123; }
  void encode(ByteWriter&) const override {}
  Status decode(ByteReader&) override { return Status::ok(); }

 private:
  std::vector<double> counts_;
  std::uint64_t n_ = 0;
};

class RunningMean final : public Learner {
 public:
  std::string_view name() const override { return "mean"; }
  Task task() const override { return Task::kRegression; }
  std::size_t n_features() const override { return 0; }
  void learn_one(std::span<const double>, double y, double) override { mean_ += (y - mean_) / double(++n_); }
  double predict_one(std::span<const double>) const override { return mean_; }
  void reset() override {}
  std::uint64_t n_samples_seen() const override { return n_; }
  std::size_t memory_bytes() const override { return 16; }
  void encode(ByteWriter&) const override {}
  Status decode(ByteReader&) override { return Status::ok(); }

 private:
  double mean_ = 0.0;
  std::uint64_t n_ = 0;
};

struct Recorder final : PrequentialObserver {
  std::vector<double> predictions, p1;
  std::vector<std::uint64_t> indices;
  std::vector<CurvePoint> curve;
  std::vector<std::pair<std::uint64_t, std::optional<std::uint64_t>>> progress;
  void on_prediction(std::uint64_t index, double, double prediction, std::span<const double> proba) override {
    indices.push_back(index);
    predictions.push_back(prediction);
    if (proba.size() == 2) p1.push_back(proba[1]);
  }
  void on_curve_point(const CurvePoint& p) override { curve.push_back(p); }
  void on_progress(std::uint64_t done, std::optional<std::uint64_t> total) override {
    progress.emplace_back(done, total);
  }
};

TEST(Prequential, MajorityClassHandComputed) {
  VectorStream s(Task::kClassification, {0, 1, 1, 0, 1}, 2);
  MajorityClass m(2);
  Recorder rec;
  PrequentialOptions o;
  o.curve_every = 2;
  o.progress_every = 2;
  o.rolling_window = 2;
  auto r = run_prequential(m, s, o, &rec);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  // Probabilities before each learn: (.5,.5) (1,0) (.5,.5) (1/3,2/3) (.5,.5);
  // predicted 0,0,0,1,0 against truth 0,1,1,0,1.
  EXPECT_EQ(rec.predictions, (std::vector<double>{0, 0, 0, 1, 0}));
  EXPECT_EQ(rec.indices, (std::vector<std::uint64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(rec.p1[3], 2.0 / 3.0);
  EXPECT_EQ(r->samples, 5u);
  EXPECT_EQ(r->model_bytes, 123u);
  EXPECT_EQ(r->learner, "majority");
  EXPECT_DOUBLE_EQ(r->metrics.accuracy, 0.2);
  // rows (2,3), cols (4,1): p_e = 11/25.
  EXPECT_NEAR(r->metrics.kappa, (0.2 - 0.44) / 0.56, 1e-12);
  // F1: class0 2*1/(2+4), class1 0.
  EXPECT_NEAR(r->metrics.macro_f1, (1.0 / 3.0) / 2.0, 1e-12);
  const double ll = (std::log(2.0) - std::log(1e-15) + std::log(2.0) + std::log(3.0) + std::log(2.0)) / 5.0;
  EXPECT_NEAR(r->metrics.log_loss, ll, 1e-12);
  EXPECT_EQ(r->confusion.at(1, 0), 3u);
  // Rolling window 2 holds samples 3 and 4: both wrong.
  EXPECT_EQ(r->rolling.accuracy, 0.0);
  EXPECT_TRUE(std::isnan(r->metrics.mae));
  // Curve at 2, 4 and a last point at 5; progress likewise.
  ASSERT_EQ(rec.curve.size(), 3u);
  EXPECT_EQ(rec.curve[0].samples, 2u);
  EXPECT_DOUBLE_EQ(rec.curve[0].cumulative.accuracy, 0.5);
  EXPECT_EQ(rec.curve[2].samples, 5u);
  EXPECT_DOUBLE_EQ(rec.curve[2].cumulative.accuracy, 0.2);
  ASSERT_EQ(rec.progress.size(), 3u);
  EXPECT_EQ(rec.progress[1].first, 4u);
  EXPECT_EQ(rec.progress[1].second, 5u);
  EXPECT_EQ(m.n_samples_seen(), 5u);
}

TEST(Prequential, RunningMeanHandComputed) {
  VectorStream s(Task::kRegression, {2, 4, 6, 8});
  RunningMean m;
  auto r = run_prequential(m, s, {});
  ASSERT_TRUE(r.is_ok());
  // Predictions 0, 2, 3, 4 -> errors 2, 2, 3, 4; SS_tot = 20.
  EXPECT_DOUBLE_EQ(r->metrics.mae, 11.0 / 4.0);
  EXPECT_DOUBLE_EQ(r->metrics.rmse, std::sqrt(33.0 / 4.0));
  EXPECT_NEAR(r->metrics.r2, 1.0 - 33.0 / 20.0, 1e-12);
  EXPECT_TRUE(std::isnan(r->metrics.accuracy));
  EXPECT_EQ(r->confusion.n_classes(), 0u);
}

TEST(Prequential, SkipAndMaxSamples) {
  VectorStream s(Task::kRegression, {100, 100, 2, 4, 6, 8});
  RunningMean m;
  Recorder rec;
  PrequentialOptions o;
  o.skip = 2;
  o.max_samples = 3;
  o.progress_every = 1;
  auto r = run_prequential(m, s, o, &rec);
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ(r->skipped, 2u);
  EXPECT_EQ(r->samples, 3u);
  EXPECT_EQ(m.n_samples_seen(), 3u);  // skipped rows are not learned
  EXPECT_DOUBLE_EQ(r->metrics.mae, 7.0 / 3.0);
  EXPECT_EQ(rec.progress.back().second, 3u);  // min(max_samples, rows left)
}

TEST(Prequential, StreamErrorPropagates) {
  VectorStream s(Task::kClassification, {0, 1, 1, 0, 1}, 2, 3);
  MajorityClass m(2);
  auto r = run_prequential(m, s, {});
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().message(), "rows.csv:9:2: not a number: 'abc' in numeric column 'i'");
}

TEST(Prequential, SetupAndTargetErrors) {
  {
    VectorStream s(Task::kRegression, {1});
    MajorityClass m(2);
    EXPECT_FALSE(run_prequential(m, s, {}).is_ok());
  }
  {
    VectorStream s(Task::kClassification, {0}, 3);
    MajorityClass m(2);
    auto r = run_prequential(m, s, {});
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().message(), "prequential: learner has 2 classes, the stream 3");
  }
  {
    VectorStream s(Task::kClassification, {0, 2}, 2);
    MajorityClass m(2);
    auto r = run_prequential(m, s, {});
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(m.n_samples_seen(), 1u);  // nothing learned past the bad sample
  }
  {
    // A missing target is an error only when asked; by default the row is
    // predicted and neither scored nor learned.
    VectorStream s(Task::kRegression, {1, std::nan("")});
    RunningMean m;
    PrequentialOptions strict;
    strict.unlabelled = UnlabelledPolicy::kError;
    EXPECT_FALSE(run_prequential(m, s, strict).is_ok());
    VectorStream s2(Task::kRegression, {1, std::nan(""), 3});
    RunningMean m2;
    auto r = run_prequential(m2, s2, {});
    ASSERT_TRUE(r.is_ok()) << r.status().message();
    EXPECT_EQ(r->samples, 2u);
    EXPECT_EQ(r->unlabelled, 1u);
    EXPECT_EQ(m2.n_samples_seen(), 2u);
  }
  {
    VectorStream s(Task::kRegression, {1});
    RunningMean m;
    PrequentialOptions o;
    o.rolling_window = 0;
    EXPECT_FALSE(run_prequential(m, s, o).is_ok());
  }
}

TEST(Report, JsonExactForClassification) {
  PrequentialReport r;
  r.task = Task::kClassification;
  r.learner = "a\"b\\c\n\x01";
  r.samples = 5;
  r.seconds = 0.5;
  r.samples_per_second = 10;
  r.model_bytes = 123;
  r.metrics.accuracy = 0.2;
  r.metrics.kappa = -0.25;
  r.metrics.macro_f1 = 0.125;
  r.metrics.log_loss = std::nan("");
  r.rolling.accuracy = 1;
  r.confusion = ConfusionMatrix(2);
  r.confusion.add(1, 0);
  EXPECT_EQ(report_to_json(r, Task::kClassification),
            "{\"learner\":\"a\\\"b\\\\c\\n\\u0001\",\"task\":\"classification\",\"samples\":5,\"skipped\":0,"
            "\"seconds\":0.5,\"samples_per_second\":10,\"model_bytes\":123,\"accuracy\":0.2,\"kappa\":-0.25,"
            "\"macro_f1\":0.125,\"log_loss\":null,\"balanced_accuracy\":null,\"kappa_t\":null,\"kappa_m\":null,"
            "\"no_change_accuracy\":null,\"majority_accuracy\":null,\"roc_auc\":null,"
            "\"rolling\":{\"accuracy\":1,\"kappa\":null,\"macro_f1\":null,"
            "\"log_loss\":null},\"confusion\":[[0,0],[1,0]]}");
}

TEST(Report, JsonRegressionAndCurveCsv) {
  VectorStream s(Task::kRegression, {2, 4, 6, 8});
  RunningMean m;
  std::ostringstream curve_out, pred_out;
  LearningCurveWriter curve(curve_out, Task::kRegression);
  PredictionWriter preds(pred_out, Task::kRegression, 0);
  ObserverList both;
  both.add(&curve);
  both.add(&preds);
  PrequentialOptions o;
  o.curve_every = 3;
  auto r = run_prequential(m, s, o, &both);
  ASSERT_TRUE(r.is_ok());
  const std::string json = report_to_json(*r, Task::kRegression);
  EXPECT_NE(json.find("\"mae\":2.75,"), std::string::npos) << json;
  EXPECT_EQ(json.find("accuracy"), std::string::npos);
  EXPECT_EQ(json.find("confusion"), std::string::npos);
  std::istringstream lines(curve_out.str());
  std::string header, row1, row2, extra;
  std::getline(lines, header);
  std::getline(lines, row1);
  std::getline(lines, row2);
  EXPECT_FALSE(std::getline(lines, extra));
  EXPECT_EQ(header, "samples,seconds,samples_per_second,mae,rmse,r2,rolling_mae,rolling_rmse,rolling_r2");
  EXPECT_EQ(row1.substr(0, 2), "3,");
  EXPECT_EQ(row2.substr(0, 2), "4,");
  EXPECT_EQ(pred_out.str(), "0\n2\n3\n4\n");
  EXPECT_TRUE(curve.status().is_ok());
}

TEST(Report, BinaryPredictionsCarryProbabilityOfClassOne) {
  VectorStream s(Task::kClassification, {0, 1, 1}, 2);
  MajorityClass m(2);
  std::ostringstream out;
  PredictionWriter preds(out, Task::kClassification, 2);
  ASSERT_TRUE(run_prequential(m, s, {}, &preds).is_ok());
  EXPECT_EQ(out.str(), "0,0.5\n0,0\n0,0.5\n");
}

}  // namespace
}  // namespace irithyll
