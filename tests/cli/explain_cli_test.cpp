// `irithyll explain`: per-row SHAP values of a saved tree model by header
// name; the JSON lines add up (base + contributions = raw = the model's raw
// prediction); classes; the SVG plots; and a model without trees refused
// with its name.

// GCC 12 with ASan at -O1 reports std::regex's internal std::function as
// "may be used uninitialized" (inside libstdc++); a false alarm that the plain
// build does not raise.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

std::string regression_table(int rows, bool reordered) {
  std::string text = reordered ? "b,y,a,c\n" : "a,b,c,y\n";
  for (int i = 0; i < rows; ++i) {
    const double a = (i * 37) % 50, b = (i * 11) % 20, c = (i * 7) % 13;
    const double y = 2.0 * a - 3.0 * (b > 10 ? 1.0 : 0.0) + 0.1 * c;
    const std::string sa = i % 17 == 3 ? "" : std::to_string(a);  // some missing values
    text += reordered ? std::to_string(b) + "," + std::to_string(y) + "," + sa + "," + std::to_string(c) + "\n"
                      : sa + "," + std::to_string(b) + "," + std::to_string(c) + "," + std::to_string(y) + "\n";
  }
  return text;
}

// The numbers after `"key": ` in a JSON line (flat scan; enough for our own output).
double number_after(const std::string& line, const std::string& key) {
  const std::size_t at = line.find("\"" + key + "\": ");
  if (at == std::string::npos) return NAN;
  return std::stod(line.substr(at + key.size() + 4));
}

// A line's base and contributions add up to its raw value (to 1e-9 of it);
// returns raw. `model` names the checkpoint in a failure.
double expect_adds_up(const std::string& l, const std::string& model = "") {
  const double raw = number_after(l, "raw");
  EXPECT_NEAR(number_after(l, "base") + number_after(l, "a") + number_after(l, "b") + number_after(l, "c"), raw,
              1e-9 * (1.0 + std::abs(raw))) << model << (model.empty() ? "" : ": ") << l;
  return raw;
}

class ExplainCli : public ::testing::Test {
 protected:
  void SetUp() override {
    train_ = write_temp_file("explain_train.csv", regression_table(2000, false));
    ckpt_ = temp_path("explain.ckpt");
    auto r = run_cli("eval --data " + train_ + " --task regression --target y --model sgbt --n-steps 10 --grace-period 50 --quiet --save " + ckpt_);
    ASSERT_EQ(r.code, 0) << r.err;
  }
  std::string train_, ckpt_;
};

TEST_F(ExplainCli, JsonLinesAddUpToTheRawPrediction) {
  const std::string rows = write_temp_file("explain_rows.csv", regression_table(30, true));
  auto r = run_cli("explain --checkpoint " + ckpt_ + " --data " + rows + " --drop y --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto p = run_cli("predict --checkpoint " + ckpt_ + " --data " + rows + " --drop y");
  ASSERT_EQ(p.code, 0) << p.err;
  const auto lines = split_lines(r.out), preds = split_lines(p.out);
  ASSERT_EQ(lines.size(), 30u);
  ASSERT_EQ(preds.size(), 30u);
  bool any_nonzero = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    ASSERT_EQ(l.front(), '{');
    ASSERT_NE(l.find("\"contributions\": {\"a\": "), std::string::npos) << l;
    const double base = number_after(l, "base"), raw = number_after(l, "raw");
    const double sum = base + number_after(l, "a") + number_after(l, "b") + number_after(l, "c");
    EXPECT_NEAR(sum, raw, 1e-9 * (1.0 + std::abs(raw))) << l;
    EXPECT_NEAR(raw, std::stod(preds[i]), 1e-9 * (1.0 + std::abs(raw))) << l;  // squared loss: raw = prediction
    any_nonzero = any_nonzero || std::abs(number_after(l, "a")) > 1e-6;
  }
  EXPECT_TRUE(any_nonzero);
  // CSV form: header then one line per row.
  auto csv = run_cli("explain --checkpoint " + ckpt_ + " --data " + rows + " --drop y");
  ASSERT_EQ(csv.code, 0) << csv.err;
  const auto csv_lines = split_lines(csv.out);
  ASSERT_EQ(csv_lines.size(), 31u);
  EXPECT_EQ(csv_lines[0], "base,a,b,c,raw");
}

TEST_F(ExplainCli, InterventionalAndPlots) {
  const std::string rows = write_temp_file("explain_rows2.csv", regression_table(20, false));
  auto r = run_cli("explain --checkpoint " + ckpt_ + " --data " + rows + " --drop y --json --background " + train_ +
                   " --background-rows 25");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const std::string& l : split_lines(r.out)) {
    const double sum = number_after(l, "base") + number_after(l, "a") + number_after(l, "b") + number_after(l, "c");
    EXPECT_NEAR(sum, number_after(l, "raw"), 1e-9 * (1.0 + std::abs(sum))) << l;
  }
  const std::string one = write_temp_file("explain_one.csv", regression_table(1, false));
  const std::string waterfall = temp_path("explain_waterfall.svg"), swarm = temp_path("explain_swarm.svg");
  ASSERT_EQ(run_cli("explain --checkpoint " + ckpt_ + " --data " + one + " --drop y --plot " + waterfall).code, 0);
  ASSERT_EQ(run_cli("explain --checkpoint " + ckpt_ + " --data " + rows + " --drop y --plot " + swarm).code, 0);
  EXPECT_NE(read_text_file(waterfall).find("SHAP waterfall"), std::string::npos);
  EXPECT_NE(read_text_file(swarm).find("SHAP beeswarm"), std::string::npos);
}

TEST_F(ExplainCli, JsonSchemaIsExactlyBaseContributionsRaw) {
  const std::string rows = write_temp_file("explain_rows3.csv", regression_table(5, false));
  auto r = run_cli("explain --checkpoint " + ckpt_ + " --data " + rows + " --drop y --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::regex schema(R"(\{"base": [^,{}]+, "contributions": \{"a": [^,{}]+, "b": [^,{}]+, "c": [^,{}]+\}, "raw": [^,{}]+\})");
  for (const std::string& l : split_lines(r.out)) EXPECT_TRUE(std::regex_match(l, schema)) << l;
}

// sgbt's wrappers: every line adds up and raw is the model's prediction.
TEST(ExplainCliWrappers, AdaptiveBaggedAndMultiTarget) {
  const std::string train = write_temp_file("explain_wrap.csv", regression_table(1500, false));
  const std::string rows = write_temp_file("explain_wrap_rows.csv", regression_table(12, false));
  for (const std::string model : {"adaptive_sgbt", "bagged_sgbt"}) {
    const std::string ckpt = temp_path("explain_" + model + ".ckpt");
    auto t = run_cli("eval --data " + train + " --task regression --target y --model " + model +
                     " --n-steps 6 --grace-period 50 --quiet --save " + ckpt);
    ASSERT_EQ(t.code, 0) << t.err;
    auto r = run_cli("explain --checkpoint " + ckpt + " --data " + rows + " --drop y --json");
    ASSERT_EQ(r.code, 0) << model << ": " << r.err;
    auto p = run_cli("predict --checkpoint " + ckpt + " --data " + rows + " --drop y");
    ASSERT_EQ(p.code, 0) << p.err;
    const auto lines = split_lines(r.out), preds = split_lines(p.out);
    ASSERT_EQ(lines.size(), 12u);
    ASSERT_EQ(preds.size(), 12u);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string& l = lines[i];
      const double raw = expect_adds_up(l, model);
      EXPECT_NEAR(raw, std::stod(preds[i]), 1e-9 * (1.0 + std::abs(raw))) << model << ": " << l;
    }
  }
  // Two targets: one line per row and target, named by position (checkpoints
  // keep the first target's name only).
  std::string text = "a,b,c,y,z\n";
  for (int i = 0; i < 1500; ++i) {
    const double a = (i * 37) % 50, b = (i * 11) % 20, c = (i * 7) % 13;
    text += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(c) + "," + std::to_string(2.0 * a - b) +
            "," + std::to_string(c * b) + "\n";
  }
  const std::string multi = write_temp_file("explain_multi.csv", text), ckpt = temp_path("explain_multi.ckpt");
  auto t = run_cli("eval --data " + multi + " --model multi_target_sgbt --target y,z --n-steps 6 --grace-period 50 --quiet --save " + ckpt);
  ASSERT_EQ(t.code, 0) << t.err;
  const std::string few = write_temp_file("explain_multi_rows.csv", text.substr(0, text.find('\n', 200) + 1));
  auto r = run_cli("explain --checkpoint " + ckpt + " --data " + few + " --drop y,z --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto lines = split_lines(r.out);
  ASSERT_FALSE(lines.empty());
  ASSERT_EQ(lines.size() % 2, 0u);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    EXPECT_NE(l.find(i % 2 == 0 ? "\"target\": \"target 0\"" : "\"target\": \"target 1\""), std::string::npos) << l;
    expect_adds_up(l);
  }
  // Quantiles: one line per row and level, named by the level; the middle
  // level's raw is the prediction wherever the levels do not cross.
  const std::string q = temp_path("explain_quantile.ckpt");
  ASSERT_EQ(run_cli("eval --data " + train + " --task regression --target y --model quantile_sgbt --n-steps 4 --quiet --save " + q).code, 0);
  auto quantiles = run_cli("explain --checkpoint " + q + " --data " + rows + " --drop y --json");
  ASSERT_EQ(quantiles.code, 0) << quantiles.err;
  const auto qlines = split_lines(quantiles.out);
  ASSERT_EQ(qlines.size(), 36u);
  for (std::size_t i = 0; i < qlines.size(); ++i) {
    const std::string& l = qlines[i];
    const char* level[] = {"\"target\": \"quantile 0.05\"", "\"target\": \"quantile 0.5\"", "\"target\": \"quantile 0.95\""};
    EXPECT_NE(l.find(level[i % 3]), std::string::npos) << l;
    expect_adds_up(l);
  }
  // A tree learner whose output is not a sum of trees: refused by name.
  const std::string moe = temp_path("explain_moe.ckpt");
  ASSERT_EQ(run_cli("eval --data " + train + " --task regression --target y --model moe_sgbt --quiet --save " + moe).code, 0);
  auto refused = run_cli("explain --checkpoint " + moe + " --data " + rows + " --drop y");
  EXPECT_NE(refused.code, 0);
  EXPECT_NE(refused.err.find("model 'moe_sgbt' cannot be explained"), std::string::npos) << refused.err;
}

// The Hoeffding-tree ensembles and distributional_sgbt's location: every
// line adds up; regression raw is the prediction; a classifier's raw is the
// explained class's probability (majority-class leaves, so the trees hold
// exactly what the vote averages).
TEST(ExplainCliWrappers, SrpLeveragingBaggingAndDistributional) {
  const std::string train = write_temp_file("explain_srp.csv", regression_table(1500, false));
  const std::string rows = write_temp_file("explain_srp_rows.csv", regression_table(12, false));
  {
    const std::string model = "distributional_sgbt";
    const std::string ckpt = temp_path("explain_" + model + ".ckpt");
    auto t = run_cli("eval --data " + train + " --task regression --target y --model " + model +
                     " --n-steps 6 --grace-period 50 --quiet --save " + ckpt);
    ASSERT_EQ(t.code, 0) << t.err;
    auto r = run_cli("explain --checkpoint " + ckpt + " --data " + rows + " --drop y --json");
    ASSERT_EQ(r.code, 0) << model << ": " << r.err;
    auto p = run_cli("predict --checkpoint " + ckpt + " --data " + rows + " --drop y");
    ASSERT_EQ(p.code, 0) << p.err;
    const auto lines = split_lines(r.out), preds = split_lines(p.out);
    ASSERT_EQ(lines.size(), 12u);
    ASSERT_EQ(preds.size(), 12u);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string& l = lines[i];
      const double raw = expect_adds_up(l, model);
      EXPECT_NEAR(raw, std::stod(preds[i]), 1e-9 * (1.0 + std::abs(raw))) << model << ": " << l;
    }
  }
  std::string text = "a,b,c,y\n";
  for (int i = 0; i < 1500; ++i) {
    const double a = (i * 37) % 50, b = (i * 11) % 20, c = (i * 7) % 13;
    text += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(c) + "," + (a > 25 ? "up" : "down") + "\n";
  }
  const std::string cls = write_temp_file("explain_lb.csv", text);
  const std::string few = write_temp_file("explain_lb_rows.csv", text.substr(0, text.find('\n', 200) + 1));
  for (const std::string model : {"srp", "leveraging_bagging"}) {
    const std::string ckpt = temp_path("explain_" + model + ".ckpt");
    auto t = run_cli("eval --data " + cls + " --target y --model " + model +
                     " --n-models 3 --grace-period 50 --leaf-model mc --quiet --save " + ckpt);
    ASSERT_EQ(t.code, 0) << t.err;
    auto r = run_cli("explain --checkpoint " + ckpt + " --data " + few + " --drop y --json --class up");
    ASSERT_EQ(r.code, 0) << model << ": " << r.err;
    auto p = run_cli("predict --checkpoint " + ckpt + " --data " + few + " --drop y --proba");
    ASSERT_EQ(p.code, 0) << p.err;
    const auto lines = split_lines(r.out), preds = split_lines(p.out);
    ASSERT_FALSE(lines.empty());
    ASSERT_EQ(preds.size(), lines.size() + 1);
    ASSERT_EQ(preds[0], "prediction,down,up");  // --proba: a header, then the class and each probability
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string& l = lines[i];
      const double raw = number_after(l, "raw");
      EXPECT_NEAR(number_after(l, "base") + number_after(l, "a") + number_after(l, "b") + number_after(l, "c"), raw,
                  1e-9) << model << ": " << l;
      const std::string& pred = preds[i + 1];
      EXPECT_NEAR(raw, std::stod(pred.substr(pred.rfind(',') + 1)), 1e-9) << model << ": " << l << " / " << pred;
    }
  }
}

TEST(ExplainCliErrors, ModelWithoutTreesAndBadCheckpoint) {
  const std::string train = write_temp_file("explain_lin.csv", regression_table(300, false));
  const std::string ckpt = temp_path("explain_lin.ckpt");
  ASSERT_EQ(run_cli("eval --data " + train + " --task regression --target y --model esn --quiet --save " + ckpt).code, 0);
  auto r = run_cli("explain --checkpoint " + ckpt + " --data " + train + " --drop y");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("model 'esn' has no trees"), std::string::npos) << r.err;
  const std::string junk = write_temp_file("explain_junk.ckpt", "not a checkpoint at all");
  auto j = run_cli("explain --checkpoint " + junk + " --data " + train);
  EXPECT_NE(j.code, 0);
  EXPECT_FALSE(j.err.empty());
}

}  // namespace
}  // namespace irithyll::testing
