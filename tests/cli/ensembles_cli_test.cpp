// `irithyll eval --model srp|leveraging_bagging|sgt` end to end (leveraging bagging
// with trees and with a base model): --save at 1500
// then --load --skip 1500 reproduces the uninterrupted run's predictions
// exactly, and a bad setting is refused with a message naming it.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

struct EnsembleCase {
  const char* name;
  const char* stream;
  const char* options;
};

class EnsembleCli : public ::testing::TestWithParam<EnsembleCase> {};

TEST_P(EnsembleCli, SaveThenLoadResumesBitIdentically) {
  const EnsembleCase& c = GetParam();
  const std::string tag = std::string("ens_") + c.name;
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

const EnsembleCase kEnsembleCases[] = {
    {"srp_agrawal", "--stream agrawal", "--model srp --n-models 4"},
    {"srp_sea_subspaces", "--stream sea", "--model srp --n-models 3 --training-method subspaces"},
    {"levbag_rbf", "--stream rbf", "--model leveraging_bagging --n-models 4 --output-codes on"},
    {"levbag_logistic", "--stream rbf",
     "--model leveraging_bagging --n-models 3 --output-codes on --base-model 'standard_scaler|logistic_regression(l2=0.001)'"},
    {"srp_friedman", "--stream friedman", "--model srp --n-models 4"},
    {"sgt_agrawal", "--stream agrawal", "--model sgt --grace-period 100"},
    {"sgt_friedman", "--stream friedman", "--model sgt --grace-period 100"},
};

INSTANTIATE_TEST_SUITE_P(Rows, EnsembleCli, ::testing::ValuesIn(kEnsembleCases),
                         [](const ::testing::TestParamInfo<EnsembleCase>& i) { return std::string(i.param.name); });

TEST(EnsembleCliOptions, BadSettingIsNamed) {
  auto r = run_cli("eval --stream sea --max-samples 100 --quiet --model srp --subspace-size 0");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("subspace-size"), std::string::npos) << r.err;
  auto l = run_cli("eval --stream sea --max-samples 100 --quiet --model leveraging_bagging --adwin-delta 1");
  EXPECT_NE(l.code, 0);
  EXPECT_NE(l.err.find("adwin-delta"), std::string::npos) << l.err;
}

}  // namespace
}  // namespace irithyll::testing
