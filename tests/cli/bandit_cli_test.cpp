// End-to-end tests of `irithyll bandit`: simulated arms (text, JSON, plot)
// and logged data (IPS and replay estimates), and bad command lines.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "irithyll/core/rng.hpp"

namespace irithyll {
namespace {

namespace fs = std::filesystem;

struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

class BanditCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("irithyll_bandit_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  RunResult run(const std::string& args) const {
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    const std::string cmd = std::string(IRITHYLL_BINARY_DIR) + "/irithyll bandit " + args + " >" + out.string() +
                            " 2>" + err.string();
    const int status = std::system(cmd.c_str());
    RunResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::stringstream o, e;
    o << std::ifstream(out).rdbuf();
    e << std::ifstream(err).rdbuf();
    r.out = o.str();
    r.err = e.str();
    return r;
  }
  fs::path dir_;
};

TEST_F(BanditCli, SimulationReportsRewardAndRegret) {
  const RunResult r = run("--policy ucb --simulate bernoulli:0.1,0.2,0.5 --steps 2000 --seed 3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("cumulative reward"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cumulative regret"), std::string::npos) << r.out;
}

TEST_F(BanditCli, JsonIsDeterministicAndPlotIsWritten) {
  const std::string svg = (dir_ / "regret.svg").string();
  const std::string args = "--policy thompson --simulate bernoulli:0.3,0.6 --steps 500 --seed 9 --json";
  const RunResult a = run(args + " --plot " + svg), b = run(args);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.out.rfind("{\"policy\":\"thompson\"", 0), 0u) << a.out;
  EXPECT_NE(a.out.find("\"cumulative_regret\":"), std::string::npos);
  std::stringstream s;
  s << std::ifstream(svg).rdbuf();
  EXPECT_NE(s.str().find("<svg"), std::string::npos);
  // The policy's own settings are options (the policy's seed is --policy-seed).
  const RunResult c = run(args + " --policy-seed 5");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("\"seed\":\"5\""), std::string::npos) << c.out;
}

TEST_F(BanditCli, LoggedDataGivesIpsEstimate) {
  // Uniform logger over 2 arms; arm 1 always pays 1, arm 0 pays 0. UCB tries
  // both arms, then keeps choosing arm 1: its IPS estimate is near 1 (it
  // matches the logged arm on about half the events, each weighted 1/0.5).
  // (A greedy epsilon = 0 policy would stay on arm 0 forever: it learns only
  // from matched events, and arm 0's are all 0.)
  Xorshift64 rng(2);
  const fs::path data = dir_ / "log.csv";
  {
    std::ofstream f(data);
    f << "x,arm,reward,propensity\n";
    for (int i = 0; i < 4000; ++i) {
      const int arm = static_cast<int>(rng.below(2));
      f << rng.uniform() << "," << arm << "," << (arm == 1 ? 1 : 0) << ",0.5\n";
    }
  }
  const RunResult r = run("--policy ucb --data " + data.string() + " --arms 2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto pos = r.out.find("\"ips\":");
  ASSERT_NE(pos, std::string::npos) << r.out;
  const double ips = std::stod(r.out.substr(pos + 6));
  EXPECT_NEAR(ips, 1.0, 0.08);
  // LinUCB reads the named context column.
  const RunResult l = run("--policy linucb --context x --data " + data.string() + " --arms 2");
  ASSERT_EQ(l.exit_code, 0) << l.err;
  EXPECT_NE(l.out.find("ips estimate"), std::string::npos);
}

TEST_F(BanditCli, BadInputIsAClearError) {
  EXPECT_EQ(run("--policy nope --simulate bernoulli:0.5").exit_code, 2);
  EXPECT_NE(run("--policy ucb --simulate poisson:1").exit_code, 0);
  EXPECT_NE(run("--policy ucb --simulate bernoulli:1.5").exit_code, 0);
  EXPECT_NE(run("--policy ucb --simulate bernoulli:0.5 --steps 0").exit_code, 0);
  const RunResult t = run("--policy thompson --simulate gaussian:0,1 --steps 50");
  EXPECT_NE(t.exit_code, 0);
  EXPECT_NE(t.err.find("model=gaussian"), std::string::npos) << t.err;
  const fs::path data = dir_ / "bad.csv";
  std::ofstream(data) << "arm,reward,propensity\n0,1,0.5\n3,1,0.5\n";
  const RunResult d = run("--policy ucb --data " + data.string() + " --arms 2");
  EXPECT_NE(d.exit_code, 0);
  EXPECT_NE(d.err.find("row 1"), std::string::npos) << d.err;
  std::ofstream(data) << "arm,reward,propensity\n0,1,0\n";
  EXPECT_NE(run("--policy ucb --data " + data.string() + " --arms 2").exit_code, 0);
}

}  // namespace
}  // namespace irithyll
