// JSON-lines input: features by key, keys in any order, missing keys,
// keys first seen after the look-ahead, escapes, and syntax errors with
// line and column.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "irithyll/stream/csv_stream.hpp"

namespace irithyll {
namespace {

CsvOptions jsonl() {
  CsvOptions o;
  o.format = TableFormat::kJsonLines;
  return o;
}

TEST(JsonLines, FeaturesByKeyInAnyOrder) {
  CsvOptions o = jsonl();
  o.lookahead_rows = 2;
  auto r = open_csv_stream_from_string(
      "{\"a\": 1, \"b\": \"x\", \"y\": \"UP\"}\n"
      "{\"y\": \"DOWN\", \"b\": null, \"a\": 2.5}\n"
      "{\"b\": \"z\", \"c\": true, \"y\": \"UP\"}\n",
      o, "d.jsonl");
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  TableStream& s = **r;
  EXPECT_EQ(s.schema().feature_names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.schema().class_names, (std::vector<std::string>{"DOWN", "UP"}));
  std::vector<double> x(2);
  double y = 0;
  ASSERT_TRUE(s.next(x, y));
  EXPECT_EQ(x, (std::vector<double>{1, 0}));
  EXPECT_EQ(y, 1);
  ASSERT_TRUE(s.next(x, y));
  EXPECT_EQ(x[0], 2.5);
  EXPECT_TRUE(std::isnan(x[1]));
  ASSERT_TRUE(s.next(x, y));  // "a" missing, "c" new after the look-ahead
  EXPECT_TRUE(std::isnan(x[0]));
  EXPECT_EQ(x[1], 1);
  EXPECT_FALSE(s.next(x, y));
  EXPECT_TRUE(s.status().is_ok());
  EXPECT_EQ(s.ignored_keys(), 1u);
}

TEST(JsonLines, NewKeysInsideTheLookaheadBecomeColumns) {
  auto r = open_csv_stream_from_string("{\"a\":1,\"y\":0.5}\n{\"a\":2,\"b\":3,\"y\":1.5}\n", jsonl(), "d.jsonl");
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ((*r)->schema().feature_names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ((*r)->schema().target_name, "y");
  std::vector<double> x(2);
  double y = 0;
  ASSERT_TRUE((*r)->next(x, y));
  EXPECT_TRUE(std::isnan(x[1]));
}

TEST(JsonLines, EscapesAndUnicode) {
  auto r = open_csv_stream_from_string("{\"k\\\"ey\":\"caf\\u00e9\",\"y\":1.5}\n{\"k\\\"ey\":\"\\ud83d\\ude00\",\"y\":2}\n",
                                       jsonl(), "d.jsonl");
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ((*r)->schema().feature_names, (std::vector<std::string>{"k\"ey"}));
  EXPECT_EQ((*r)->schema().task, Task::kRegression);
}

TEST(JsonLines, SyntaxErrorsNameLineAndColumn) {
  auto bad = [](const std::string& text) {
    auto r = open_csv_stream_from_string(text, jsonl(), "d.jsonl");
    return r.is_ok() ? std::string("(opened)") : r.status().message();
  };
  EXPECT_EQ(bad("{\"a\":1,\"y\":2}\n{\"a\":[1],\"y\":2}\n"),
            "d.jsonl:2:6: nested objects and arrays are not supported (one flat object per line)");
  EXPECT_EQ(bad("{\"a\":1,\"y\":2}\n\n{\"a\":1 \"y\":2}\n"), "d.jsonl:3:8: expected ',' or '}'");
  EXPECT_EQ(bad("[1,2]\n"), "d.jsonl:1:1: expected '{' (one JSON object per line)");
  EXPECT_EQ(bad("{\"a\":\"x\n"), "d.jsonl:1:6: unterminated string");
}

}  // namespace
}  // namespace irithyll
