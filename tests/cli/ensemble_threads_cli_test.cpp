// `--threads N` reaches arf, srp and leveraging_bagging from the command line:
// the same report and the same saved checkpoint bytes as one thread, and an
// out-of-range value is refused by name. A loaded checkpoint of those and
// sgbt takes `--threads N` too (checkpoints do not keep it); other models
// refuse it by name.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>

#include "support/cli_runner.hpp"

namespace irithyll {
namespace {

using testing::read_text_file;
using testing::run_cli;
using testing::temp_path;

// The report less its timing lines and the model's size (the pool's
// per-group counters add a few bytes).
std::string results(const std::string& report) {
  std::string out, line;
  std::istringstream in(report);
  while (std::getline(in, line))
    if (line.rfind("seconds", 0) != 0 && line.rfind("samples/s", 0) != 0 && line.rfind("model bytes", 0) != 0)
      out += line + "\n";
  return out;
}

TEST(EnsembleThreadsCli, ThreadsGiveTheSameReportAndCheckpoint) {
  // Base-model members (catalogue learners, here a pipeline) learn on the
  // pool as tree members do.
  const std::pair<std::string, std::string> models[] = {
      {"arf", ""}, {"srp", ""}, {"leveraging_bagging", ""},
      {"leveraging_bagging", " --base-model 'standard_scaler|logistic_regression'"},
      {"bagged_sgbt", " --n-bags 3 --n-steps 5"}};
  int run = 0;
  for (const auto& [model, extra] : models) {
    const std::string base = "eval --model " + model + extra + " --stream sea --max-samples 3000 --seed 3 --quiet";
    const std::string tag = std::to_string(run++);
    const std::string one = temp_path("threads1_" + tag + ".irck"), two = temp_path("threads2_" + tag + ".irck");
    const auto a = run_cli(base + " --save " + one);
    const auto b = run_cli(base + " --threads 2 --save " + two);
    ASSERT_EQ(a.code, 0) << a.err;
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_NE(a.out.find("accuracy"), std::string::npos);
    EXPECT_EQ(results(a.out), results(b.out)) << model;
    EXPECT_EQ(read_text_file(one), read_text_file(two)) << model << ": threads is not stored";
    std::remove(one.c_str());
    std::remove(two.c_str());
  }
}

TEST(EnsembleThreadsCli, LoadedCheckpointsContinueOnThreadsWithTheSameResults) {
  int run = 0;
  for (const std::string model : {"sgbt", "arf", "srp", "leveraging_bagging", "bagged_sgbt"}) {
    const std::string tag = std::to_string(run++);
    const std::string start = temp_path("load_threads_start_" + tag + ".irck");
    const std::string one = temp_path("load_threads1_" + tag + ".irck"), many = temp_path("load_threads3_" + tag + ".irck");
    const auto trained = run_cli("eval --model " + model + " --stream sea --max-samples 2000 --seed 3 --quiet --save " + start);
    ASSERT_EQ(trained.code, 0) << trained.err;
    const std::string resume = "eval --load " + start + " --stream sea --max-samples 3000 --seed 9 --quiet";
    const auto a = run_cli(resume + " --save " + one);
    const auto b = run_cli(resume + " --threads 3 --save " + many);
    ASSERT_EQ(a.code, 0) << model << ": " << a.err;
    ASSERT_EQ(b.code, 0) << model << ": " << b.err;
    EXPECT_NE(a.out.find("accuracy"), std::string::npos);
    EXPECT_EQ(results(a.out), results(b.out)) << model;
    EXPECT_EQ(read_text_file(one), read_text_file(many)) << model;
    for (const std::string& f : {start, one, many}) std::remove(f.c_str());
  }
  const std::string tree = temp_path("load_threads_tree.irck");
  ASSERT_EQ(run_cli("eval --model hoeffding_tree --stream sea --max-samples 500 --quiet --save " + tree).code, 0);
  const auto refused = run_cli("eval --load " + tree + " --stream sea --max-samples 100 --threads 2 --quiet");
  EXPECT_NE(refused.code, 0);
  EXPECT_NE(refused.err.find("'hoeffding_tree' model trains on one thread"), std::string::npos) << refused.err;
  const auto other = run_cli("eval --load " + tree + " --stream sea --max-samples 100 --grace-period 7 --quiet");
  EXPECT_NE(other.code, 0);
  EXPECT_NE(other.err.find("--grace-period"), std::string::npos) << other.err;
  std::remove(tree.c_str());
}

TEST(EnsembleThreadsCli, OutOfRangeThreadsAreRefused) {
  const auto r = run_cli("eval --model arf --stream sea --max-samples 100 --threads 0");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("threads"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace irithyll
