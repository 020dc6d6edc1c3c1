// End-to-end tests of `--model mondrian_forest`: listed by `irithyll models`,
// evaluated from the CLI, saved and resumed bit-identically, and a bad
// setting refused by name.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "support/cli_runner.hpp"

namespace irithyll {
namespace {

using testing::run_cli;

TEST(MondrianCli, ListedWithItsSettings) {
  const auto r = run_cli("models");
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("\nmondrian_forest "), std::string::npos);
  const auto one = run_cli("models mondrian_forest");
  ASSERT_EQ(one.code, 0);
  for (const char* setting : {"--n-estimators", "--step", "--use-aggregation", "--dirichlet", "--split-pure",
                              "--max-nodes", "--when-full"})
    EXPECT_NE(one.out.find(setting), std::string::npos) << setting;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// 1,000 samples in one run leave the same checkpoint, byte for byte, as 600
// saved, then loaded and continued over the next 400.
TEST(MondrianCli, SaveAndResumeEqualsOneRun) {
  const std::string whole = testing::temp_path("mondrian_whole.ckpt");
  const std::string half = testing::temp_path("mondrian_half.ckpt");
  const std::string resumed = testing::temp_path("mondrian_resumed.ckpt");
  const std::string base = "eval --model mondrian_forest --stream sea --n-estimators 3 --quiet ";
  ASSERT_EQ(run_cli(base + "--max-samples 1000 --save " + whole).code, 0);
  ASSERT_EQ(run_cli(base + "--max-samples 600 --save " + half).code, 0);
  const auto r = run_cli("eval --stream sea --quiet --skip 600 --max-samples 400 --load " + half + " --save " + resumed);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string a = slurp(whole), b = slurp(resumed);
  ASSERT_FALSE(a.empty());
  EXPECT_TRUE(a == b) << "the resumed checkpoint differs from the one-run checkpoint";
}

TEST(MondrianCli, BadSettingIsNamed) {
  const auto r = run_cli("eval --model mondrian_forest --stream sea --max-samples 10 --dirichlet 0");
  EXPECT_NE(r.code, 0);
  EXPECT_NE((r.out + r.err).find("dirichlet"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace irithyll
