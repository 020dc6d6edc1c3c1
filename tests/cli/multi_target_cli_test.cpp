// `irithyll eval --target a,b,c` with multi_target_sgbt: per-target metrics
// (text and JSON) equal to one sgbt per target, one prediction column per
// target, a missing target column and a one-output model are named errors,
// rows skipped under --on-error skip are reported, and a checkpoint resumes
// bit-identically through --save/--load.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

// x1..x4 then targets a, b, c (different functions of the features).
std::string three_target_csv(std::size_t rows) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::ostringstream out;
  out.precision(17);
  out << "x1,x2,a,x3,b,x4,c\n";
  for (std::size_t i = 0; i < rows; ++i) {
    const double x1 = u(rng), x2 = u(rng), x3 = u(rng), x4 = u(rng);
    out << x1 << ',' << x2 << ',' << 10 * std::sin(3.14159 * x1 * x2) << ',' << x3 << ','
        << 20 * (x3 - 0.5) * (x3 - 0.5) + x4 << ',' << x4 << ',' << 5 * x1 - 3 * x4 + 0.1 * u(rng) << '\n';
  }
  return out.str();
}

std::string metric_of(const std::string& json, const std::string& target, const std::string& key) {
  const auto at = json.find("\"target\":\"" + target + "\"");
  if (at == std::string::npos) return "?";
  const auto k = json.find("\"" + key + "\":", at);
  const auto end = json.find_first_of(",}", k);
  return json.substr(k + key.size() + 3, end - k - key.size() - 3);
}

std::string single_metric(const std::string& json, const std::string& key) {
  const auto k = json.find("\"" + key + "\":");
  const auto end = json.find_first_of(",}", k);
  return json.substr(k + key.size() + 3, end - k - key.size() - 3);
}

TEST(MultiTargetCli, EveryTargetMatchesItsOwnSgbt) {
  const std::string csv = write_temp_file("mt3.csv", three_target_csv(1500));
  const std::string preds = write_temp_file("mt3_preds.txt", "");
  const std::string common = "eval --quiet --data " + csv + " --n-steps 8 --grace-period 50";
  auto r = run_cli(common + " --model multi_target_sgbt --target a,b,c --json --predictions " + preds);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"samples\":1500"), std::string::npos) << r.out;
  const std::vector<std::string> rows = split_lines(read_text_file(preds));
  ASSERT_EQ(rows.size(), 1500u);
  const std::vector<std::string> names{"a", "b", "c"};
  for (std::size_t k = 0; k < names.size(); ++k) {
    const std::string& t = names[k];
    std::string drop;
    for (const std::string& o : names)
      if (o != t) drop += (drop.empty() ? "" : ",") + o;
    const std::string single_preds = write_temp_file("mt3_single_" + t + ".txt", "");
    auto one = run_cli(common + " --model sgbt --json --target " + t + " --drop " + drop + " --predictions " +
                       single_preds);
    ASSERT_EQ(one.code, 0) << one.err;
    for (const char* key : {"mae", "rmse", "r2"}) EXPECT_EQ(metric_of(r.out, t, key), single_metric(one.out, key)) << t;
    // Column k of the multi-target predictions is that sgbt's prediction.
    const std::vector<std::string> single = split_lines(read_text_file(single_preds));
    ASSERT_EQ(single.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); i += 97) {
      std::istringstream row(rows[i]);
      std::string cell;
      for (std::size_t c = 0; c <= k; ++c) std::getline(row, cell, ',');
      EXPECT_DOUBLE_EQ(std::stod(cell), std::stod(single[i])) << i;
    }
  }
  auto text = run_cli(common + " --model multi_target_sgbt --target a,b,c");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("3 targets"), std::string::npos) << text.out;
  for (const std::string& t : names) EXPECT_NE(text.out.find("\n" + t + " "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("model bytes"), std::string::npos);
}

TEST(MultiTargetCli, BuiltInGeneratorWithThreeTargets) {
  auto r = run_cli("eval --quiet --json --model multi_target_sgbt --stream friedman3 --max-samples 3000 --n-steps 10");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* t : {"y1", "y2", "y3"}) EXPECT_GT(std::stod(metric_of(r.out, t, "r2")), 0.3) << t << r.out;
  auto single = run_cli("eval --quiet --model sgbt --stream friedman3 --max-samples 10");
  EXPECT_NE(single.code, 0);
  EXPECT_NE(single.err.find("predicts 1 target"), std::string::npos) << single.err;
}

TEST(MultiTargetCli, MissingColumnAndOneOutputModelAreNamedErrors) {
  const std::string csv = write_temp_file("mt_err.csv", three_target_csv(50));
  auto missing = run_cli("eval --quiet --data " + csv + " --model multi_target_sgbt --target a,zz,c");
  EXPECT_NE(missing.code, 0);
  EXPECT_NE(missing.err.find("unknown target column 'zz'"), std::string::npos) << missing.err;
  auto single = run_cli("eval --quiet --data " + csv + " --model sgbt --target a,b");
  EXPECT_NE(single.code, 0);
  EXPECT_NE(single.err.find("sgbt: predicts 1 target"), std::string::npos) << single.err;
  auto curve = run_cli("eval --quiet --data " + csv + " --model multi_target_sgbt --target a,b --curve " +
                       write_temp_file("mt_curve.csv", ""));
  EXPECT_NE(curve.code, 0);
  EXPECT_NE(curve.err.find("--curve"), std::string::npos) << curve.err;
  auto compare = run_cli("compare --quiet --data " + csv + " --models sgbt --target a,b");
  EXPECT_NE(compare.code, 0);
  EXPECT_NE(compare.err.find("--target names one column here"), std::string::npos) << compare.err;
}

// Rows passed over by --on-error skip are counted and named, as for one
// target (the multi-target run returned before that report).
TEST(MultiTargetCli, ReportsTheRowsItSkipped) {
  std::string text = three_target_csv(60);
  text += "1,2,x,3,4,5,6\n";  // line 62: text in a target column
  text += "1,2,3\n";          // line 63: too few columns
  const std::string csv = write_temp_file("mt_skip.csv", text);
  auto r = run_cli("eval --quiet --data " + csv + " --model multi_target_sgbt --target a,b,c --on-error skip");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("samples      60"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("skipped 2 malformed rows"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(":62:"), std::string::npos) << r.err;
}

TEST(MultiTargetCli, CheckpointResumeIsBitIdentical) {
  const std::string csv = write_temp_file("mt_ck.csv", three_target_csv(1200));
  const std::string ckpt = write_temp_file("mt.ckpt", "");
  const std::string a = write_temp_file("mt_a.txt", ""), b = write_temp_file("mt_b.txt", "");
  const std::string common = " --quiet --data " + csv + " --target a,b,c";
  const std::string model = " --model multi_target_sgbt --n-steps 8 --grace-period 50";
  ASSERT_EQ(run_cli("eval" + common + model + " --max-samples 800 --save " + ckpt).code, 0);
  auto resumed = run_cli("eval" + common + " --load " + ckpt + " --skip 800 --predictions " + a);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  auto straight = run_cli("eval" + common + model + " --predictions " + b);
  ASSERT_EQ(straight.code, 0) << straight.err;
  const auto ra = split_lines(read_text_file(a)), rb = split_lines(read_text_file(b));
  ASSERT_EQ(rb.size(), 1200u);
  ASSERT_EQ(ra.size(), 400u);
  for (std::size_t i = 0; i < ra.size(); ++i) ASSERT_EQ(ra[i], rb[800 + i]) << i;
  // The checkpoint knows its target count.
  auto fewer = run_cli("eval --quiet --data " + csv + " --target a,b --drop c --load " + ckpt);
  EXPECT_NE(fewer.code, 0);
  EXPECT_NE(fewer.err.find("predicts 3 target"), std::string::npos) << fewer.err;
  // `predict` writes one column per target.
  auto predicted = run_cli("predict --checkpoint " + ckpt + " --data " + csv + " --drop a,b,c");
  ASSERT_EQ(predicted.code, 0) << predicted.err;
  std::istringstream lines(predicted.out);
  std::string first;
  ASSERT_TRUE(std::getline(lines, first));
  EXPECT_EQ(std::count(first.begin(), first.end(), ','), 2) << first;
}

}  // namespace
}  // namespace irithyll::testing
