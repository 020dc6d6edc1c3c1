// `irithyll predict --confidence`: an SGBT checkpoint prints a header, then
// each row's prediction (the same as without the flag) and a positive,
// finite confidence; classifiers keep their class and probability columns;
// models without one, and packed models, are refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

std::string table(int rows, bool classes) {
  std::string text = "a,b,y\n";
  for (int i = 0; i < rows; ++i) {
    const double a = (i * 37) % 50, b = (i * 11) % 20;
    text += std::to_string(a) + "," + std::to_string(b) + "," +
            (classes ? std::string(a + b > 35 ? "up" : "down") : std::to_string(2.0 * a - b)) + "\n";
  }
  return text;
}

// The fields of a CSV line.
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out(1);
  for (const char c : line) {
    if (c == ',')
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

TEST(ConfidenceCli, SgbtRegressorAddsAConfidenceColumn) {
  const std::string train = write_temp_file("conf_train.csv", table(1500, false));
  const std::string rows = write_temp_file("conf_rows.csv", table(20, false));
  const std::string ckpt = temp_path("conf_sgbt.ckpt");
  ASSERT_EQ(run_cli("eval --data " + train + " --target y --task regression --model sgbt --n-steps 8 --grace-period 50 "
                    "--quiet --save " + ckpt).code, 0);
  auto plain = run_cli("predict --checkpoint " + ckpt + " --data " + rows + " --drop y");
  auto conf = run_cli("predict --checkpoint " + ckpt + " --data " + rows + " --drop y --confidence");
  ASSERT_EQ(plain.code, 0) << plain.err;
  ASSERT_EQ(conf.code, 0) << conf.err;
  const auto p = split_lines(plain.out), c = split_lines(conf.out);
  ASSERT_EQ(p.size(), 20u);
  ASSERT_EQ(c.size(), 21u);
  EXPECT_EQ(c[0], "prediction,confidence");
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto f = fields(c[i + 1]);
    ASSERT_EQ(f.size(), 2u) << c[i + 1];
    EXPECT_EQ(f[0], p[i]);
    const double v = std::stod(f[1]);
    EXPECT_TRUE(std::isfinite(v) && v > 0.0) << c[i + 1];
  }
}

TEST(ConfidenceCli, ClassifierKeepsItsColumnsAndOthersAreRefused) {
  const std::string train = write_temp_file("conf_cls.csv", table(1500, true));
  const std::string rows = write_temp_file("conf_cls_rows.csv", table(10, true));
  const std::string ckpt = temp_path("conf_cls.ckpt");
  ASSERT_EQ(run_cli("eval --data " + train + " --target y --model sgbt --n-steps 6 --grace-period 50 --quiet --save " +
                    ckpt).code, 0);
  auto conf = run_cli("predict --checkpoint " + ckpt + " --data " + rows + " --drop y --confidence");
  ASSERT_EQ(conf.code, 0) << conf.err;
  const auto c = split_lines(conf.out);
  ASSERT_EQ(c.size(), 11u);
  EXPECT_EQ(c[0], "prediction,probability,confidence");
  for (std::size_t i = 1; i < c.size(); ++i) {
    const auto f = fields(c[i]);
    ASSERT_EQ(f.size(), 3u) << c[i];
    EXPECT_TRUE(f[0] == "up" || f[0] == "down") << c[i];
    EXPECT_GT(std::stod(f[2]), 0.0) << c[i];
  }
  auto all = run_cli("predict --checkpoint " + ckpt + " --data " + rows + " --drop y --confidence --proba");
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_EQ(split_lines(all.out)[0], "prediction,down,up,confidence");

  const std::string tree = temp_path("conf_tree.ckpt");
  ASSERT_EQ(run_cli("eval --data " + train + " --target y --model hoeffding_tree --quiet --save " + tree).code, 0);
  auto refused = run_cli("predict --checkpoint " + tree + " --data " + rows + " --drop y --confidence");
  EXPECT_NE(refused.code, 0);
  EXPECT_NE(refused.err.find("model 'hoeffding_tree' gives no confidence"), std::string::npos) << refused.err;
  auto packed = run_cli("predict --model " + tree + ".bin --data " + rows + " --confidence");
  EXPECT_NE(packed.code, 0);
  EXPECT_NE(packed.err.find("--confidence needs --checkpoint"), std::string::npos) << packed.err;
}

}  // namespace
}  // namespace irithyll::testing
