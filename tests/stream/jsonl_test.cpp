// JSON-lines input: features by key, keys in any order, missing keys,
// keys first seen after the look-ahead, escapes, and syntax errors with
// line and column.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "irithyll/stream/table_stream.hpp"

namespace irithyll {
namespace {

TableOptions jsonl() {
  TableOptions o;
  o.format = TableFormat::kJsonLines;
  return o;
}

TEST(JsonLines, FeaturesByKeyInAnyOrder) {
  TableOptions o = jsonl();
  o.lookahead_rows = 2;
  auto r = open_table_stream_from_string(
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
  auto r = open_table_stream_from_string("{\"a\":1,\"y\":0.5}\n{\"a\":2,\"b\":3,\"y\":1.5}\n", jsonl(), "d.jsonl");
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ((*r)->schema().feature_names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ((*r)->schema().target_name, "y");
  std::vector<double> x(2);
  double y = 0;
  ASSERT_TRUE((*r)->next(x, y));
  EXPECT_TRUE(std::isnan(x[1]));
}

TEST(JsonLines, EscapesAndUnicode) {
  auto r = open_table_stream_from_string("{\"k\\\"ey\":\"caf\\u00e9\",\"y\":1.5}\n{\"k\\\"ey\":\"\\ud83d\\ude00\",\"y\":2}\n",
                                       jsonl(), "d.jsonl");
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ((*r)->schema().feature_names, (std::vector<std::string>{"k\"ey"}));
  EXPECT_EQ((*r)->schema().task, Task::kRegression);
}

TEST(JsonLines, SyntaxErrorsNameLineAndColumn) {
  auto bad = [](const std::string& text) {
    auto r = open_table_stream_from_string(text, jsonl(), "d.jsonl");
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

namespace irithyll {
namespace {

// The JSON-lines fuzzer's seeds, through the invariants the fuzzer checks.
TEST(JsonLines, FuzzCorpusReplay) {
  const std::filesystem::path dir = std::filesystem::path(IRITHYLL_SOURCE_DIR) / "fuzz" / "corpus" / "jsonl";
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
    o.format = TableFormat::kJsonLines;
    if (mode & 1) o.task = (mode & 2) ? Task::kClassification : Task::kRegression;
    if (mode & 4) o.target = "y";
    if (mode & 8) o.lookahead_rows = 2;
    if (mode & 16) o.allow_missing_target = true;
    if (mode & 32) o.features = {"a", "b"};
    if (mode & 64) o.categorical = {"a"};
    auto r = open_table_stream_from_string(bytes.substr(1), o, "fuzz.jsonl");
    if (!r.is_ok()) continue;
    const Schema& schema = (*r)->schema();
    std::vector<double> x(schema.n_features());
    double y = 0;
    while ((*r)->next(x, y)) {
      if (std::isnan(y)) {
        ASSERT_TRUE(o.allow_missing_target) << entry.path();
      } else if (schema.task == Task::kClassification) {
        ASSERT_TRUE(y >= 0 && y < double(schema.n_classes())) << entry.path();
      }
    }
  }
  EXPECT_GT(files, 0);
}

}  // namespace
}  // namespace irithyll
