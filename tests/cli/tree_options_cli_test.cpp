// The SGBT tree options from the command line: a model trained with
// --leaf-model linear saves and resumes, and `irithyll export` refuses it
// with one line naming the option (the packed formats carry constant leaves).
#include <gtest/gtest.h>

#include <string>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

TEST(TreeOptionsCli, ExportRefusesLinearLeavesNamingTheOption) {
  const std::string ckpt = temp_path("linear_leaves.ckpt"), out = temp_path("linear_leaves.bin");
  auto trained = run_cli("eval --stream friedman --max-samples 2000 --n-steps 5 --leaf-model linear --quiet --save " + ckpt);
  ASSERT_EQ(trained.code, 0) << trained.err;
  auto exported = run_cli("export --checkpoint " + ckpt + " --format f32 --out " + out);
  EXPECT_NE(exported.code, 0);
  EXPECT_NE(exported.err.find("leaf-model linear"), std::string::npos) << exported.err;
  EXPECT_EQ(split_lines(exported.err).size(), 1u) << exported.err;

  // The same options without linear leaves export.
  const std::string plain = temp_path("tree_options.ckpt");
  ASSERT_EQ(run_cli("eval --stream friedman --max-samples 2000 --n-steps 5 --split-reeval-interval 100 "
                    "--adaptive-depth 7.5 --quiet --save " + plain).code, 0);
  auto ok = run_cli("export --checkpoint " + plain + " --format f32 --out " + out);
  EXPECT_EQ(ok.code, 0) << ok.err;
}

}  // namespace
}  // namespace irithyll::testing
