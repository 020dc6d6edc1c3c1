// Multi-target tables (TableOptions::extra_targets): next_multi delivers every
// target in the order named, targets are never features, a missing target
// column is named, and the task is regression. The friedman3 generator.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/stream/table_stream.hpp"
#include "irithyll/stream/generators.hpp"
#include "irithyll/stream/generators/friedman.hpp"

namespace irithyll {
namespace {

TableOptions three_targets() {
  TableOptions o;
  o.target = "c";
  o.extra_targets = {"a", "b"};
  return o;
}

TEST(MultiTargetStream, DeliversEveryTargetInOrder) {
  auto s = open_table_stream_from_string("x1,a,x2,b,c\n1,10,2,20,30\n3,11,4,21,31\n", three_targets());
  ASSERT_TRUE(s) << s.status().message();
  const Schema& schema = (*s)->schema();
  EXPECT_EQ(schema.task, Task::kRegression);
  EXPECT_EQ(schema.feature_names, (std::vector<std::string>{"x1", "x2"}));
  EXPECT_EQ(schema.target_names, (std::vector<std::string>{"c", "a", "b"}));
  EXPECT_EQ(schema.n_targets(), 3u);
  std::vector<double> x(2), y(3);
  ASSERT_TRUE((*s)->next_multi(x, y));
  EXPECT_EQ(x, (std::vector<double>{1, 2}));
  EXPECT_EQ(y, (std::vector<double>{30, 10, 20}));
  ASSERT_TRUE((*s)->next_multi(x, y));
  EXPECT_EQ(y, (std::vector<double>{31, 11, 21}));
  EXPECT_FALSE((*s)->next_multi(x, y));
  EXPECT_TRUE((*s)->status().is_ok());
}

TEST(MultiTargetStream, IntegerTargetsStayRegression) {
  // One target alone would be inferred as classes; several are regression.
  auto s = open_table_stream_from_string("x,a,b\n1,0,1\n2,1,0\n", [] {
    TableOptions o;
    o.target = "a";
    o.extra_targets = {"b"};
    return o;
  }());
  ASSERT_TRUE(s) << s.status().message();
  EXPECT_EQ((*s)->schema().task, Task::kRegression);
}

TEST(MultiTargetStream, MissingColumnIsNamed) {
  TableOptions o = three_targets();
  o.extra_targets = {"a", "nope"};
  auto s = open_table_stream_from_string("x1,a,x2,b,c\n1,10,2,20,30\n", o, "t.csv");
  ASSERT_FALSE(s);
  EXPECT_NE(s.status().message().find("unknown target column 'nope'"), std::string::npos) << s.status().message();
}

TEST(MultiTargetStream, RefusesClassesFeaturesAndBadCells) {
  TableOptions cls = three_targets();
  cls.task = Task::kClassification;
  EXPECT_FALSE(open_table_stream_from_string("x1,a,x2,b,c\n1,10,2,20,30\n", cls));
  TableOptions feat = three_targets();
  feat.features = {"x1", "a"};
  auto f = open_table_stream_from_string("x1,a,x2,b,c\n1,10,2,20,30\n", feat);
  ASSERT_FALSE(f);
  EXPECT_NE(f.status().message().find("'a' is a target"), std::string::npos) << f.status().message();
  TableOptions twice = three_targets();
  twice.extra_targets = {"a", "c"};
  EXPECT_FALSE(open_table_stream_from_string("x1,a,x2,b,c\n1,10,2,20,30\n", twice));
  auto text = open_table_stream_from_string("x1,a,x2,b,c\n1,10,2,20,30\n1,10,2,oops,30\n", three_targets(), "t.csv");
  ASSERT_TRUE(text);
  std::vector<double> x(2), y(3);
  EXPECT_TRUE((*text)->next_multi(x, y));
  EXPECT_FALSE((*text)->next_multi(x, y));
  EXPECT_NE((*text)->status().message().find("t.csv:3:4"), std::string::npos) << (*text)->status().message();
  TableOptions missing = three_targets();
  missing.allow_missing_target = true;
  auto m = open_table_stream_from_string("x1,a,x2,b,c\n1,,2,20,30\n", missing);
  ASSERT_TRUE(m);
  ASSERT_TRUE((*m)->next_multi(x, y));
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_EQ(y[2], 20);
}

TEST(MultiTargetStream, JsonLines) {
  TableOptions o;
  o.format = TableFormat::kJsonLines;
  o.target = "a";
  o.extra_targets = {"b"};
  auto s = open_table_stream_from_string("{\"x\":1,\"a\":2,\"b\":3}\n{\"x\":4,\"b\":6,\"a\":5}\n", o);
  ASSERT_TRUE(s) << s.status().message();
  EXPECT_EQ((*s)->schema().feature_names, (std::vector<std::string>{"x"}));
  std::vector<double> x(1), y(2);
  ASSERT_TRUE((*s)->next_multi(x, y));
  EXPECT_EQ(y, (std::vector<double>{2, 3}));
  ASSERT_TRUE((*s)->next_multi(x, y));
  EXPECT_EQ(y, (std::vector<double>{5, 6}));
  EXPECT_EQ(x[0], 4);
}

}  // namespace
}  // namespace irithyll

namespace irithyll {
namespace {

// friedman3: target 1 is the "friedman" stream's target for the same
// features; next() and next_multi() walk the same samples.
TEST(MultiTargetStream, Friedman3Generator) {
  auto multi = make_generator("friedman3", 5, 200);
  auto plain = make_generator("friedman3", 5, 200);
  ASSERT_TRUE(multi && plain);
  const Schema& schema = (*multi)->schema();
  EXPECT_EQ(schema.target_names, (std::vector<std::string>{"y1", "y2", "y3"}));
  EXPECT_EQ(schema.n_features(), 10u);
  std::vector<double> x(10), x2(10), y(3), noise_free(3);
  double y1 = 0.0;
  double spread[3] = {0, 0, 0};
  while ((*multi)->next_multi(x, y)) {
    ASSERT_TRUE((*plain)->next(x2, y1));
    ASSERT_EQ(x, x2);
    EXPECT_EQ(y[0], y1);
    const double f1 = FriedmanGenerator::target(x);
    for (std::size_t k = 0; k < 3; ++k) ASSERT_TRUE(std::isfinite(y[k]));
    spread[0] += std::abs(y[0] - f1);
    spread[1] += std::abs(y[1] - (10 * x[6] * x[7] + 5 * std::cos(3.141592653589793 * x[8])));
    spread[2] += std::abs(y[2] - (0.5 * f1 - 4 * x[9]));
  }
  EXPECT_TRUE((*multi)->status().is_ok());
  // Mean |noise|: sqrt(2/pi) sigma, sigma = 1, 0.5, 0.5 (loose: 200 samples).
  EXPECT_NEAR(spread[0] / 200, 0.80, 0.15);
  EXPECT_NEAR(spread[1] / 200, 0.40, 0.08);
  EXPECT_NEAR(spread[2] / 200, 0.40, 0.08);
  std::vector<double> wrong(2);
  EXPECT_FALSE((*multi)->next_multi(x, wrong));
}

}  // namespace
}  // namespace irithyll
