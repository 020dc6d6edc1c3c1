// End-to-end tests of `irithyll drift`: runs the built binary on temporary
// CSV files and checks its output lines, stderr and exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/drift/drift_detector.hpp"

namespace irithyll {
namespace {

namespace fs = std::filesystem;

struct DriftRun {
  int exit_code = -1;
  std::vector<std::string> out;  // stdout lines
  std::string err;
};

class DriftCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("irithyll_drift_cli_" + std::to_string(::getpid()) + "_" +
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

  DriftRun run(const std::string& args) const {
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    const std::string cmd = std::string(IRITHYLL_BINARY_DIR) + "/irithyll drift " + args + " >" + out.string() +
                            " 2>" + err.string();
    const int status = std::system(cmd.c_str());
    DriftRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream o(out);
    for (std::string line; std::getline(o, line);) r.out.push_back(line);
    std::stringstream e;
    e << std::ifstream(err).rdbuf();
    r.err = e.str();
    return r;
  }

  fs::path dir_;
};

// A CSV with an id column, the monitored column "err" and a text column;
// values written with 17 significant digits so they parse back exactly.
std::string make_csv(const std::vector<double>& values) {
  std::string text = "id,err,note\n";
  char buf[64];
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%.17g", values[i]);
    text += std::to_string(i) + "," + buf + ",x\n";
  }
  return text;
}

std::vector<double> step_stream(bool bernoulli, std::uint64_t seed) {
  Xorshift64 rng(seed);
  std::vector<double> v(3000);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const bool after = i >= 1500;
    v[i] = bernoulli ? (rng.uniform() < (after ? 0.5 : 0.2) ? 1.0 : 0.0) : rng.normal(after ? 2.0 : 1.0, 0.25);
  }
  return v;
}

// What the library says for the same values, printed the CLI's way: every
// drift, and warnings per `warnings` (onset: only the row a warning episode
// opens, an episode closing at a drift or after 100 rows without a warning;
// all: every warning row; none). The CLI must print exactly this.
std::vector<std::string> signal_lines(DriftDetector& d, const std::vector<double>& values,
                                      const std::string& warnings = "onset") {
  std::vector<std::string> lines;
  long last_warning = -1000000;  // row of the latest warning, -inf after a drift
  for (std::size_t i = 0; i < values.size(); ++i) {
    const DriftSignal s = d.update(values[i]);
    const long row = static_cast<long>(i);
    if (s == DriftSignal::kDrift) {
      lines.push_back("drift " + std::to_string(i));
      last_warning = -1000000;
    }
    if (s != DriftSignal::kWarning) continue;
    if (warnings == "all" || (warnings == "onset" && row - last_warning > 100))
      lines.push_back("warning " + std::to_string(i));
    last_warning = row;
  }
  return lines;
}

std::vector<std::string> expected_lines(DriftKind kind, const std::vector<double>& values,
                                        const std::string& warnings = "onset") {
  auto d = std::move(make_drift_detector(default_drift_config(kind))).value();
  return signal_lines(*d, values, warnings);
}

TEST_F(DriftCli, PrintsTheLibrarySignalsForEveryDetector) {
  struct Case {
    const char* name;
    DriftKind kind;
    bool bernoulli;
  };
  for (const Case& c : {Case{"adwin", DriftKind::kAdwin, false}, Case{"pht", DriftKind::kPageHinkley, false},
                        Case{"ddm", DriftKind::kDdm, true}, Case{"adwin", DriftKind::kAdwin, true},
                        Case{"eddm", DriftKind::kEddm, true}, Case{"hddm_a", DriftKind::kHddmA, true},
                        Case{"hddm_w", DriftKind::kHddmW, true}, Case{"kswin", DriftKind::kKswin, false}}) {
    const auto values = step_stream(c.bernoulli, 17);
    const std::string csv = write("step.csv", make_csv(values));
    const DriftRun r = run(std::string("--detector ") + c.name + " --data " + csv + " --column err");
    EXPECT_EQ(r.exit_code, 0) << c.name << ": " << r.err;
    EXPECT_EQ(r.err, "");
    const auto want = expected_lines(c.kind, values);
    EXPECT_EQ(r.out, want) << c.name;
    // The change at row 1500 is found, and nothing drifts long before it.
    int drifts_after = 0;
    for (const auto& line : r.out) {
      if (line.rfind("drift ", 0) != 0) continue;
      const long row = std::stol(line.substr(6));
      drifts_after += row >= 1500 && row < 2500 ? 1 : 0;
    }
    EXPECT_GE(drifts_after, 1) << c.name;
  }
}

TEST_F(DriftCli, OptionsReachTheDetector) {
  const auto values = step_stream(false, 3);
  const std::string csv = write("step.csv", make_csv(values));
  DriftConfig c = default_drift_config(DriftKind::kPageHinkley);
  c.delta = 0.05;
  c.lambda = 5.0;
  auto d = std::move(make_drift_detector(c)).value();
  const std::vector<std::string> want = signal_lines(*d, values);
  const DriftRun r = run("--detector pht --delta 0.05 --lambda 5 --data " + csv + " --column err");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, want);
  EXPECT_NE(r.out, expected_lines(DriftKind::kPageHinkley, values));  // the options changed something
}

TEST_F(DriftCli, EddmConfirmationOptionsReachTheDetector) {
  const auto values = step_stream(true, 17);
  const std::string csv = write("step.csv", make_csv(values));
  DriftConfig c = default_drift_config(DriftKind::kEddm);
  c.eddm_confirm_window = 0;  // the paper's rule
  auto paper = std::move(make_drift_detector(c)).value();
  const DriftRun r = run("--detector eddm --confirm-window 0 --data " + csv + " --column err");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, signal_lines(*paper, values));
  c = default_drift_config(DriftKind::kEddm);
  c.eddm_confirm_window = 20;
  c.eddm_confirm_z = 2.5;
  auto loose = std::move(make_drift_detector(c)).value();
  const DriftRun r2 = run("--detector eddm --confirm-window 20 --confirm-z 2.5 --data " + csv + " --column err");
  EXPECT_EQ(r2.exit_code, 0) << r2.err;
  EXPECT_EQ(r2.out, signal_lines(*loose, values));
  EXPECT_NE(r.out, expected_lines(DriftKind::kEddm, values));  // the options changed something
  for (const char* bad : {"--confirm-window 201", "--confirm-window -1", "--confirm-z -2"}) {
    const DriftRun b = run(std::string("--detector eddm ") + bad + " --data " + csv + " --column err");
    EXPECT_NE(b.exit_code, 0) << bad;
    EXPECT_NE(b.err.find("confirm"), std::string::npos) << bad << ": " << b.err;
  }
}

TEST_F(DriftCli, WarningsOptionChoosesOnsetAllOrNone) {
  // DDM on a Bernoulli step holds its warning over many rows: onset prints
  // strictly fewer warning lines than all, none prints only drifts.
  const auto values = step_stream(true, 17);
  const std::string csv = write("step.csv", make_csv(values));
  auto count = [](const std::vector<std::string>& lines, const char* prefix) {
    return std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.rfind(prefix, 0) == 0; });
  };
  std::map<std::string, std::vector<std::string>> out;
  for (const char* mode : {"onset", "all", "none"}) {
    const DriftRun r = run(std::string("--detector ddm --warnings ") + mode + " --data " + csv + " --column err");
    ASSERT_EQ(r.exit_code, 0) << mode << ": " << r.err;
    EXPECT_EQ(r.out, expected_lines(DriftKind::kDdm, values, mode)) << mode;
    out[mode] = r.out;
  }
  EXPECT_GT(count(out["onset"], "warning "), 0);
  EXPECT_LT(count(out["onset"], "warning "), count(out["all"], "warning "));
  EXPECT_EQ(count(out["none"], "warning "), 0);
  EXPECT_EQ(count(out["none"], "drift "), count(out["all"], "drift "));
  const DriftRun bad = run("--detector ddm --warnings some --data " + csv + " --column err");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--warnings"), std::string::npos) << bad.err;
}

TEST_F(DriftCli, SingleColumnFileIsAStreamOfValues) {
  // The natural input of a drift monitor: one column of errors, no features.
  const auto values = step_stream(false, 5);
  std::string text = "err\n";
  char buf[64];
  for (double v : values) {
    std::snprintf(buf, sizeof buf, "%.17g\n", v);
    text += buf;
  }
  const std::string csv = write("single.csv", text);
  const DriftRun r = run("--detector adwin --data " + csv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected_lines(DriftKind::kAdwin, values));
  EXPECT_FALSE(r.out.empty());
}

TEST_F(DriftCli, HeaderOnlyFileIsACleanError) {
  // The CSV reader refuses a file without data rows; the tool reports it.
  const std::string csv = write("empty.csv", "id,err\n");
  const DriftRun r = run("--detector ddm --data " + csv + " --column err");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err.rfind("irithyll: " + csv, 0), 0u) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST_F(DriftCli, MissingFileFails) {
  const DriftRun r = run("--detector adwin --data " + (dir_ / "absent.csv").string() + " --column err");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err.rfind("irithyll: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("absent.csv"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST_F(DriftCli, UnknownColumnFails) {
  const std::string csv = write("g.csv", make_csv({1.0, 2.0, 3.0}));
  const DriftRun r = run("--detector adwin --data " + csv + " --column nope");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err.rfind("irithyll: " + csv + ":1", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("nope"), std::string::npos) << r.err;
}

TEST_F(DriftCli, NonNumericCellNamesLineAndColumn) {
  // Data row 2 is physical line 4; "err" is column 2.
  const std::string csv = write("bad.csv", "id,err\n0,0.5\n1,0.25\n2,abc\n3,1\n");
  const DriftRun r = run("--detector adwin --data " + csv + " --column err");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err.rfind("irithyll: " + csv + ":4:2: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(DriftCli, BadCommandLinesFail) {
  const std::string csv = write("g.csv", make_csv({1.0, 2.0, 3.0}));
  for (const std::string& args : std::vector<std::string>{"--detector adwin3 --data " + csv + " --column err",
                                 "--detector kswin --stat-size 200 --data " + csv + " --column err",
                                 "--detector hddm_a --drift-confidence 0.5 --data " + csv + " --column err",
                                 "--detector adwin --delta 1.5 --data " + csv + " --column err",
                                 "--detector pht --lambda -1 --data " + csv + " --column err",
                                 "--detector ddm --drift-level 1 --data " + csv + " --column err",
                                 std::string("--detector adwin --column err"),
                                 "--detector adwin --bogus 1 --data " + csv}) {
    const DriftRun r = run(args);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_EQ(r.err.rfind("irithyll: ", 0), 0u) << args << " -> " << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
  }
}

}  // namespace
}  // namespace irithyll
