// Dialect corners of the CSV reader, and a replay of the fuzz seed corpus
// (fuzz/corpus/csv) through the same invariants the fuzzer checks.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "irithyll/stream/table_stream.hpp"

namespace irithyll {
namespace {

struct Drained {
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  Status status;
};

Drained drain_text(const std::string& text, const TableOptions& options = {}) {
  Drained d;
  auto r = open_table_stream_from_string(text, options, "e.csv");
  if (!r.is_ok()) {
    d.status = r.status();
    return d;
  }
  std::vector<double> x((*r)->schema().n_features());
  double y = 0;
  while ((*r)->next(x, y)) {
    d.x.push_back(x);
    d.y.push_back(y);
  }
  d.status = (*r)->status();
  return d;
}

TEST(CsvEdge, LoneCarriageReturnsAndNoFinalNewline) {
  const Drained d = drain_text("a,y\r1,0.5\r2,1.5");
  ASSERT_TRUE(d.status.is_ok()) << d.status.message();
  EXPECT_EQ(d.y, (std::vector<double>{0.5, 1.5}));
}

TEST(CsvEdge, QuotesInsideAndAfterFields) {
  // A quote inside an unquoted field is literal; text after a closing quote
  // is kept: both columns are categorical, the first value of each is id 0.
  const Drained d = drain_text("a,b,y\nx\"y,\"ab\"c,1\nx\"y,abc,2\n");
  ASSERT_TRUE(d.status.is_ok()) << d.status.message();
  EXPECT_EQ(d.x[1], (std::vector<double>{0, 0}));  // "abc" == the unquoted abc
}

TEST(CsvEdge, NumberSpellings) {
  const Drained d = drain_text("a,y\n+5,0.5\n-2.5e1,1.5\n1e999,2.5\n.5,3.5\n");
  ASSERT_TRUE(d.status.is_ok()) << d.status.message();
  EXPECT_EQ(d.x[0][0], 5.0);
  EXPECT_EQ(d.x[1][0], -25.0);
  EXPECT_TRUE(std::isnan(d.x[2][0]));  // out of range: missing, like inf
  EXPECT_EQ(d.x[3][0], 0.5);
  EXPECT_EQ(drain_text("a,y\n0x10,1.5\n").x[0][0], 0.0);  // not a number: first value -> category 0
}

TEST(CsvEdge, EmptyHeaderNamesCollide) {
  EXPECT_EQ(drain_text("a,,,y\n1,2,3,4\n").status.message(), "e.csv:1:3: duplicate column name '' (also column 2)");
}

TEST(CsvEdge, ForcedTasks) {
  TableOptions reg;
  reg.task = Task::kRegression;
  const Drained d = drain_text("a,y\n1,0\n2,1\n", reg);
  ASSERT_TRUE(d.status.is_ok());
  EXPECT_EQ(d.y, (std::vector<double>{0, 1}));
  TableOptions cls;
  cls.task = Task::kClassification;
  auto r = open_table_stream_from_string("a,y\n1,0.5\n2,0.25\n", cls, "e.csv");
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ((*r)->schema().class_names, (std::vector<std::string>{"0.25", "0.5"}));
}

TEST(CsvEdge, MixedNumericAndTextLabelsSortAsText) {
  auto r = open_table_stream_from_string("a,y\n1,b\n2,10\n3,9\n", {}, "e.csv");
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ((*r)->schema().class_names, (std::vector<std::string>{"10", "9", "b"}));
}

TEST(CsvEdge, FuzzCorpusReplay) {
  const std::filesystem::path dir = std::filesystem::path(IRITHYLL_SOURCE_DIR) / "fuzz" / "corpus" / "csv";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no corpus at " << dir;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string bytes = ss.str();
    if (bytes.empty()) continue;
    ++files;
    const auto mode = static_cast<unsigned char>(bytes[0]);
    TableOptions o;
    if (mode & 1) o.task = (mode & 2) ? Task::kClassification : Task::kRegression;
    if (mode & 4) o.target = "y";
    o.skip_rows = (mode >> 4) & 3;
    auto r = open_table_stream_from_string(bytes.substr(1), o, "fuzz.csv");
    if (!r.is_ok()) continue;
    const Schema& schema = (*r)->schema();
    std::vector<double> x(schema.n_features());
    double y = 0;
    std::uint64_t rows = 0;
    while ((*r)->next(x, y)) {
      ++rows;
      if (schema.task == Task::kClassification) {
        ASSERT_TRUE(y >= 0 && y < double(schema.n_classes())) << entry.path();
      } else {
        ASSERT_TRUE(std::isfinite(y)) << entry.path();
      }
    }
    if ((*r)->status().is_ok() && (*r)->size_hint().has_value()) {
      EXPECT_EQ((*r)->size_hint(), rows) << entry.path();
    }
  }
  EXPECT_GT(files, 0);
}

}  // namespace
}  // namespace irithyll
