// Schema::categorical_features: the table reader lists the feature columns
// it codes as categories (string columns decided in the look-ahead, and
// --categorical ones by name or 0-based feature index), so the CLI can hand
// them to models with category splits.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "irithyll/stream/table_stream.hpp"

namespace irithyll {
namespace {

std::vector<std::size_t> categorical_of(const std::string& text, const TableOptions& o = {}) {
  auto r = open_table_stream_from_string(text, o, "data.csv");
  EXPECT_TRUE(r.is_ok()) << r.status().message();
  return r.is_ok() ? (*r)->schema().categorical_features : std::vector<std::size_t>{99};
}

TEST(CategoricalColumns, StringColumnsAreListedInFeatureOrder) {
  // Features: num, colour, size (target y last); colour's first value is
  // missing, its kind comes from the next row.
  const std::string csv = "num,colour,size,y\n1,,S,0\n2,red,M,1\n3,blue,L,0\n";
  EXPECT_EQ(categorical_of(csv), (std::vector<std::size_t>{1, 2}));
  TableOptions o;
  o.drop = {"colour"};
  EXPECT_EQ(categorical_of(csv, o), (std::vector<std::size_t>{1}));  // size is feature 1 now
}

TEST(CategoricalColumns, NamedOrIndexedNumericColumns) {
  const std::string csv = "day,price,y\n2,0.5,0\n3,0.7,1\n2,0.1,0\n";
  EXPECT_TRUE(categorical_of(csv).empty());
  TableOptions by_name, by_index;
  by_name.categorical = {"day"};
  by_index.categorical = {"0"};
  EXPECT_EQ(categorical_of(csv, by_name), (std::vector<std::size_t>{0}));
  EXPECT_EQ(categorical_of(csv, by_index), (std::vector<std::size_t>{0}));
  // Codes follow first appearance: "2" -> 0, "3" -> 1.
  auto s = open_table_stream_from_string(csv, by_name, "data.csv").value();
  double x[2], y;
  std::vector<double> codes;
  while (s->next(x, y)) codes.push_back(x[0]);
  EXPECT_EQ(codes, (std::vector<double>{0, 1, 0}));
  TableOptions bad;
  bad.categorical = {"7"};  // neither a column nor a feature index
  EXPECT_FALSE(open_table_stream_from_string(csv, bad, "data.csv").is_ok());
}

// With the task and classes given, the look-ahead is short (here one row): a
// column whose first value is text is still listed; one missing there is not.
TEST(CategoricalColumns, ShortLookAhead) {
  TableOptions o;
  o.task = Task::kClassification;
  o.classes = {"0", "1"};
  o.lookahead_rows = 1;
  EXPECT_EQ(categorical_of("a,b,y\nred,,0\nblue,x,1\n", o), (std::vector<std::size_t>{0}));
}

}  // namespace
}  // namespace irithyll
