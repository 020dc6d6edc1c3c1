// `irithyll eval --subsample N`: N rows of the selected stream, drawn by
// reservoir sampling from --seed and learned in stream order; the same seed
// gives the same run, a bad row is still reported by its line (and rows
// skipped under --on-error skip are still counted), and N = 0 is refused by
// name.
#include <gtest/gtest.h>

#include <string>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

std::string json_field(const std::string& json, const std::string& key) {
  const std::size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return {};
  const std::size_t from = at + key.size() + 3;
  return json.substr(from, json.find_first_of(",}", from) - from);
}

TEST(SubsampleCli, LearnsNRowsOfTheSelectionReproducibly) {
  const std::string base = "eval --stream sea --skip 1000 --max-samples 5000 --model hoeffding_tree --quiet --json";
  const CliRun a = run_cli(base + " --subsample 300 --seed 7");
  const CliRun b = run_cli(base + " --subsample 300 --seed 7");
  const CliRun c = run_cli(base + " --subsample 300 --seed 8");
  const CliRun more = run_cli(base + " --subsample 9000 --seed 7");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(json_field(a.out, "samples"), "300");
  EXPECT_EQ(json_field(a.out, "accuracy"), json_field(b.out, "accuracy"));
  EXPECT_NE(json_field(a.out, "accuracy"), json_field(c.out, "accuracy"));
  // More than the selection holds: all of it (the 5,000 rows after the skip).
  ASSERT_EQ(more.code, 0) << more.err;
  EXPECT_EQ(json_field(more.out, "samples"), "5000");
  // The report says how it was drawn, so it can be reproduced from itself.
  EXPECT_EQ(json_field(a.out, "subsample"), "300");
  EXPECT_EQ(json_field(a.out, "skip"), "1000");
  EXPECT_EQ(json_field(a.out, "max_samples"), "5000");
  EXPECT_EQ(json_field(run_cli("eval --stream sea --max-samples 500 --quiet --json").out, "subsample"), "");
}

TEST(SubsampleCli, RefusesZeroAndStillNamesABadRow) {
  CliRun r = run_cli("eval --stream sea --subsample 0 --quiet");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--subsample must be >= 1"), std::string::npos) << r.err;
  const std::string bad = write_temp_file("subsample_bad.csv", "a,b,y\n1,2,3.5\n1,x,3\n2,2,1\n");
  r = run_cli("eval --data " + bad + " --task regression --subsample 2 --quiet");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find(":3:2: not a number: 'x'"), std::string::npos) << r.err;
}

// Rows passed over by --on-error skip are reported through the sample as
// they are without it: the reservoir reads the file, and the note reaches it.
TEST(SubsampleCli, ReportsTheRowsSkippedWhileSampling) {
  std::string text = "a,b,y\n";
  for (int i = 0; i < 50; ++i) text += std::to_string(i) + "," + std::to_string(i % 7) + "," + std::to_string(i % 3) + "\n";
  text += "1,x,3\n";  // line 52
  text += "4,5\n";    // line 53
  const std::string bad = write_temp_file("subsample_skip.csv", text);
  const CliRun r = run_cli("eval --data " + bad + " --task regression --subsample 20 --on-error skip --quiet --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json_field(r.out, "samples"), "20");
  EXPECT_NE(r.err.find("skipped 2 malformed rows"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(":52:"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace irithyll::testing
