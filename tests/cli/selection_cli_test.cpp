// `irithyll eval` with the selection learners: `auto` prints which
// configuration led (text and JSON), resumes from a checkpoint exactly, and
// --interval gives conformal intervals to any regressor and prediction sets
// to any classifier.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

std::vector<std::string> lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

const std::string kPool = " --model auto --pool 'sgbt:n-steps=10;hoeffding_tree;no_such_model' --window 300 ";

TEST(SelectionCli, AutoReportsTheLeaderInTextAndJson) {
  auto text = run_cli("eval --quiet --stream sea --max-samples 2000" + kPool);
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("auto: stack mode, 2 of 2 configurations alive"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("leader from sample: 1 sgbt:n-steps=10"), std::string::npos) << text.out;
  auto json = run_cli("eval --quiet --json --stream sea --max-samples 2000" + kPool);
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_NE(json.out.find("\"model_report\":{\"mode\":\"stack\",\"leader\":"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"config\":\"sgbt:n-steps=10\""), std::string::npos) << json.out;
}

TEST(SelectionCli, TheDefaultPoolHoldsTheLinearNaiveBayesAndKnnModelsThatFitTheTask) {
  // The race's report only: the provenance block lists the whole default pool
  // string, entries that do not fit the task included.
  auto report_of = [](const std::string& out) {
    const auto from = out.find("\"model_report\"");
    const auto to = out.find("\"provenance\"");
    return from == std::string::npos ? std::string() : out.substr(from, to == std::string::npos ? to : to - from);
  };
  auto cls = run_cli("eval --quiet --json --stream hyperplane --max-samples 600 --model auto");
  ASSERT_EQ(cls.code, 0) << cls.err;
  const std::string cls_report = report_of(cls.out);
  ASSERT_FALSE(cls_report.empty()) << cls.out;
  for (const char* entry : {"logistic_regression", "gaussian_nb", "knn", "hoeffding_tree", "\"arf\""})
    EXPECT_NE(cls_report.find(entry), std::string::npos) << entry << " missing in " << cls_report;
  EXPECT_EQ(cls_report.find("linear_regression"), std::string::npos) << cls_report;
  auto reg = run_cli("eval --quiet --json --stream friedman --max-samples 600 --model auto");
  ASSERT_EQ(reg.code, 0) << reg.err;
  const std::string reg_report = report_of(reg.out);
  ASSERT_FALSE(reg_report.empty()) << reg.out;
  for (const char* entry : {"linear_regression", "knn", "hoeffding_tree"})
    EXPECT_NE(reg_report.find(entry), std::string::npos) << entry << " missing in " << reg_report;
  EXPECT_EQ(reg_report.find("logistic_regression"), std::string::npos) << reg_report;
  EXPECT_EQ(reg_report.find("gaussian_nb"), std::string::npos) << reg_report;
}

TEST(SelectionCli, AutoResumesFromACheckpoint) {
  const std::string ckpt = write_temp_file("auto.ckpt", "");
  const std::string a = write_temp_file("auto_a.txt", ""), b = write_temp_file("auto_b.txt", "");
  ASSERT_EQ(run_cli("eval --quiet --stream sea --max-samples 1500 --save " + ckpt + kPool).code, 0);
  auto resumed = run_cli("eval --quiet --stream sea --load " + ckpt + " --skip 1500 --max-samples 700 --predictions " + a);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  ASSERT_EQ(run_cli("eval --quiet --stream sea --max-samples 2200 --predictions " + b + kPool).code, 0);
  const auto la = lines(a), lb = lines(b);
  ASSERT_EQ(la.size(), 700u);
  ASSERT_EQ(lb.size(), 2200u);
  for (std::size_t i = 0; i < la.size(); ++i) ASSERT_EQ(la[i], lb[1500 + i]) << i;
}

TEST(SelectionCli, IntervalGivesConformalIntervalsToAnyRegressor) {
  // 4000 Friedman samples: the 90% coverage of a calibrated interval has sd
  // 0.005; 0.85-0.95 leaves room for the first samples' warm-up.
  for (const char* model : {"sgbt --n-steps 10", "hoeffding_tree", "arf --n-trees 3"}) {
    auto r = run_cli(std::string("eval --quiet --json --stream friedman --max-samples 4000 --interval 0.9 --model ") + model);
    ASSERT_EQ(r.code, 0) << model << ": " << r.err;
    EXPECT_EQ(json_number(r.out, "interval_level"), 0.9) << r.out;
    EXPECT_GT(json_number(r.out, "interval_coverage"), 0.85) << model << r.out;
    EXPECT_LT(json_number(r.out, "interval_coverage"), 0.95) << model << r.out;
    EXPECT_GT(json_number(r.out, "interval_mean_width"), 0.0) << r.out;
  }
  auto text = run_cli("eval --quiet --stream friedman --max-samples 500 --interval 0.8 --model hoeffding_tree");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("interval     80%: coverage"), std::string::npos) << text.out;
  // Not asked for: no interval line, and the model is the bare one.
  auto plain = run_cli("eval --quiet --json --stream friedman --max-samples 200 --model hoeffding_tree");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(plain.out.find("interval_coverage"), std::string::npos) << plain.out;
}

TEST(SelectionCli, IntervalGivesPredictionSetsToAnyClassifier) {
  auto r = run_cli("eval --quiet --json --stream sea --max-samples 5000 --interval 0.9 --model hoeffding_tree");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_GT(json_number(r.out, "interval_coverage"), 0.86) << r.out;
  EXPECT_LT(json_number(r.out, "interval_coverage"), 0.94) << r.out;
  const double size = json_number(r.out, "interval_mean_set_size");
  EXPECT_GE(size, 0.5) << r.out;
  EXPECT_LE(size, 2.0) << r.out;
  auto text = run_cli("eval --quiet --stream sea --max-samples 500 --interval 0.9 --model hoeffding_tree");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("mean set size"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace irithyll::testing
