// `irithyll eval` with the mixture-of-experts models: they build from the
// catalogue with their own options (--n-experts, --routing, --top-k,
// --gate-lr, the shadow settings) beside the SGBT ones, moe_distributional_sgbt
// reports interval coverage, and --save / --load resume bit-identically.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

TEST(MoECli, DistributionalMixtureReportsCoverage) {
  auto r = run_cli("eval --quiet --json --model moe_distributional_sgbt --stream hetero --max-samples 6000 "
                   "--n-steps 10 --n-experts 3 --shadow-warmup 200 --interval 0.9");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json_number(r.out, "interval_level"), 0.9);
  const double coverage = json_number(r.out, "interval_coverage");
  EXPECT_GT(coverage, 0.85) << r.out;
  EXPECT_LT(coverage, 0.95) << r.out;
  EXPECT_GT(json_number(r.out, "model_bytes"), 0.0);
}

TEST(MoECli, OptionsReachTheModel) {
  const std::string common = "eval --quiet --json --model moe_sgbt --stream friedman --max-samples 2000 --n-steps 5";
  auto soft = run_cli(common);
  auto top = run_cli(common + " --routing topk --top-k 1");
  auto more = run_cli(common + " --n-experts 6");
  ASSERT_EQ(soft.code, 0) << soft.err;
  ASSERT_EQ(top.code, 0) << top.err;
  ASSERT_EQ(more.code, 0) << more.err;
  EXPECT_NE(json_number(soft.out, "rmse"), json_number(top.out, "rmse"));
  EXPECT_GT(json_number(more.out, "model_bytes"), json_number(soft.out, "model_bytes"));
  auto bad = run_cli(common + " --routing nope");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("routing"), std::string::npos) << bad.err;
  auto cls = run_cli("eval --quiet --model moe_distributional_sgbt --stream sea --max-samples 10");
  EXPECT_NE(cls.code, 0);  // regression only
}

// Saving after 1000 samples and resuming on the rest predicts exactly what
// one uninterrupted run predicts.
void expect_resume(const std::string& model_opts, const std::string& stream, const std::string& tag) {
  const std::string ckpt = write_temp_file(tag + ".ckpt", "");
  const std::string a = write_temp_file(tag + "a.txt", ""), b = write_temp_file(tag + "b.txt", "");
  const std::string common = " --quiet --stream " + stream + " " + model_opts;
  ASSERT_EQ(run_cli("eval" + common + " --max-samples 1000 --save " + ckpt).code, 0);
  auto resumed = run_cli("eval --quiet --stream " + stream + " --load " + ckpt + " --skip 1000 --max-samples 600 --predictions " + a);
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  auto straight = run_cli("eval" + common + " --max-samples 1600 --predictions " + b);
  ASSERT_EQ(straight.code, 0) << straight.err;
  const auto ra = split_lines(read_text_file(a)), rb = split_lines(read_text_file(b));
  ASSERT_EQ(rb.size(), 1600u);
  ASSERT_EQ(ra.size(), 600u);
  for (std::size_t i = 0; i < ra.size(); ++i) EXPECT_EQ(ra[i], rb[1000 + i]) << tag << " row " << 1000 + i;
}

TEST(MoECli, ResumeIsBitIdentical) {
  expect_resume("--model moe_sgbt --n-steps 6 --gate-lr 0.1", "friedman", "moe_reg");
  expect_resume("--model moe_sgbt --n-steps 6 --routing topk --top-k 2", "sea", "moe_cls");
  expect_resume("--model moe_distributional_sgbt --n-steps 6 --shadow-warmup 100 --shadow-window 200", "hetero",
                "moe_dist");
}

}  // namespace
}  // namespace irithyll::testing
