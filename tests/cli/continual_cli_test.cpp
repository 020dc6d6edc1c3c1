// `irithyll eval --continual ...` end to end: each guarded neural row runs,
// --save at 1500 then --load --skip 1500 reproduces the uninterrupted run's
// predictions exactly (the checkpoint carries the guard's state), and a
// strategy the model cannot use is refused with a clear message.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

struct Case {
  const char* name;
  const char* options;
};

class ContinualCli : public ::testing::TestWithParam<Case> {};

TEST_P(ContinualCli, SaveThenLoadResumesBitIdentically) {
  const Case& c = GetParam();
  const std::string tag = c.name;
  const std::string full = temp_path(tag + "_full.txt"), ckpt = temp_path(tag + ".ckpt"), rest = temp_path(tag + "_rest.txt");
  const std::string base = std::string("eval --stream friedman --seed 42 --quiet ") + c.options;
  auto a = run_cli(base + " --max-samples 3000 --predictions " + full);
  ASSERT_EQ(a.code, 0) << a.err;
  auto s = run_cli(base + " --max-samples 1500 --save " + ckpt);
  ASSERT_EQ(s.code, 0) << s.err;
  auto l = run_cli("eval --stream friedman --seed 42 --quiet --load " + ckpt + " --skip 1500 --max-samples 1500 --predictions " + rest);
  ASSERT_EQ(l.code, 0) << l.err;
  const auto whole = split_lines(read_text_file(full)), tail = split_lines(read_text_file(rest));
  ASSERT_EQ(whole.size(), 3000u);
  ASSERT_EQ(tail.size(), 1500u);
  for (std::size_t i = 0; i < tail.size(); ++i) ASSERT_EQ(whole[1500 + i], tail[i]) << "prediction " << i << " after resuming";
  for (const auto& p : {full, ckpt, rest}) std::remove(p.c_str());
}

const Case kCases[] = {
    {"slstm_regen", "--model slstm --continual regen --regen-interval 200 --continual-fraction 0.1"},
    {"mgrade_regen", "--model mgrade --continual regen --regen-interval 150 --continual-fraction 0.2 --continual-detector none"},
    {"mamba_regen", "--model mamba --mamba-version v3 --mamba-groups 5 --continual regen --regen-interval 300 --continual-detector adwin"},
    {"loglinear_ewc", "--model loglinear --continual ewc --ewc-lambda 10"},
    {"loglinear_mask", "--model loglinear --continual mask --continual-detector ddm"},
    {"loglinear_regen", "--model loglinear --continual regen --regen-interval 250"},
};

INSTANTIATE_TEST_SUITE_P(Rows, ContinualCli, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

TEST(ContinualCliOptions, UnusableStrategyIsRefused) {
  auto r = run_cli("eval --stream friedman --max-samples 100 --quiet --model slstm --continual ewc");
  EXPECT_NE(r.code, 0);
  // The table lists only what slstm accepts, so the choice itself is refused.
  EXPECT_NE(r.err.find("continual = 'ewc' is not one of none|regen"), std::string::npos) << r.err;
  auto v1 = run_cli("eval --stream friedman --max-samples 100 --quiet --model mamba --continual regen");
  EXPECT_NE(v1.code, 0);
  EXPECT_NE(v1.err.find("groups or blocks"), std::string::npos) << v1.err;
  auto bad = run_cli("eval --stream friedman --max-samples 100 --quiet --model loglinear --continual sometimes");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("sometimes"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace irithyll::testing
