// `irithyll adjust`: a trained checkpoint retuned by the Tunable hooks is
// saved with its new settings (inspect shows them and the signals), resumes
// learning from the same state, and is the same model whether the change is
// made between two runs or before the first; models without the hooks and
// bad arguments are refused by name and write nothing.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

std::string adjust_table(int rows, int offset) {
  std::string text = "a,b,y\n";
  for (int i = offset; i < offset + rows; ++i) {
    const double a = (i * 37) % 50, b = (i * 11) % 20;
    text += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(0.2 * a * a - 3.0 * b) + "\n";
  }
  return text;
}

bool same_bytes_on_disk(const std::string& a, const std::string& b) {
  auto read = [](const std::string& p) {
    std::string out;
    if (FILE* f = std::fopen(p.c_str(), "rb")) {
      char buf[4096];
      std::size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
      std::fclose(f);
    }
    return out;
  };
  const std::string x = read(a);
  return !x.empty() && x == read(b);
}

const std::string kAdjustModel = " --target y --task regression --model sgbt --n-steps 8 --grace-period 50 --quiet";

TEST(AdjustCli, RetunesACheckpointThatThenResumes) {
  const std::string first = write_temp_file("adj_first.csv", adjust_table(1200, 0));
  const std::string second = write_temp_file("adj_second.csv", adjust_table(800, 1200));
  const std::string trained = temp_path("adj_trained.ckpt"), adjusted = temp_path("adj_adjusted.ckpt");
  ASSERT_EQ(run_cli("eval --data " + first + kAdjustModel + " --save " + trained).code, 0);
  const CliRun adjust = run_cli("adjust --checkpoint " + trained + " --out " + adjusted +
                                " --lr-multiplier 0.5 --lambda-delta 0.2 --depth-delta 1 --steps-delta 4");
  ASSERT_EQ(adjust.code, 0) << adjust.err;
  EXPECT_NE(adjust.out.find("learning-rate 0.1 -> 0.05"), std::string::npos) << adjust.out;
  EXPECT_NE(adjust.out.find("n-steps 8 -> 12"), std::string::npos) << adjust.out;
  EXPECT_NE(adjust.out.find("max-depth 6 -> 7"), std::string::npos) << adjust.out;
  EXPECT_NE(adjust.out.find("lambda 0.3 -> 0.5"), std::string::npos) << adjust.out;
  EXPECT_NE(adjust.out.find("residual_alignment"), std::string::npos) << adjust.out;

  const CliRun inspect = run_cli("inspect " + adjusted + " --json");
  ASSERT_EQ(inspect.code, 0) << inspect.err;
  EXPECT_NE(inspect.out.find("\"tuning_signals\":{\"residual_alignment\":"), std::string::npos) << inspect.out;
  const CliRun text = run_cli("inspect " + adjusted);
  EXPECT_NE(text.out.find("tuning signals: residual_alignment"), std::string::npos) << text.out;

  // Learning goes on from the adjusted state, twice the same.
  const std::string r1 = temp_path("adj_r1.ckpt"), r2 = temp_path("adj_r2.ckpt");
  ASSERT_EQ(run_cli("eval --data " + second + " --target y --quiet --load " + adjusted + " --save " + r1).code, 0);
  ASSERT_EQ(run_cli("eval --data " + second + " --target y --quiet --load " + adjusted + " --save " + r2).code, 0);
  EXPECT_TRUE(same_bytes_on_disk(r1, r2));
  EXPECT_FALSE(same_bytes_on_disk(r1, trained));
}

TEST(AdjustCli, BeforeTheFirstSampleItIsTheModelThoseSettingsBuild) {
  // An untrained checkpoint (zero rows learned), adjusted, then trained,
  // equals a model built with the adjusted settings.
  const std::string empty = write_temp_file("adj_empty.csv", "a,b,y\n1,2,3\n");
  const std::string data = write_temp_file("adj_data.csv", adjust_table(1500, 0));
  const std::string blank = temp_path("adj_blank.ckpt"), tuned = temp_path("adj_tuned.ckpt");
  const std::string a = temp_path("adj_a.ckpt"), b = temp_path("adj_b.ckpt");
  const CliRun made = run_cli("eval --data " + empty + kAdjustModel + " --max-samples 0 --save " + blank);
  ASSERT_EQ(made.code, 0) << made.err;
  ASSERT_EQ(run_cli("adjust --checkpoint " + blank + " --out " + tuned + " --lr-multiplier 2 --steps-delta -3").code, 0);
  ASSERT_EQ(run_cli("eval --data " + data + " --target y --quiet --load " + tuned + " --save " + a).code, 0);
  ASSERT_EQ(run_cli("eval --data " + data + " --target y --task regression --model sgbt --n-steps 5 --grace-period 50 "
                    "--learning-rate 0.2 --quiet --save " + b).code, 0);
  EXPECT_TRUE(same_bytes_on_disk(a, b));
}

// --prune-half-life becomes a setting (inspect and the next run see it);
// --prune-now replaces a step only once averages exist to judge by.
TEST(AdjustCli, PruningHalfLifeAndOnDemand) {
  const std::string first = write_temp_file("adj_prune1.csv", adjust_table(1500, 0));
  const std::string second = write_temp_file("adj_prune2.csv", adjust_table(600, 1500));
  const std::string trained = temp_path("adj_prune_t.ckpt"), kept = temp_path("adj_prune_k.ckpt");
  const std::string resumed = temp_path("adj_prune_r.ckpt"), pruned = temp_path("adj_prune_p.ckpt");
  ASSERT_EQ(run_cli("eval --data " + first + kAdjustModel + " --save " + trained).code, 0);
  CliRun r = run_cli("adjust --checkpoint " + trained + " --out " + kept + " --prune-now");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("pruning: no step qualified"), std::string::npos) << r.out;
  EXPECT_TRUE(same_bytes_on_disk(trained, kept));

  r = run_cli("adjust --checkpoint " + trained + " --out " + kept + " --prune-half-life 40");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("prune-half-life 0 -> 40"), std::string::npos) << r.out;
  // The checkpoint holds the new value: setting it again changes nothing.
  r = run_cli("adjust --checkpoint " + kept + " --out " + pruned + " --prune-half-life 40");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("no setting changed"), std::string::npos) << r.out;
  ASSERT_EQ(run_cli("eval --data " + second + " --target y --quiet --load " + kept + " --save " + resumed).code, 0);
  r = run_cli("adjust --checkpoint " + resumed + " --out " + pruned + " --prune-now");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("pruning: replaced the weakest mature step"), std::string::npos) << r.out;
  EXPECT_FALSE(same_bytes_on_disk(resumed, pruned));

  for (const char* bad : {"0.5", "-3", "abc", "nan"}) {
    r = run_cli("adjust --checkpoint " + trained + " --out " + pruned + " --prune-half-life " + bad);
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("half-life"), std::string::npos) << bad << ": " << r.err;
  }
}

TEST(AdjustCli, RefusalsNameTheProblemAndWriteNothing) {
  const std::string data = write_temp_file("adj_refuse.csv", adjust_table(300, 0));
  const std::string tree = temp_path("adj_tree.ckpt"), linear = temp_path("adj_linear.ckpt");
  const std::string out = temp_path("adj_never.ckpt");
  ASSERT_EQ(run_cli("eval --data " + data + " --target y --task regression --model hoeffding_tree --quiet --save " + tree)
                .code, 0);
  ASSERT_EQ(run_cli("eval --data " + data + " --target y --task regression --model linear_regression --quiet --save " +
                    linear).code, 0);
  CliRun r = run_cli("adjust --checkpoint " + tree + " --out " + out + " --lr-multiplier 0.5");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("'hoeffding_tree' has no settings to adjust"), std::string::npos) << r.err;
  r = run_cli("adjust --checkpoint " + linear + " --out " + out + " --depth-delta 1");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("linear_regression: a linear model has no depth or steps"), std::string::npos) << r.err;
  r = run_cli("adjust --checkpoint " + linear + " --out " + out + " --lr-multiplier 0");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("multiplier must be a finite number > 0"), std::string::npos) << r.err;
  r = run_cli("adjust --checkpoint " + linear + " --out " + out + " --lr-multiplier abc");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("lr-multiplier"), std::string::npos) << r.err;
  r = run_cli("adjust --checkpoint " + linear + " --lr-multiplier 2");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
  r = run_cli("adjust --checkpoint " + linear + " --out " + out + " --prune-half-life 50");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("linear_regression: a linear model has no parts to prune"), std::string::npos) << r.err;
  EXPECT_FALSE(std::fopen(out.c_str(), "rb"));
  // The linear model's rate moves, and says so.
  r = run_cli("adjust --checkpoint " + linear + " --out " + out + " --lr-multiplier 2 --lambda-delta 0.5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("learning-rate 0.01 -> 0.02"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("l2 0 -> 0.5"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace irithyll::testing
