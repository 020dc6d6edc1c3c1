// `irithyll predict --sigma`: a distributional_sgbt checkpoint prints a
// header, then each row's mu (the same as without the flag), its predictive
// sigma and its honest sigma; other models, and packed models, are refused
// by name. `eval` takes the model's extras as settings and reports them.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

std::string table(int rows) {
  std::string text = "a,b,y\n";
  for (int i = 0; i < rows; ++i) {
    const double a = (i * 37) % 50, b = (i * 11) % 20;
    text += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(2.0 * a - b + (i % 7) * 0.3 * a) + "\n";
  }
  return text;
}

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

TEST(SigmaCli, DistributionalAddsSigmaColumns) {
  const std::string train = write_temp_file("sigma_train.csv", table(1500));
  const std::string rows = write_temp_file("sigma_rows.csv", table(20));
  const std::string ckpt = temp_path("sigma_dist.ckpt");
  auto trained = run_cli("eval --data " + train + " --target y --model distributional_sgbt --n-steps 8 "
                         "--grace-period 50 --honest-sigma on --huber-k 1.345 --save " + ckpt);
  ASSERT_EQ(trained.code, 0) << trained.err;
  EXPECT_NE(trained.out.find("rolling honest sigma"), std::string::npos) << trained.out;
  auto plain = run_cli("predict --checkpoint " + ckpt + " --data " + rows + " --drop y");
  auto sig = run_cli("predict --checkpoint " + ckpt + " --data " + rows + " --drop y --sigma");
  ASSERT_EQ(plain.code, 0) << plain.err;
  ASSERT_EQ(sig.code, 0) << sig.err;
  const auto p = split_lines(plain.out), s = split_lines(sig.out);
  ASSERT_EQ(p.size(), 20u);
  ASSERT_EQ(s.size(), 21u);
  EXPECT_EQ(s[0], "prediction,sigma,honest_sigma");
  int spread = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto f = fields(s[i + 1]);
    ASSERT_EQ(f.size(), 3u) << s[i + 1];
    EXPECT_EQ(f[0], p[i]);
    const double sigma = std::stod(f[1]), honest = std::stod(f[2]);
    EXPECT_TRUE(std::isfinite(sigma) && sigma > 0.0) << s[i + 1];
    EXPECT_TRUE(std::isfinite(honest) && honest >= 0.0) << s[i + 1];
    spread += honest > 0.0;
  }
  EXPECT_GT(spread, 10);
}

TEST(SigmaCli, OtherModelsAreRefusedByName) {
  const std::string train = write_temp_file("sigma_sgbt.csv", table(600));
  const std::string rows = write_temp_file("sigma_sgbt_rows.csv", table(5));
  const std::string ckpt = temp_path("sigma_sgbt.ckpt");
  ASSERT_EQ(run_cli("eval --data " + train + " --target y --model sgbt --n-steps 4 --quiet --save " + ckpt).code, 0);
  auto r = run_cli("predict --checkpoint " + ckpt + " --data " + rows + " --drop y --sigma");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("model 'sgbt' gives no sigma"), std::string::npos) << r.err;
  auto bad = run_cli("eval --data " + train + " --target y --model distributional_sgbt --packed-refresh-interval 10 "
                     "--leaf-model linear --quiet");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("packed-refresh-interval needs leaf-model constant"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace irithyll::testing
