// A table read ahead on a second thread delivers what the table read
// directly delivers: the same rows in the same order across many batches,
// the same error at the same row, and the same counts of skipped rows when
// the reader stops early, whatever the thread read beyond.
#include "irithyll/stream/read_ahead.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll {
namespace {

// n rows: two numeric features (some missing), a categorical one whose
// values keep arriving, a class label; every 97th row is malformed.
std::string table(std::size_t n, std::size_t bad_every) {
  Xorshift64 rng(17);
  std::string s = "a,b,colour,y\n";
  for (std::size_t i = 0; i < n; ++i) {
    if (bad_every > 0 && i % bad_every == bad_every - 1) {
      s += "1,2\n";  // too few columns
      continue;
    }
    s += (i % 13 == 0 ? std::string("NA") : std::to_string(rng.normal())) + "," + std::to_string(rng.uniform()) +
         ",c" + std::to_string(i % 7 == 0 ? i : i % 5) + "," + (rng.uniform() < 0.5 ? "0" : "1") + "\n";
  }
  return s;
}

std::unique_ptr<TableStream> open(const std::string& text, bool skip_bad) {
  TableOptions o;
  o.skip_bad_rows = skip_bad;
  o.lookahead_rows = 200;  // most rows come after the look-ahead
  auto r = open_table_stream_from_string(text, o, "data.csv");
  EXPECT_TRUE(r.is_ok()) << r.status().message();
  return std::move(r).value();
}

struct Row {
  std::vector<double> x;
  double y;
  std::uint64_t line;
};

std::vector<Row> read_rows(TableStream& s, std::size_t limit) {
  std::vector<Row> out;
  std::vector<double> x(s.schema().n_features());
  double y = 0.0;
  while (out.size() < limit && s.next(x, y)) out.push_back({x, y, s.current_line()});
  return out;
}

bool same(const std::vector<Row>& a, const std::vector<Row>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(a[i].x.data(), b[i].x.data(), a[i].x.size() * sizeof(double)) != 0 || a[i].y != b[i].y ||
        a[i].line != b[i].line)
      return false;
  return true;
}

TEST(ReadAhead, SameRowsAcrossManyBatches) {
  const std::string text = table(5000, 97);
  auto direct = open(text, true);
  auto ahead = read_ahead(open(text, true));
  const auto want = read_rows(*direct, SIZE_MAX);
  const auto got = read_rows(*ahead, SIZE_MAX);
  ASSERT_GT(want.size(), 4000u);
  EXPECT_TRUE(same(want, got));
  EXPECT_TRUE(ahead->status().is_ok());
  EXPECT_EQ(ahead->skipped_rows(), direct->skipped_rows());
  EXPECT_EQ(ahead->skipped_examples(), direct->skipped_examples());
  EXPECT_EQ(ahead->schema().category_values, direct->schema().category_values);
  // At the end it stays at the end.
  std::vector<double> x(3);
  double y = 0.0;
  EXPECT_FALSE(ahead->next(x, y));
}

TEST(ReadAhead, SameErrorAtTheSameRow) {
  const std::string text = table(3000, 2500);  // row 2500 is malformed and not skipped
  auto direct = open(text, false);
  auto ahead = read_ahead(open(text, false));
  const auto want = read_rows(*direct, SIZE_MAX);
  const auto got = read_rows(*ahead, SIZE_MAX);
  EXPECT_EQ(want.size(), 2499u);
  EXPECT_TRUE(same(want, got));
  ASSERT_FALSE(direct->status().is_ok());
  EXPECT_EQ(ahead->status().message(), direct->status().message());
}

// Stopped after k rows, the counts are those at row k, not those of the
// rows the thread went on to read.
TEST(ReadAhead, StoppedEarlyReportsCountsAtTheLastRowDelivered) {
  const std::string text = table(6000, 97);
  for (std::size_t k : {1u, 100u, 1500u, 4000u}) {
    auto direct = open(text, true);
    auto ahead = read_ahead(open(text, true));
    EXPECT_TRUE(same(read_rows(*direct, k), read_rows(*ahead, k)));
    stop_read_ahead(*ahead);
    EXPECT_EQ(ahead->skipped_rows(), direct->skipped_rows()) << k;
    EXPECT_EQ(ahead->skipped_examples(), direct->skipped_examples()) << k;
    EXPECT_EQ(ahead->current_line(), direct->current_line()) << k;
    EXPECT_TRUE(ahead->status().is_ok());
  }
}

// Dropped mid-stream with the thread still reading: no hang, no leak
// (the sanitizer build checks).
TEST(ReadAhead, DestroyedWhileReading) {
  const std::string text = table(20000, 0);
  for (int i = 0; i < 20; ++i) {
    auto ahead = read_ahead(open(text, false));
    (void)read_rows(*ahead, static_cast<std::size_t>(i) * 37);
  }
}

}  // namespace
}  // namespace irithyll
