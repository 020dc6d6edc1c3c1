// The deployed command line never answers silently wrong and never loses a
// run: a file option given twice is refused, --skip past the end is an
// error, an unwritable output path is refused before any row is read, and a
// run that fails part-way still writes --save.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

std::string rows(int n, int bad_at = -1) {
  std::string text = "a,b,y\n";
  for (int i = 0; i < n; ++i) {
    if (i == bad_at) {
      text += "1,2,3,4,5\n";  // too many fields
      continue;
    }
    const int a = (i * 37) % 50, b = (i * 11) % 20;
    text += std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(2 * a - b) + "\n";
  }
  return text;
}

TEST(DeploySafetyCli, AValueOptionGivenTwiceIsRefused) {
  const std::string a = write_temp_file("twice_a.csv", rows(50)), b = write_temp_file("twice_b.csv", rows(60));
  auto r = run_cli("eval --data " + a + " --data " + b + " --quiet");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("option '--data' given twice"), std::string::npos) << r.err;
}

TEST(DeploySafetyCli, SkipPastTheEndIsAnError) {
  const std::string a = write_temp_file("skip_end.csv", rows(50));
  auto r = run_cli("eval --data " + a + " --skip 100 --quiet");
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_NE(r.err.find("skips past the end"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("eval --data " + a + " --skip 10 --quiet").code, 0);
}

TEST(DeploySafetyCli, UnwritableOutputsAreRefusedBeforeReading) {
  const std::string a = write_temp_file("outputs.csv", rows(50));
  for (const std::string flag : {"--save", "--plot", "--predictions", "--curve"}) {
    // Refused before the first row is read: nothing is evaluated or printed.
    auto r = run_cli("eval --data " + a + " --quiet " + flag + " /nonexistent-dir-irithyll/out.file");
    EXPECT_NE(r.code, 0) << flag;
    EXPECT_NE(r.err.find(flag + " /nonexistent-dir-irithyll/out.file: directory"), std::string::npos)
        << flag << ": " << r.err;
    EXPECT_EQ(r.out, "") << flag;
  }
  auto r = run_cli("eval --data " + a + " --quiet --save " + ::testing::TempDir());
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
}

TEST(DeploySafetyCli, AFailedRunStillSavesTheModel) {
  const std::string a = write_temp_file("fails_late.csv", rows(400, 300));
  const std::string ckpt = temp_path("fails_late.ckpt");
  std::remove(ckpt.c_str());
  // --lookahead 50: the bad row comes after the rows read ahead at open.
  auto r = run_cli("eval --data " + a + " --quiet --lookahead 50 --save " + ckpt);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("saved the model as learned before the error (300 samples)"), std::string::npos) << r.err;
  const std::string ok = write_temp_file("fails_late_ok.csv", rows(20));
  auto p = run_cli("predict --checkpoint " + ckpt + " --data " + ok);
  EXPECT_EQ(p.code, 0) << p.err;
  EXPECT_EQ(split_lines(p.out).size(), 20u);
}

TEST(DeploySafetyCli, OnErrorSkipPassesOverMalformedRowsAndReportsThem) {
  std::string text = rows(400, 100);         // line 102: five fields
  text += "1,abc,7\n";                       // text in a numeric column
  text += "3,4\n";                           // two fields
  const std::string a = write_temp_file("malformed.csv", text);
  auto stop = run_cli("eval --data " + a + " --quiet");
  EXPECT_NE(stop.code, 0);
  EXPECT_NE(stop.err.find("expected 3 columns, found 5"), std::string::npos) << stop.err;
  auto skip = run_cli("eval --data " + a + " --quiet --on-error skip");
  ASSERT_EQ(skip.code, 0) << skip.err;
  EXPECT_NE(skip.err.find("skipped 3 malformed rows"), std::string::npos) << skip.err;
  EXPECT_NE(skip.err.find(":102:"), std::string::npos) << skip.err;
  EXPECT_NE(skip.out.find("samples      399"), std::string::npos) << skip.out;
  auto bad = run_cli("eval --data " + a + " --quiet --on-error maybe");
  EXPECT_NE(bad.err.find("--on-error must be stop or skip"), std::string::npos) << bad.err;
  // The same through predict and compare.
  const std::string ckpt = temp_path("malformed.ckpt");
  ASSERT_EQ(run_cli("eval --data " + write_temp_file("clean.csv", rows(300)) + " --quiet --save " + ckpt).code, 0);
  auto p = run_cli("predict --checkpoint " + ckpt + " --data " + a + " --on-error skip");
  ASSERT_EQ(p.code, 0) << p.err;
  EXPECT_EQ(split_lines(p.out).size(), 399u);
  auto c = run_cli("compare --data " + a + " --models sgbt,hoeffding_tree --on-error skip");
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.err.find("skipped 3 malformed rows"), std::string::npos) << c.err;
}

TEST(DeploySafetyCli, OnErrorSkipPassesOverAClassOutsideTheFixedSet) {
  std::string text = "a,y\n";
  for (int i = 0; i < 200; ++i) text += std::to_string(i % 10) + "," + (i % 10 < 5 ? "lo" : "hi") + "\n";
  text += "3,mid\n";
  const std::string a = write_temp_file("unseen_class.csv", text);
  auto stop = run_cli("eval --data " + a + " --quiet --classes lo,hi");
  EXPECT_NE(stop.code, 0);
  EXPECT_NE(stop.err.find("is not in the --classes list"), std::string::npos) << stop.err;
  auto skip = run_cli("eval --data " + a + " --quiet --classes lo,hi --on-error skip");
  ASSERT_EQ(skip.code, 0) << skip.err;
  EXPECT_NE(skip.err.find("skipped 1 malformed row "), std::string::npos) << skip.err;
}

TEST(DeploySafetyCli, SpreadsheetErrorsAndJsonNonFiniteLiteralsAreMissing) {
  std::string csv = "a,b,y\n", jsonl;
  for (int i = 0; i < 100; ++i) {
    const std::string a = i % 10 == 3 ? "#N/A" : i % 10 == 4 ? "#DIV/0!" : std::to_string(i % 7);
    csv += a + "," + std::to_string(i % 5) + "," + std::to_string(i % 3) + "\n";
    const std::string v = i % 10 == 3 ? "NaN" : i % 10 == 4 ? "-Infinity" : i % 10 == 5 ? "Infinity" : std::to_string(i % 7);
    jsonl += "{\"a\": " + v + ", \"b\": " + std::to_string(i % 5) + ", \"y\": " + std::to_string(i % 3) + "}\n";
  }
  auto c = run_cli("eval --data " + write_temp_file("sheet.csv", csv) + " --quiet --task regression");
  EXPECT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.out.find("samples      100"), std::string::npos) << c.out;
  auto j = run_cli("eval --data " + write_temp_file("nonfinite.jsonl", jsonl) + " --quiet --task regression");
  EXPECT_EQ(j.code, 0) << j.err;
  EXPECT_NE(j.out.find("samples      100"), std::string::npos) << j.out;
}

}  // namespace
}  // namespace irithyll::testing
