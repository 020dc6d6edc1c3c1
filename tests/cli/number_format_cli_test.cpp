// Numbers as spreadsheets export them ("$1,234.50", "12.5%", "3,75" in a
// ';' file) are read as numbers, not as categories: a model learns from them
// as well as from the plain file, and stderr reports how each column was
// read. Before, each decorated value was its own category (accuracy near
// chance on fresh values).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "irithyll/core/rng.hpp"
#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

// y = 1 when price + 1000 * rate > 1500: both columns matter, neither repeats.
struct Tables {
  std::string plain, decorated;
};

Tables tables(int n) {
  Tables t;
  t.plain = "price,rate,share,y\n";
  t.decorated = "price;rate;share;y\n";
  Xorshift64 rng(7);
  for (int i = 0; i < n; ++i) {
    const int cents = static_cast<int>(rng.uniform() * 200000.0);
    const int rate_milli = static_cast<int>(rng.uniform() * 1000.0);
    const int share_tenths = static_cast<int>(rng.uniform() * 1000.0);
    const double price = cents / 100.0, rate = rate_milli / 1000.0;
    const bool y = price + 1000.0 * rate > 1500.0;
    char plain[128], decorated[128];
    std::snprintf(plain, sizeof plain, "%.2f,%.3f,%.3f,%d\n", price, rate, share_tenths / 1000.0, y ? 1 : 0);
    const int dollars = cents / 100;
    char money[32];
    if (dollars >= 1000) std::snprintf(money, sizeof money, "$%d,%03d.%02d", dollars / 1000, dollars % 1000, cents % 100);
    else std::snprintf(money, sizeof money, "$%d.%02d", dollars, cents % 100);
    std::snprintf(decorated, sizeof decorated, "%s;%d,%03d;%d.%d%%;%d\n", money, rate_milli / 1000, rate_milli % 1000,
                  share_tenths / 10, share_tenths % 10, y ? 1 : 0);
    t.plain += plain;
    t.decorated += decorated;
  }
  return t;
}

TEST(NumberFormatCli, DecoratedNumbersLearnAsWellAsPlainOnes) {
  const Tables t = tables(4000);
  const std::string plain = write_temp_file("numbers_plain.csv", t.plain);
  const std::string decorated = write_temp_file("numbers_decorated.csv", t.decorated);
  const std::string model = " --model hoeffding_tree --seed 1";
  const auto a = run_cli("eval --quiet --data " + plain + model);
  const auto b = run_cli("eval --quiet --data " + decorated + model);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_GT(accuracy_in(a.out), 0.9) << a.out;
  // The same numbers (the noise column 12.3% = 0.123 up to rounding): the same accuracy.
  EXPECT_NEAR(accuracy_in(b.out), accuracy_in(a.out), 0.01) << b.out << a.out;
  EXPECT_NE(b.err.find("column 'price' read as numbers: thousands separators"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("currency signs dropped"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("column 'rate' read as numbers: ',' as the decimal mark"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("column 'share' read as numbers: '%' read as hundredths"), std::string::npos) << b.err;
  EXPECT_EQ(a.err.find("read as numbers"), std::string::npos) << a.err;
}

TEST(NumberFormatCli, DecimalOptionAndItsHint) {
  std::string text = "a,y\n";
  for (int i = 0; i < 300; ++i) text += "\"" + std::to_string(i % 50) + "," + std::to_string(i % 7) + "\"," + std::to_string(i % 50 >= 25) + "\n";
  const std::string path = write_temp_file("numbers_comma.csv", text);
  const auto hinted = run_cli("eval --quiet --data " + path + " --model hoeffding_tree");
  ASSERT_EQ(hinted.code, 0) << hinted.err;
  EXPECT_NE(hinted.err.find("column 'a' read as text, but with --decimal , every value of it would be a number"),
            std::string::npos)
      << hinted.err;
  const auto read = run_cli("eval --quiet --data " + path + " --model hoeffding_tree --decimal ,");
  ASSERT_EQ(read.code, 0) << read.err;
  EXPECT_NE(read.err.find("column 'a' read as numbers: ',' as the decimal mark"), std::string::npos) << read.err;
  const auto bad = run_cli("eval --quiet --data " + path + " --decimal x");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.err.find("--decimal must be . or ,"), std::string::npos) << bad.err;
}

TEST(NumberFormatCli, IdLikeColumnsAreFlaggedBeforeTheRun) {
  std::string text = "row,x,ts\n";
  for (int i = 0; i < 400; ++i)
    text += std::to_string(i + 1) + "," + std::to_string((i * 37) % 11) + "," + std::to_string(1700000000 + 60 * i) + "\n";
  const std::string path = write_temp_file("numbers_epoch.csv", text);
  const auto r = run_cli("eval --quiet --data " + path + " --model hoeffding_tree");
  EXPECT_NE(r.err.find("warning: column 'row' holds increasing unique integers"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warning: target 'ts' holds increasing unique integers"), std::string::npos) << r.err;
}

// eval --json says what the result came from: version, data, model with
// every setting (defaults included), seed and the row window.
TEST(NumberFormatCli, EvalJsonRecordsItsProvenance) {
  const std::string path = write_temp_file("numbers_provenance.csv", tables(300).plain);
  const auto r = run_cli("eval --quiet --json --data " + path + " --model hoeffding_tree --seed 9 --skip 5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"provenance\":{\"irithyll_version\":\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"data\":\"" + path + "\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"model\":\"hoeffding_tree\",\"settings\":{"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"grace-period\":"), std::string::npos) << r.out;  // a default, not given
  EXPECT_NE(r.out.find("\"seed\":9,\"skip\":5}"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace irithyll::testing
