// End-to-end: SGBT's routing options from the command line, the diagnostics
// in `inspect` (text and --json) and `eval --json`, and `export` refusing a
// soft-routed checkpoint by naming the option.
#include <gtest/gtest.h>

#include <string>

#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/model_file.hpp"
#include "support/cli_runner.hpp"

namespace {

std::string soft_checkpoint() {
  irithyll::SGBTConfig config;
  EXPECT_TRUE(irithyll::set_sgbt_config_field(config, "soft-routing", "on").is_ok());
  EXPECT_TRUE(irithyll::set_sgbt_config_field(config, "handoff-window", "100").is_ok());
  EXPECT_TRUE(irithyll::set_sgbt_config_field(config, "n-steps", "8").is_ok());
  auto made = irithyll::SGBTLearner::make(config, {.task = irithyll::Task::kRegression, .seed = config.seed});
  EXPECT_TRUE(made.is_ok());
  irithyll::Xorshift64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    const double x[2] = {rng.uniform(), rng.uniform()};
    (*made)->learn_one(x, 3.0 * x[0] - x[1]);
  }
  const std::string path = irithyll::testing::temp_path("routing_cli_soft.ckpt");
  EXPECT_TRUE(irithyll::save_learner(path, **made).is_ok());
  return path;
}

TEST(RoutingCli, InspectShowsTheDiagnostics) {
  const std::string ckpt = soft_checkpoint();
  auto text = irithyll::testing::run_cli("inspect " + ckpt);
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("ensemble: 8 steps"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("soft routing bandwidths:"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("tree  depth  leaves"), std::string::npos) << text.out;
  auto json = irithyll::testing::run_cli("inspect --json " + ckpt);
  ASSERT_EQ(json.code, 0) << json.err;
  ASSERT_FALSE(json.out.empty());
  EXPECT_EQ(json.out.front(), '{');
  EXPECT_NE(json.out.find("\"diagnostics\":[{\"committee\":0,"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"n_steps\":8,"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"handoff_left\":"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"soft_bandwidths\":[0."), std::string::npos) << json.out;
}

TEST(RoutingCli, ExportRefusesSoftRoutingByName) {
  const std::string ckpt = soft_checkpoint();
  const std::string out = irithyll::testing::temp_path("routing_cli_soft.bin");
  auto r = irithyll::testing::run_cli("export --checkpoint " + ckpt + " --out " + out);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("soft-routing"), std::string::npos) << r.err;
}

TEST(RoutingCli, EvalTakesTheOptionsAndReportsDiagnostics) {
  auto r = irithyll::testing::run_cli(
      "eval --quiet --json --stream friedman --max-samples 3000 --n-steps 10 --soft-routing on --handoff-window 50");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"diagnostics\":[{\"committee\":0,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"n_steps\":10,"), std::string::npos) << r.out;
  auto bad = irithyll::testing::run_cli("eval --quiet --stream friedman --max-samples 100 --soft-bandwidth 0.1");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("friedman: sgbt: soft-bandwidth needs soft-routing on"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.err.find("sgbt: sgbt:"), std::string::npos) << bad.err;  // the model is named once
}

}  // namespace
