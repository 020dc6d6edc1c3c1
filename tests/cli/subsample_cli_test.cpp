// `irithyll eval --subsample N`: N rows of the selected stream, drawn by
// reservoir sampling from --seed and learned in stream order; the same seed
// gives the same run, a bad row is still reported by its line, and N = 0 is
// refused by name.
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

}  // namespace
}  // namespace irithyll::testing
