// End-to-end tests of `irithyll cluster` (and the clusterers in `irithyll
// models`): runs the built binary on a generated, labelled Gaussian mixture.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "irithyll/core/rng.hpp"

namespace irithyll {
namespace {

namespace fs = std::filesystem;

struct ClusterRun {
  int exit_code = -1;
  std::string out, err;
};

class ClusterCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("irithyll_cluster_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // 3 components in 3-d, sigma 1, means 10 apart; the label column in the
  // middle; row 100 has a missing cell.
  std::string write_mixture(int rows) const {
    std::ofstream f(path("mix.csv"));
    f << "a,label,b,c\n";
    Xorshift64 rng(5);
    const double means[3][3] = {{0, 0, 0}, {10, 0, 0}, {0, 10, 0}};
    for (int i = 0; i < rows; ++i) {
      const auto j = static_cast<int>(rng.below(3));
      const double a = means[j][0] + rng.normal(), b = means[j][1] + rng.normal(), c = means[j][2] + rng.normal();
      if (i == 100) f << ",cls" << j << "," << b << "," << c << "\n";
      else f << a << ",cls" << j << "," << b << "," << c << "\n";
    }
    return path("mix.csv");
  }

  ClusterRun run(const std::string& args) const {
    const std::string out = path("stdout.txt"), err = path("stderr.txt");
    const std::string cmd = std::string(IRITHYLL_BINARY_DIR) + "/irithyll " + args + " >" + out + " 2>" + err;
    const int status = std::system(cmd.c_str());
    ClusterRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::stringstream o, e;
    o << std::ifstream(out).rdbuf();
    e << std::ifstream(err).rdbuf();
    r.out = o.str();
    r.err = e.str();
    return r;
  }

  // The number after "key": in a flat JSON object (NaN when absent).
  static double json_number(const std::string& json, const std::string& key) {
    const std::size_t at = json.find("\"" + key + "\":");
    if (at == std::string::npos) return std::nan("");
    return std::strtod(json.c_str() + at + key.size() + 3, nullptr);
  }

  fs::path dir_;
};

TEST_F(ClusterCli, JsonScoresTheLastWindowAgainstTheLabel) {
  const std::string data = write_mixture(6000);
  for (const std::string model : {"kmeans --n-clusters 3", "clustream --n-macro-clusters 3",
                                  "dbstream --clustering-threshold 2"}) {
    const ClusterRun r = run("cluster --data " + data + " --model " + model + " --label label --json");
    ASSERT_EQ(r.exit_code, 0) << model << ": " << r.err;
    EXPECT_GE(json_number(r.out, "purity"), 0.95) << model << ": " << r.out;
    EXPECT_GE(json_number(r.out, "ari"), 0.9) << model << ": " << r.out;
    EXPECT_GE(json_number(r.out, "silhouette"), 0.5) << model << ": " << r.out;
    EXPECT_EQ(json_number(r.out, "n_clusters"), 3.0) << model << ": " << r.out;
    EXPECT_EQ(json_number(r.out, "n_samples"), 5999.0) << model;
    EXPECT_EQ(json_number(r.out, "n_ignored"), 1.0) << model;
    EXPECT_EQ(r.out.find("\"label\""), std::string::npos) << "the label is not a feature: " << r.out;
  }
}

TEST_F(ClusterCli, TextPlotAndAssignments) {
  const std::string data = write_mixture(3000);
  const ClusterRun r = run("cluster --data " + data + " --n-clusters 3 --label label --window 500 --plot " +
                          path("p.svg") + " --assignments " + path("ids.txt"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("kmeans: 2999 rows learned, 1 ignored"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cluster 2: a="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("last 500 rows: silhouette"), std::string::npos) << r.out;
  std::stringstream svg;
  svg << std::ifstream(path("p.svg")).rdbuf();
  EXPECT_NE(svg.str().find("class=\"points\""), std::string::npos);
  EXPECT_NE(svg.str().find("class=\"centres\""), std::string::npos);
  std::ifstream ids(path("ids.txt"));
  int lines = 0, none = 0;
  for (std::string line; std::getline(ids, line); ++lines) none += line == "-1";
  EXPECT_EQ(lines, 3000);
  EXPECT_GE(none, 1);  // the first row (no cluster yet) and the row with a missing cell
}

TEST_F(ClusterCli, RefusesAnotherModelsSettingAndUnknownModels) {
  const std::string data = write_mixture(50);
  ClusterRun r = run("cluster --data " + data + " --model kmeans --time-gap 5");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--time-gap is not a setting of kmeans"), std::string::npos) << r.err;
  r = run("cluster --data " + data + " --model dbscan");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("clusterers: clustream, dbstream, kmeans"), std::string::npos) << r.err;
  r = run("cluster --data " + data + " --n-clusters 0");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("n-clusters"), std::string::npos) << r.err;
}

TEST_F(ClusterCli, ModelsListsTheClusterers) {
  ClusterRun r = run("models --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\"models\":[", 0), 0u);
  EXPECT_NE(r.out.find(",\"clusterers\":[{\"name\":\"clustream\""), std::string::npos);
  EXPECT_NE(r.out.find("\"python_name\":\"fading_factor\""), std::string::npos);
  r = run("models dbstream");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("--clustering-threshold"), std::string::npos) << r.out;
  r = run("models");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nclusterers\n"), std::string::npos);
  EXPECT_NE(r.out.find("kmeans  streaming k-means"), std::string::npos);
}

}  // namespace
}  // namespace irithyll
