// `irithyll inspect` on checkpoints of tree models: the summary carries the
// tree count and a sorted importance table, --json the same as one object,
// --tree N [--dot] one tree; bad requests are refused with a reason.
#include <gtest/gtest.h>

#include <string>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

std::string saved(const std::string& name, const std::string& eval_args) {
  const std::string path = temp_path(name);
  auto r = run_cli("eval " + eval_args + " --save " + path + " --quiet");
  EXPECT_EQ(r.code, 0) << r.err;
  return path;
}

TEST(InspectCli, SgbtCheckpointShowsTreesAndImportances) {
  const std::string path = saved("inspect_sgbt.irck", "--stream friedman --max-samples 3000 --n-steps 5");
  auto r = run_cli("inspect " + path);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("trees: 5 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("feature importances (share of split gain"), std::string::npos) << r.out;

  auto j = run_cli("inspect " + path + " --json");
  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_EQ(j.out.rfind("{\"file\":", 0), 0u) << j.out;
  EXPECT_NE(j.out.find("\"learner\":\"sgbt\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"trees\":5"), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"feature_importances\":[{\"feature\":\"x"), std::string::npos) << j.out;

  auto t = run_cli("inspect " + path + " --tree 4");
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_EQ(t.out.rfind("tree 4 of 5 (step 4):\n", 0), 0u) << t.out;
  EXPECT_NE(t.out.find("leaf "), std::string::npos) << t.out;
  auto d = run_cli("inspect " + path + " --tree 0 --dot");
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_EQ(d.out.rfind("digraph tree {", 0), 0u) << d.out;
}

TEST(InspectCli, HoeffdingTreeUsesColumnNames) {
  const std::string csv = write_temp_file("inspect_ht.csv", [] {
    std::string s = "price,noise,label\n";
    for (int i = 0; i < 3000; ++i) {
      const double p = (i * 37 % 100) / 100.0, n = (i * 53 % 100) / 100.0;
      s += std::to_string(p) + "," + std::to_string(n) + "," + (p > 0.5 ? "up" : "down") + "\n";
    }
    return s;
  }());
  const std::string path = saved("inspect_ht.irck", "--model hoeffding_tree --data " + csv + " --target label");
  auto r = run_cli("inspect " + path);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("splits in the live trees"), std::string::npos) << r.out;
  auto t = run_cli("inspect " + path + " --tree 0");
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("\nprice <= "), std::string::npos) << t.out;
}

TEST(InspectCli, RefusesBadTreeRequests) {
  const std::string path = saved("inspect_bad.irck", "--stream sea --max-samples 500 --n-steps 3");
  auto r = run_cli("inspect " + path + " --tree 3");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("the model has 3 trees (0..2)"), std::string::npos) << r.err;
  r = run_cli("inspect " + path + " --dot");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--dot needs --tree"), std::string::npos) << r.err;
  r = run_cli("inspect " + path + " --tree -1");
  EXPECT_NE(r.code, 0);
  const std::string attention = saved("inspect_attn.irck", "--model attention --stream friedman --max-samples 200");
  r = run_cli("inspect " + attention + " --tree 0");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("has no trees"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace irithyll::testing
