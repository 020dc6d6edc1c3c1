// End-to-end tests of `irithyll forecast` (and the forecasters section of
// `irithyll models`): runs the built binary on temporary CSV files.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace irithyll {
namespace {

namespace fs = std::filesystem;

struct ForecastRun {
  int exit_code = -1;
  std::string out, err;
};

class ForecastCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("irithyll_forecast_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  ForecastRun run(const std::string& args) const {
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    const std::string cmd =
        std::string(IRITHYLL_BINARY_DIR) + "/irithyll " + args + " >" + out.string() + " 2>" + err.string();
    const int status = std::system(cmd.c_str());
    ForecastRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::stringstream o, e;
    o << std::ifstream(out).rdbuf();
    e << std::ifstream(err).rdbuf();
    r.out = o.str();
    r.err = e.str();
    return r;
  }
  // A seasonal series (period 6) on a line, with a date-like first column.
  std::string series(int n, bool holes = false) const {
    std::string text = "day,temp,sales\n";
    for (int t = 0; t < n; ++t) {
      const double y = 100.0 + 0.5 * t + 10.0 * std::sin(2.0 * M_PI * t / 6.0);
      const std::string v = holes && t % 10 == 7 ? "NA" : std::to_string(y);
      text += std::to_string(t) + "," + std::to_string(20.0 + (t % 6)) + "," + v + "\n";
    }
    return write("series.csv", text);
  }
  fs::path dir_;
};

// The numbers that follow "key":[ up to ].
std::vector<double> json_list(const std::string& json, const std::string& key) {
  std::vector<double> out;
  const std::size_t at = json.find("\"" + key + "\":[");
  if (at == std::string::npos) return out;
  std::istringstream in(json.substr(at + key.size() + 4));
  for (double v; in >> v;) {
    out.push_back(v);
    char c = 0;
    in >> c;
    if (c != ',') break;
  }
  return out;
}

TEST_F(ForecastCli, JsonReportsEveryHorizonStep) {
  const std::string data = series(300);
  const ForecastRun r = run("forecast --data " + data + " --target sales --horizon 4 --period 6 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto mae = json_list(r.out, "mae_by_horizon"), rmse = json_list(r.out, "rmse_by_horizon"),
             smape = json_list(r.out, "smape_by_horizon");
  ASSERT_EQ(mae.size(), 4u) << r.out;
  ASSERT_EQ(rmse.size(), 4u);
  ASSERT_EQ(smape.size(), 4u);
  for (int h = 0; h < 4; ++h) {
    EXPECT_GE(rmse[h], mae[h]);
    EXPECT_GT(mae[h], 0.0);  // the warm-up's naive forecasts are wrong
  }
  EXPECT_NE(r.out.find("\"steps\":300"), std::string::npos);
  // A noiseless seasonal line is learned exactly after the warm-up: the
  // error is all in the first 12 rows, so it is far below the 10-unit swing.
  EXPECT_LT(mae[0], 2.0);
}

TEST_F(ForecastCli, SnarimaxAndALaggedRegressorForecastToo) {
  const std::string data = series(200);
  ForecastRun r = run("forecast --data " + data + " --target sales --horizon 2 --model snarimax --period 6 --p 2 "
                    "--d 1 --sd 1 --features temp --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"exogenous\":1"), std::string::npos);
  EXPECT_EQ(json_list(r.out, "rmse_by_horizon").size(), 2u);
  // River's regressor=: a catalogue regressor (here a pipeline) in place of the linear model.
  r = run("forecast --data " + data + " --target sales --horizon 2 --model snarimax --period 6 --p 2 "
          "--features temp --regressor 'standard_scaler|linear_regression(intercept-lr=0.3)' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_list(r.out, "rmse_by_horizon").size(), 2u);
  r = run("forecast --data " + data + " --target sales --model snarimax --regressor logistic_regression");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("regressor"), std::string::npos) << r.err;
  r = run("forecast --data " + data + " --target sales --horizon 3 --model sgbt --lags 1,2,6 --n-steps 5 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json_list(r.out, "mae_by_horizon").size(), 3u);
  r = run("forecast --data " + data + " --target sales --model holt_winters --lags 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--lags"), std::string::npos);
}

TEST_F(ForecastCli, MissingTargetsAreSkippedAndCounted) {
  const std::string data = series(100, true);
  const ForecastRun r = run("forecast --data " + data + " --target sales --period 6 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"missing_targets\":10"), std::string::npos) << r.out;
}

TEST_F(ForecastCli, BadInputIsReportedClearly) {
  const std::string text = write("bad.csv", "sales\n1\n2\nabc\n4\n");
  ForecastRun r = run("forecast --data " + text + " --target sales");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bad.csv:4"), std::string::npos) << r.err;
  r = run("forecast --data " + series(10) + " --target nope");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("nope"), std::string::npos) << r.err;
  r = run("forecast --data " + series(10) + " --target sales --horizon 0");
  EXPECT_EQ(r.exit_code, 2);
  r = run("forecast --data " + series(10) + " --target sales --alpha 3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("alpha"), std::string::npos);
  r = run("forecast --data " + series(10) + " --model prophet");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("holt_winters"), std::string::npos);
}

TEST_F(ForecastCli, PlotDrawsSeriesForecastsAndBand) {
  const std::string svg = (dir_ / "f.svg").string();
  const ForecastRun r = run("forecast --data " + series(120) + " --target sales --horizon 3 --period 6 --plot " + svg);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::stringstream s;
  s << std::ifstream(svg).rdbuf();
  const std::string text = s.str();
  for (const char* label : {"series", "forecast h=1", "forecast h=3", "90% band h=1 (low)"})
    EXPECT_NE(text.find(std::string("data-label=\"") + label), std::string::npos) << label;
}

TEST_F(ForecastCli, ModelsListsForecasters) {
  ForecastRun r = run("models --json");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("{\"models\":[", 0), 0u);
  EXPECT_NE(r.out.find(",\"forecasters\":[{\"name\":\"holt_winters\""), std::string::npos);
  r = run("models");
  EXPECT_NE(r.out.find("forecasters"), std::string::npos);
  EXPECT_NE(r.out.find("snarimax"), std::string::npos);
  r = run("models snarimax");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--learning-rate"), std::string::npos);
}

}  // namespace
}  // namespace irithyll
