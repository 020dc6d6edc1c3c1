#include "irithyll/stream/table_stream.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <vector>

#include "support/shared_data.hpp"

namespace irithyll {
namespace {

struct Rows {
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  Status status;
};

Rows drain(Stream& s) {
  Rows r;
  std::vector<double> x(s.schema().n_features());
  double y = 0.0;
  while (s.next(x, y)) {
    r.x.push_back(x);
    r.y.push_back(y);
  }
  r.status = s.status();
  return r;
}

std::unique_ptr<Stream> open_ok(const std::string& text, const TableOptions& options = {}) {
  auto r = open_table_stream_from_string(text, options, "data.csv");
  EXPECT_TRUE(r.is_ok()) << r.status().message();
  return r.is_ok() ? std::move(r).value() : nullptr;
}

std::string open_error(const std::string& text, const TableOptions& options = {}) {
  auto r = open_table_stream_from_string(text, options, "data.csv");
  return r.is_ok() ? std::string("(opened)") : r.status().message();
}

std::string next_error(const std::string& text, const TableOptions& options = {}) {
  auto s = open_ok(text, options);
  if (!s) return "(open failed)";
  const Rows r = drain(*s);
  return r.status.message();
}

TEST(CsvStream, NumericRegressionAndSchema) {
  auto s = open_ok("a,b,y\n1,2,0.5\n3,4,1.5\n");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->schema().task, Task::kRegression);
  EXPECT_EQ(s->schema().feature_names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s->schema().target_name, "y");
  EXPECT_EQ(s->size_hint(), 2u);
  const Rows r = drain(*s);
  ASSERT_TRUE(r.status.is_ok());
  ASSERT_EQ(r.y.size(), 2u);
  EXPECT_EQ(r.x[1], (std::vector<double>{3, 4}));
  EXPECT_EQ(r.y[0], 0.5);
}

TEST(CsvStream, TargetByNameAndFeatureOrder) {
  TableOptions o;
  o.target = "y";
  auto s = open_ok("y,a,b\n1.5,2,3\n", o);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->schema().feature_names, (std::vector<std::string>{"a", "b"}));
  const Rows r = drain(*s);
  EXPECT_EQ(r.x[0], (std::vector<double>{2, 3}));
  EXPECT_EQ(r.y[0], 1.5);
}

TEST(CsvStream, TaskInference) {
  // Integer-valued with few distinct values: classification, sorted numerically.
  auto s = open_ok("a,y\n1,10\n2,2\n3,10\n4,-1\n");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->schema().task, Task::kClassification);
  EXPECT_EQ(s->schema().class_names, (std::vector<std::string>{"-1", "2", "10"}));
  EXPECT_EQ(drain(*s).y, (std::vector<double>{2, 1, 2, 0}));
  // Non-integer: regression.
  EXPECT_EQ(open_ok("a,y\n1,1\n2,2.5\n")->schema().task, Task::kRegression);
  // 33 distinct integers: regression.
  std::string many = "a,y\n";
  for (int i = 0; i < 33; ++i) many += "0," + std::to_string(i) + "\n";
  EXPECT_EQ(open_ok(many)->schema().task, Task::kRegression);
  // Forced classification keeps all 33 classes.
  TableOptions o;
  o.task = Task::kClassification;
  EXPECT_EQ(open_ok(many, o)->schema().n_classes(), 33u);
  // Strings: classification, lexicographic.
  auto t = open_ok("a,y\n1,UP\n2,DOWN\n3,UP\n");
  EXPECT_EQ(t->schema().class_names, (std::vector<std::string>{"DOWN", "UP"}));
  EXPECT_EQ(drain(*t).y, (std::vector<double>{1, 0, 1}));
}

TEST(CsvStream, NumericLabelsShareClassAcrossSpellings) {
  auto s = open_ok("a,y\n1,1\n2,1.0\n3,0\n");
  EXPECT_EQ(s->schema().class_names, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(drain(*s).y, (std::vector<double>{1, 1, 0}));
}

TEST(CsvStream, MissingValuesAndCategories) {
  auto s = open_ok("a,b,c,y\n,red,NA,1\n?,blue,nan,2\ninf,red,-INF,3\n4,,5,4.5\n");
  ASSERT_TRUE(s);
  const Rows r = drain(*s);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  ASSERT_EQ(r.x.size(), 4u);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(r.x[i][0])) << i;
  EXPECT_EQ(r.x[3][0], 4.0);
  EXPECT_EQ(r.x[0][1], 0.0);  // red
  EXPECT_EQ(r.x[1][1], 1.0);  // blue
  EXPECT_EQ(r.x[2][1], 0.0);  // red again
  EXPECT_TRUE(std::isnan(r.x[3][1]));
  EXPECT_TRUE(std::isnan(r.x[2][2]));
  EXPECT_EQ(r.x[3][2], 5.0);
}

TEST(CsvStream, NumberLikeStringInCategoricalColumnIsACategory) {
  auto s = open_ok("a,y\nx,1\n7,2\n");
  const Rows r = drain(*s);
  ASSERT_TRUE(r.status.is_ok());
  EXPECT_EQ(r.x[1][0], 1.0);
}

TEST(CsvStream, QuotesCrlfBlankLinesBomAndSpaces) {
  auto s = open_ok("\xEF\xBB\xBF\"na,me\",\"q\"\"t\",y\r\n\"a,b\", 2 ,1.5\r\n\r\n\"c\"\"d\",\"3\",2.5\r\n");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->schema().feature_names, (std::vector<std::string>{"na,me", "q\"t"}));
  const Rows r = drain(*s);
  ASSERT_TRUE(r.status.is_ok()) << r.status.message();
  ASSERT_EQ(r.x.size(), 2u);
  EXPECT_EQ(r.x[0], (std::vector<double>{0, 2}));
  EXPECT_EQ(r.x[1], (std::vector<double>{1, 3}));
  EXPECT_EQ(r.y[1], 2.5);
}

TEST(CsvStream, QuotedLineBreakAndSkipRows) {
  TableOptions o;
  o.skip_rows = 2;
  auto s = open_ok("# comment\n# another\na,y\n\"multi\nline\",1\n2,2\n", o);
  ASSERT_TRUE(s);
  const Rows r = drain(*s);
  ASSERT_TRUE(r.status.is_ok());
  EXPECT_EQ(r.x.size(), 2u);
  // The row after a quoted line break starts on physical line 4.
  EXPECT_EQ(next_error("a,b,y\n\"x\ny\",1,1\nq,abc,2\n"), "data.csv:4:2: not a number: 'abc' in numeric column 'b' (--categorical or --drop it if that is expected)");
}

TEST(CsvStream, ErrorMessages) {
  EXPECT_EQ(open_error(""), "data.csv: empty file (a header row is required)");
  EXPECT_EQ(open_error("\n\n"), "data.csv: empty file (a header row is required)");
  EXPECT_EQ(open_error("a,b,y\n"), "data.csv: no data rows after the header");
  EXPECT_EQ(open_error("a,b,a\n1,2,3\n"), "data.csv:1:3: duplicate column name 'a' (also column 1)");
  EXPECT_EQ(open_error("y\n1\n"),
            "data.csv:1:1: need at least two columns (features and a target); is the separator right? (found one "
            "column with ',')");
  TableOptions single;
  single.allow_target_only = true;
  single.task = Task::kRegression;
  EXPECT_EQ(open_error("y\n1\n2.5\n", single), "(opened)");
  // With the task given only the number formats are inferred, from a short
  // look-ahead (here one row), so later rows are checked as they come.
  single.lookahead_rows = 1;
  EXPECT_EQ(next_error("y\n1\nz\n", single), "data.csv:3:1: not a number: 'z' in regression target 'y'");
  TableOptions t;
  t.target = "price";
  EXPECT_EQ(open_error("a,b\n1,2\n", t), "data.csv:1: unknown target column 'price'");
  EXPECT_EQ(open_error("a,b,c,d,y\n1,2,3,4,5\n1,2,3,4\n"), "data.csv:3:5: expected 5 columns, found 4");
  EXPECT_EQ(open_error("a,y\n1,2\n1,2,3\n"), "data.csv:3:3: expected 2 columns, found 3");
  EXPECT_EQ(open_error("a,y\n1,2\n1,\n"), "data.csv:3:2: missing target value '' in column 'y'");
  EXPECT_EQ(open_error("a,y\n1,\"2\n"), "data.csv:2: unterminated quoted field");
  TableOptions r;
  r.task = Task::kRegression;
  r.lookahead_rows = 1;
  EXPECT_EQ(next_error("a,y\n1,2\n1,abc\n", r), "data.csv:3:2: not a number: 'abc' in regression target 'y'");
  EXPECT_EQ(open_error("a,y\n1,2\n1,abc\n"), "(opened)");  // inferred: a text label means classification
  EXPECT_EQ(next_error("a,price,y\n1,2,0\n1,2,1\n1,abc,0\n"),
            "data.csv:4:2: not a number: 'abc' in numeric column 'price' (--categorical or --drop it if that is "
            "expected)");
}

TEST(CsvStream, ErrorStopsTheStream) {
  auto s = open_ok("a,y\n1,0\nabc,1\n2,0\n");
  std::vector<double> x(1);
  double y = 0;
  EXPECT_TRUE(s->next(x, y));
  EXPECT_FALSE(s->next(x, y));
  EXPECT_FALSE(s->status().is_ok());
  EXPECT_FALSE(s->next(x, y));  // stays stopped
  std::vector<double> wrong(3);
  auto s2 = open_ok("a,y\n1,0\n");
  EXPECT_FALSE(s2->next(wrong, y));
  EXPECT_FALSE(s2->status().is_ok());
}

TEST(CsvStream, OverlongRecordIsAnError) {
  std::string text = "a,y\n";
  text += std::string(2u << 20, '7');
  text += ",1\n";
  EXPECT_EQ(open_error(text), "data.csv:2: record longer than 1048576 bytes");
}

TEST(CsvStream, MissingFileIsAnIoError) {
  auto r = open_table_stream("/nonexistent/dir/x.csv");
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIOError);
  EXPECT_NE(r.status().message().find("/nonexistent/dir/x.csv"), std::string::npos);
}

TEST(CsvStream, ElecFile) {
  IRITHYLL_REQUIRE_SHARED("datasets/elec.csv");
  auto r = open_table_stream(testing::shared_path("datasets/elec.csv"));
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  Stream& s = **r;
  EXPECT_EQ(s.schema().task, Task::kClassification);
  EXPECT_EQ(s.schema().n_features(), 6u);
  EXPECT_EQ(s.schema().class_names, (std::vector<std::string>{"0", "1"}));
  EXPECT_FALSE(s.size_hint().has_value());  // longer than the look-ahead: not counted in advance
  const Rows rows = drain(s);
  ASSERT_TRUE(rows.status.is_ok()) << rows.status.message();
  EXPECT_EQ(rows.y.size(), 45312u);
  EXPECT_DOUBLE_EQ(rows.x[0][1], 0.05644299999999999);
  EXPECT_EQ(rows.y[0], 1.0);
}

TEST(CsvStream, Elec8StringLabels) {
  IRITHYLL_REQUIRE_SHARED("datasets/elec8.csv");
  auto r = open_table_stream(testing::shared_path("datasets/elec8.csv"));
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ((*r)->schema().class_names, (std::vector<std::string>{"DOWN", "UP"}));
  EXPECT_EQ((*r)->schema().n_features(), 8u);
  const Rows rows = drain(**r);
  ASSERT_TRUE(rows.status.is_ok());
  EXPECT_EQ(rows.y[0], 1.0);  // UP
}

TEST(CsvStream, ReadsFromDiskLikeFromString) {
  const std::string text = "a,b,y\n1,x,0\n2,y,1\n3,x,1\n";
  const std::string path = ::testing::TempDir() + "/irithyll_csv_disk.csv";
  { std::ofstream(path) << text; }
  auto f = open_table_stream(path);
  ASSERT_TRUE(f.is_ok());
  const Rows a = drain(**f);
  const Rows b = drain(*open_ok(text));
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.y, b.y);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace irithyll
