// Heap-allocation audit of the table reader: once the look-ahead is spent,
// reading a row of a numeric CSV allocates nothing, across buffer refills,
// CRLF line ends, blank lines, quoted fields and missing cells.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/stream/table_stream.hpp"
#include "support/alloc_counter.hpp"

namespace irithyll {
namespace {

TEST(ReaderAlloc, RowsAfterTheLookaheadAllocateNothing) {
  constexpr int kRows = 40000;  // several 64 KiB buffers
  Xorshift64 rng(7);
  std::string text = "a,b,c,d,label\n";
  for (int i = 0; i < kRows; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (i % 97 == 0 && j == 1) text += "?";                // missing
      else if (i % 89 == 0 && j == 2) text += "\"1.5\"";     // quoted: the general path
      else text += std::to_string(rng.normal());
      text += ',';
    }
    text += i % 3 == 0 ? "1" : "0";
    text += i % 5 == 0 ? "\r\n" : "\n";
    if (i % 1000 == 0) text += "\n";  // blank line
  }
  TableOptions options;
  options.lookahead_rows = 100;
  auto opened = open_table_stream_from_string(std::move(text), options, "alloc.csv");
  ASSERT_TRUE(opened.is_ok()) << opened.status().to_string();
  Stream& s = **opened;
  std::vector<double> x(s.schema().n_features());
  double y = 0.0;
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(s.next(x, y));  // the look-ahead, replayed and freed
  const long before = test::allocation_count();
  int rows = 0;
  while (s.next(x, y)) ++rows;
  EXPECT_EQ(test::allocation_count() - before, 0);
  EXPECT_TRUE(s.status().is_ok()) << s.status().to_string();
  EXPECT_EQ(rows, kRows - 1000);
}

}  // namespace
}  // namespace irithyll
