// `irithyll eval --model hoeffding_tree|arf|bagged_sgbt` end to end, on both tasks: the
// run succeeds, --save at 1500 then --load --skip 1500 reproduces the
// uninterrupted run's predictions exactly, and a bad setting is refused with
// a message naming it.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

struct TreeCase {
  const char* name;
  const char* stream;   // also given to the resumed run
  const char* options;  // model and its settings: the checkpoint carries them
};

class TreeCli : public ::testing::TestWithParam<TreeCase> {};

TEST_P(TreeCli, SaveThenLoadResumesBitIdentically) {
  const TreeCase& c = GetParam();
  const std::string tag = std::string("tree_") + c.name;
  const std::string full = temp_path(tag + "_full.txt"), ckpt = temp_path(tag + ".ckpt"), rest = temp_path(tag + "_rest.txt");
  const std::string base = std::string("eval --seed 42 --quiet ") + c.stream + " " + c.options;
  auto a = run_cli(base + " --max-samples 3000 --predictions " + full);
  ASSERT_EQ(a.code, 0) << a.err;
  auto s = run_cli(base + " --max-samples 1500 --save " + ckpt);
  ASSERT_EQ(s.code, 0) << s.err;
  auto l = run_cli(std::string("eval --seed 42 --quiet ") + c.stream + " --load " + ckpt +
                   " --skip 1500 --max-samples 1500 --predictions " + rest);
  ASSERT_EQ(l.code, 0) << l.err;
  const auto whole = split_lines(read_text_file(full)), tail = split_lines(read_text_file(rest));
  ASSERT_EQ(whole.size(), 3000u);
  ASSERT_EQ(tail.size(), 1500u);
  for (std::size_t i = 0; i < tail.size(); ++i) ASSERT_EQ(whole[1500 + i], tail[i]) << "prediction " << i << " after resuming";
  for (const auto& p : {full, ckpt, rest}) std::remove(p.c_str());
}

const TreeCase kTreeCases[] = {
    {"ht_sea", "--stream sea", "--model hoeffding_tree --grace-period 100"},
    {"ht_friedman_linear", "--stream friedman", "--model hoeffding_tree --leaf-model linear"},
    {"arf_sea", "--stream sea", "--model arf --n-trees 5"},
    {"arf_friedman", "--stream friedman", "--model arf --n-trees 4"},
    {"bagged_sgbt_sea", "--stream sea", "--model bagged_sgbt --n-bags 3 --n-steps 5"},
};

INSTANTIATE_TEST_SUITE_P(Rows, TreeCli, ::testing::ValuesIn(kTreeCases),
                         [](const ::testing::TestParamInfo<TreeCase>& i) { return std::string(i.param.name); });

TEST(TreeCliOptions, BadSettingIsNamed) {
  auto r = run_cli("eval --stream sea --max-samples 100 --quiet --model arf --lambda 0");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("lambda"), std::string::npos) << r.err;
  auto h = run_cli("eval --stream sea --max-samples 100 --quiet --model hoeffding_tree --n-bins 9");
  EXPECT_NE(h.code, 0);
  EXPECT_NE(h.err.find("n-bins"), std::string::npos) << h.err;
}

}  // namespace
}  // namespace irithyll::testing
