// End-to-end tests of `irithyll eval` through the built binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"
#include "support/shared_data.hpp"

namespace irithyll::testing {
namespace {

TEST(EvalCli, DefaultRunOnABuiltInStreamPrintsASummary) {
  auto r = run_cli("eval --max-samples 3000 --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("accuracy"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("samples/s"), std::string::npos);
  EXPECT_NE(r.out.find("samples      3000"), std::string::npos) << r.out;
}

TEST(EvalCli, JsonHasTheDocumentedKeys) {
  auto r = run_cli("eval --stream sea --max-samples 2000 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* key : {"\"samples\":2000", "\"seconds\"", "\"samples_per_second\"", "\"model_bytes\"",
                          "\"accuracy\"", "\"kappa\"", "\"macro_f1\"", "\"balanced_accuracy\"", "\"kappa_t\"",
                          "\"kappa_m\"", "\"no_change_accuracy\"", "\"majority_accuracy\"", "\"roc_auc\""})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in " << r.out;
  auto reg = run_cli("eval --stream friedman --max-samples 2000 --json");
  ASSERT_EQ(reg.code, 0) << reg.err;
  for (const char* key : {"\"mae\"", "\"rmse\"", "\"r2\"", "\"mape\"", "\"smape\""})
    EXPECT_NE(reg.out.find(key), std::string::npos) << key << " missing in " << reg.out;
}

TEST(EvalCli, ClassificationTextAndCompareShowTheBaselines) {
  auto r = run_cli("eval --stream sea --max-samples 2000 --model hoeffding_tree --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* line : {"kappa_t ", "no-change baseline accuracy", "kappa_m ", "majority-class baseline accuracy",
                           "balanced ", "roc_auc "})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << " missing in " << r.out;
  auto c = run_cli("compare --stream agrawal --max-samples 2000 --models hoeffding_tree,gaussian_nb");
  ASSERT_EQ(c.code, 0) << c.err;
  for (const char* text : {"baselines: no-change accuracy", "kappa_t", "kappa_m", "balanced"})
    EXPECT_NE(c.out.find(text), std::string::npos) << text << " missing in " << c.out;
  auto reg = run_cli("compare --stream friedman --max-samples 2000 --models hoeffding_tree,linear_regression");
  ASSERT_EQ(reg.code, 0) << reg.err;
  EXPECT_NE(reg.out.find("smape%"), std::string::npos) << reg.out;
}

// Two settings of one model get their specifications as labels, an exact
// repeat its position too; a model listed once keeps its bare name.
TEST(EvalCli, CompareLabelsRepeatedModelsApart) {
  auto c = run_cli(
      "compare --stream agrawal --max-samples 500 --quiet "
      "--models \"sgbt(n-steps=3),sgbt(n-steps=5),hoeffding_tree,hoeffding_tree,gaussian_nb\"");
  ASSERT_EQ(c.code, 0) << c.err;
  for (const char* label : {"\nsgbt(n-steps=3) ", "\nsgbt(n-steps=5) ", "\nhoeffding_tree #3 ", "\nhoeffding_tree #4 ",
                            "\ngaussian_nb "})
    EXPECT_NE(c.out.find(label), std::string::npos) << label << " missing in " << c.out;
}

TEST(EvalCli, SgbtPrintsFeatureImportancesSortedByGain) {
  auto r = run_cli("eval --stream friedman --max-samples 5000 --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::size_t at = r.out.find("feature importances");
  ASSERT_NE(at, std::string::npos) << r.out;
  // One row per feature (Friedman #1 has 10), largest gain share first.
  const std::string table = r.out.substr(at);
  std::vector<double> shares;
  std::size_t line = table.find('\n');
  while (line != std::string::npos && line + 1 < table.size()) {
    const std::size_t end = table.find('\n', line + 1);
    const std::string row = table.substr(line + 1, end - line - 1);
    double share = 0.0;
    unsigned long long splits = 0;
    char name[64];
    ASSERT_EQ(std::sscanf(row.c_str(), "%63s %lf %llu", name, &share, &splits), 3) << row;
    shares.push_back(share);
    line = end;
  }
  ASSERT_EQ(shares.size(), 10u) << table;
  EXPECT_TRUE(std::is_sorted(shares.rbegin(), shares.rend())) << table;
  auto j = run_cli("eval --stream friedman --max-samples 2000 --json");
  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_NE(j.out.find("\"feature_importances\":[{\"feature\":"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"splits\":"), std::string::npos) << j.out;
}

TEST(EvalCli, WideDataPrintsTheTopTwentyImportancesAndJsonKeepsAll) {
  // 40 features, the target a function of the first two: the text table stops
  // at 20 rows and names how many it left out; JSON lists all 40.
  std::string csv;
  for (int f = 0; f < 40; ++f) csv += "f" + std::to_string(f) + ",";
  csv += "y\n";
  std::uint64_t state = 12345;
  for (int row = 0; row < 3000; ++row) {
    double v[40];
    for (double& x : v) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      x = static_cast<double>(state >> 11) / 9007199254740992.0;
    }
    for (double x : v) csv += std::to_string(x) + ",";
    csv += std::to_string(3.0 * v[0] - 2.0 * v[1]) + "\n";
  }
  const std::string data = testing::write_temp_file("wide_importances.csv", csv);
  auto r = run_cli("eval --quiet --data " + data);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::size_t at = r.out.find("feature importances");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string table = r.out.substr(at);
  std::size_t rows = 0;
  for (std::size_t p = table.find('\n'); p != std::string::npos && p + 1 < table.size(); p = table.find('\n', p + 1))
    rows += table.compare(p + 1, 3, "  f") == 0 ? 1 : 0;
  EXPECT_EQ(rows, 20u) << table;
  EXPECT_NE(table.find("... 20 more features ("), std::string::npos) << table;
  auto j = run_cli("eval --json --data " + data);
  ASSERT_EQ(j.code, 0) << j.err;
  std::size_t listed = 0;
  for (std::size_t p = j.out.find("{\"feature\":"); p != std::string::npos; p = j.out.find("{\"feature\":", p + 1)) ++listed;
  EXPECT_EQ(listed, 40u) << j.out;
}

TEST(EvalCli, ResumingFromACheckpointIsBitIdenticalToTheUninterruptedRun) {
  const std::string full = temp_path("full_predictions.csv");
  const std::string ckpt = temp_path("half.ckpt");
  const std::string rest = temp_path("rest_predictions.csv");
  const std::string opts = " --stream agrawal --seed 7 --n-steps 20 --grace-period 50 --quiet";
  ASSERT_EQ(run_cli("eval" + opts + " --max-samples 8000 --predictions " + full).code, 0);
  auto saved = run_cli("eval" + opts + " --max-samples 4000 --save " + ckpt);
  ASSERT_EQ(saved.code, 0) << saved.err;
  // The generator is bounded at skip + max-samples, so both runs see the same rows.
  auto resumed = run_cli("eval --stream agrawal --seed 7 --quiet --load " + ckpt +
                         " --skip 4000 --max-samples 4000 --predictions " + rest);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  auto a = split_lines(read_text_file(full));
  auto b = split_lines(read_text_file(rest));
  ASSERT_FALSE(b.empty());
  // One line per sample: "class,probability of class 1", compared as text.
  ASSERT_EQ(a.size(), 8000u);
  ASSERT_EQ(b.size(), 4000u);
  for (std::size_t i = 0; i < b.size(); ++i)
    ASSERT_EQ(a[i + 4000], b[i]) << "prediction " << i << " differs after resuming";
}

TEST(EvalCli, CorruptedCheckpointIsRefusedAndLeftUntouched) {
  const std::string ckpt = temp_path("corrupt.ckpt");
  ASSERT_EQ(run_cli("eval --max-samples 500 --n-steps 5 --quiet --save " + ckpt).code, 0);
  std::string bytes = read_text_file(ckpt);
  ASSERT_GT(bytes.size(), 100u);
  bytes[bytes.size() / 2] ^= 0x40;
  write_temp_file("corrupt.ckpt", bytes);
  auto r = run_cli("eval --max-samples 500 --quiet --load " + ckpt);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("checksum"), std::string::npos) << r.err;
  EXPECT_EQ(read_text_file(ckpt), bytes);
  write_temp_file("truncated.ckpt", bytes.substr(0, 30));
  auto t = run_cli("eval --max-samples 500 --quiet --load " + temp_path("truncated.ckpt"));
  EXPECT_NE(t.code, 0);
  EXPECT_NE(t.err.find("truncated"), std::string::npos) << t.err;
}

TEST(EvalCli, LearningCurveFileHasAHeaderAndOneRowPerPeriod) {
  const std::string curve = temp_path("curve.csv");
  auto r = run_cli("eval --max-samples 5000 --curve-every 1000 --quiet --curve " + curve);
  ASSERT_EQ(r.code, 0) << r.err;
  auto lines = split_lines(read_text_file(curve));
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0].rfind("samples,", 0), 0u) << lines[0];
  EXPECT_EQ(lines[5].rfind("5000,", 0), 0u) << lines[5];
}

struct BadInput {
  const char* name;
  const char* csv;
  const char* extra_args;
  const char* expected;  // substring of stderr
};

class EvalCliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(EvalCliBadInput, FailsWithOneClearLineAndNonZeroExit) {
  const BadInput& c = GetParam();
  const std::string path = write_temp_file(std::string(c.name) + ".csv", c.csv);
  auto r = run_cli("eval --quiet --data " + path + " " + c.extra_args);
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_NE(r.err.find(c.expected), std::string::npos) << "stderr: " << r.err;
  EXPECT_EQ(r.err.find("irithyll: "), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, EvalCliBadInput,
    ::testing::Values(BadInput{"wrong_columns", "a,b,y\n1,2,0\n3,1\n", "", ":3:"},
                      BadInput{"not_a_number", "a,b,y\n1,2,0\n3,x7,1\n", "", ":3:2"},
                      BadInput{"empty", "", "", "empty"},
                      BadInput{"unknown_target", "a,b,y\n1,2,0\n", "--target nope", "nope"},
                      BadInput{"regression_on_strings", "a,y\n1,up\n2,down\n", "--task regression", "y"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(EvalCli, MissingFileAndUnknownOptionsAreErrors) {
  auto r = run_cli("eval --data /nonexistent/file.csv");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("/nonexistent/file.csv"), std::string::npos) << r.err;
  auto u = run_cli("eval --no-such-option 3");
  EXPECT_EQ(u.code, 2);
  EXPECT_NE(u.err.find("no-such-option"), std::string::npos);
}

TEST(EvalCli, NonFiniteFeaturesDoNotCrashOrPoisonTheModel) {
  std::string csv = "a,b,y\n";
  for (int i = 0; i < 600; ++i) {
    const double a = (i * 37 % 100) / 10.0;
    const char* b = i % 7 == 0 ? "nan" : i % 11 == 0 ? "inf" : i % 13 == 0 ? "" : "1.5";
    csv += std::to_string(a) + "," + b + "," + (a > 5 ? "1" : "0") + "\n";
  }
  const std::string path = write_temp_file("nonfinite.csv", csv);
  auto r = run_cli("eval --quiet --json --n-steps 10 --grace-period 20 --data " + path);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("null"), std::string::npos) << "a metric became NaN: " << r.out;
}

// The default SGBT on a regression stream: the per-tree drift monitor once
// saw raw |gradient| (target spread ~5 here) and replaced trees every few
// hundred samples, leaving r2 ~0.05; scaled by the target's spread it leaves
// the trees to grow (measured r2 0.72 at 100,000 samples, 0.67 at 30,000).
TEST(EvalCli, DefaultSgbtFitsARegressionStream) {
#if defined(IRITHYLL_SANITIZED)
  GTEST_SKIP() << "checked by the release pass; too slow under the sanitizers";
#endif
  auto r = run_cli("eval --quiet --json --stream friedman --max-samples 30000");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto pos = r.out.find("\"r2\":");
  ASSERT_NE(pos, std::string::npos) << r.out;
  EXPECT_GE(std::stod(r.out.substr(pos + 5)), 0.5) << r.out;
}

TEST(EvalCli, ElectricityMeetsTheAccuracyTarget) {
  IRITHYLL_REQUIRE_SHARED("datasets/elec.csv");
#if defined(IRITHYLL_SANITIZED)
  GTEST_SKIP() << "full-dataset accuracy is checked by the release pass; too slow under the sanitizers";
#endif
  auto r = run_cli("eval --quiet --json --data " + shared_path("datasets/elec.csv") +
                   " --n-steps 100 --max-depth 6 --learning-rate 0.1 --grace-period 50 --n-bins 32");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto pos = r.out.find("\"accuracy\":");
  ASSERT_NE(pos, std::string::npos);
  EXPECT_GE(std::stod(r.out.substr(pos + 11)), 0.88) << r.out;
}

}  // namespace
}  // namespace irithyll::testing
