// `irithyll eval` with models that predict intervals: --interval sets the
// level, the JSON carries interval_coverage / interval_mean_width (and, for
// quantile_sgbt, per-tau pinball and coverage and the crossing count), and
// --predictions writes value,lower,upper. Checkpoints resume through the CLI.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

TEST(IntervalCli, DistributionalReportsCoverageAndWritesBounds) {
  const std::string preds = write_temp_file("dist_preds.txt", "");
  auto r = run_cli("eval --quiet --json --model distributional_sgbt --stream hetero --max-samples 4000 --n-steps 10 "
                   "--interval 0.8 --predictions " + preds);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json_number(r.out, "interval_level"), 0.8);
  const double coverage = json_number(r.out, "interval_coverage");
  EXPECT_GT(coverage, 0.7) << r.out;
  EXPECT_LT(coverage, 0.9) << r.out;
  EXPECT_GT(json_number(r.out, "interval_mean_width"), 0.0);
  std::ifstream in(preds);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    double v, lo, hi;
    char c1, c2;
    std::istringstream row(line);
    ASSERT_TRUE(row >> v >> c1 >> lo >> c2 >> hi) << line;
    EXPECT_LE(lo, hi) << line;
  }
  EXPECT_EQ(lines, 4000);
}

TEST(IntervalCli, QuantileReportsEveryTauAndNoCrossings) {
  auto r = run_cli("eval --quiet --json --model quantile_sgbt --quantiles 0.1,0.5,0.9 --stream friedman "
                   "--max-samples 3000 --n-steps 10");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"tau\":0.1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"tau\":0.9"), std::string::npos) << r.out;
  EXPECT_EQ(json_number(r.out, "crossings"), 0.0) << r.out;
  auto text = run_cli("eval --quiet --model quantile_sgbt --stream friedman --max-samples 500 --n-steps 5");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("crossings    0"), std::string::npos) << text.out;
}

TEST(IntervalCli, ResumeIsBitIdentical) {
  const std::string ckpt = write_temp_file("q.ckpt", "");
  const std::string a = write_temp_file("qa.txt", ""), b = write_temp_file("qb.txt", "");
  const std::string common = " --quiet --model quantile_sgbt --stream friedman --n-steps 8";
  ASSERT_EQ(run_cli("eval" + common + " --max-samples 1000 --save " + ckpt).code, 0);
  auto resumed = run_cli("eval --quiet --stream friedman --load " + ckpt + " --skip 1000 --max-samples 500 --predictions " + a);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  auto straight = run_cli("eval" + common + " --max-samples 1500 --predictions " + b);
  ASSERT_EQ(straight.code, 0) << straight.err;
  std::ifstream fa(a), fb(b);
  std::string la, lb, last_b;
  std::vector<std::string> tail;
  while (std::getline(fb, lb)) tail.push_back(lb);
  ASSERT_EQ(tail.size(), 1500u);
  std::size_t i = 1000;
  while (std::getline(fa, la)) EXPECT_EQ(la, tail[i++]) << i;
  EXPECT_EQ(i, 1500u);
}

TEST(IntervalCli, BadLevelAndClassificationAreRefused) {
  auto bad = run_cli("eval --quiet --model distributional_sgbt --stream friedman --max-samples 10 --interval 1");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("--interval"), std::string::npos) << bad.err;
  auto cls = run_cli("eval --quiet --model quantile_sgbt --stream sea --max-samples 10");
  EXPECT_NE(cls.code, 0);
  EXPECT_NE(cls.err.find("does not support classification"), std::string::npos) << cls.err;
}

}  // namespace
}  // namespace irithyll::testing
