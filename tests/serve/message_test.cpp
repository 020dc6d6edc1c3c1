// The message schema: what parses, what is refused and why, routing.
#include "serve/message.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace irithyll::serve {
namespace {

const MessageShape kShape{3, Task::kClassification, 2};

TEST(ServeMessage, PrintableEscapesHostileBytes) {
  EXPECT_EQ(printable(std::string("a\0b\xff", 4)), "a\\x00b\\xff");
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x82\xac"), "caf\xc3\xa9 \xe2\x82\xac");  // valid UTF-8 kept
  EXPECT_EQ(printable("\xc3"), "\\xc3");                                      // cut sequence
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                             // overlong
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");                    // surrogate
  EXPECT_EQ(printable("\xc2\x85"), "\\xc2\\x85");                             // C1 control
  EXPECT_EQ(printable("a\\b\n"), "a\\x5cb\\x0a");
  EXPECT_EQ(printable(std::string(100, 'z'), 10), "zzzzzzzzzz...(90 more bytes)");
  EXPECT_EQ(printable(""), "");
}

TEST(ServeMessage, SampleWithXField) {
  auto m = parse_message({{"id", "s1"}, {"key", "a"}, {"x", "1, -2.5e-3 ,3"}, {"y", "1"}}, kShape);
  ASSERT_TRUE(m.is_ok()) << m.status().to_string();
  EXPECT_FALSE(m->is_label);
  EXPECT_EQ(m->id, "s1");
  EXPECT_EQ(m->x, (std::vector<double>{1, -2.5e-3, 3}));
  EXPECT_EQ(m->y, 1.0);
}

TEST(ServeMessage, SampleWithNamedFeaturesInMessageOrder) {
  auto m = parse_message({{"key", "a"}, {"f_b", "2"}, {"id", "s"}, {"f_a", "1"}, {"f_c", "3"}, {"extra", "z"}}, kShape);
  ASSERT_TRUE(m.is_ok()) << m.status().to_string();
  EXPECT_EQ(m->x, (std::vector<double>{2, 1, 3}));
  EXPECT_FALSE(m->y.has_value());
}

TEST(ServeMessage, LabelMessage) {
  auto m = parse_message({{"key", "a"}, {"label_for", "s9"}, {"y", "0"}}, kShape);
  ASSERT_TRUE(m.is_ok());
  EXPECT_TRUE(m->is_label);
  EXPECT_EQ(m->id, "s9");
  EXPECT_EQ(m->y, 0.0);
}

TEST(ServeMessage, RefusalsSayWhy) {
  struct Case {
    Fields fields;
    const char* reason;
  } cases[] = {
      {{{"id", "s"}, {"x", "1,2,3"}}, "missing field 'key'"},
      {{{"key", "a"}, {"x", "1,2,3"}}, "missing field 'id'"},
      {{{"key", "a"}, {"id", "s"}}, "missing features"},
      {{{"key", "a"}, {"id", "s"}, {"x", "1,two,3"}}, "x[1] is not a number: 'two'"},
      {{{"key", "a"}, {"id", "s"}, {"x", "1,2"}}, "x has 2 values, the model takes 3"},
      {{{"key", "a"}, {"id", "s"}, {"x", "1,2,3,4"}}, "x has more than 3 values"},
      {{{"key", "a"}, {"id", "s"}, {"x", "1,,3"}}, "x[1] is not a number: ''"},
      {{{"key", "a"}, {"id", "s"}, {"x", "1,2,3"}, {"y", "2"}}, "not a class index in [0, 2)"},
      {{{"key", "a"}, {"id", "s"}, {"x", "1,2,3"}, {"y", "0.5"}}, "not a class index"},
      {{{"key", "a"}, {"id", "s"}, {"x", "1,2,3"}, {"y", "nan"}}, "y is not finite"},
      {{{"key", "a"}, {"label_for", "s"}}, "label message without field 'y'"},
      {{{"key", "a"}, {"id", "s"}, {"f_a", "1"}, {"f_b", "x"}}, "feature f_b is not a number"},
  };
  for (const auto& c : cases) {
    auto m = parse_message(c.fields, kShape);
    ASSERT_FALSE(m.is_ok()) << c.reason;
    EXPECT_NE(m.status().message().find(c.reason), std::string::npos) << m.status().message();
  }
}

TEST(ServeMessage, NumberSpellings) {
  const MessageShape shape{6, Task::kRegression, 0};
  auto m = parse_message({{"key", "a"}, {"id", "s"}, {"x", "+1,-0,1e3, 2.5 ,nan,1e-400"}}, shape);
  ASSERT_TRUE(m.is_ok()) << m.status().to_string();
  EXPECT_EQ(m->x[0], 1.0);
  EXPECT_EQ(m->x[2], 1000.0);
  EXPECT_EQ(m->x[3], 2.5);
  EXPECT_TRUE(std::isnan(m->x[4]));  // a missing value, as learners treat NaN
  EXPECT_EQ(m->x[5], 0.0);           // underflow reads as strtod reads it
  for (const char* bad : {"1,2,3,4,5,1x", "1,2,3,4,5,--1", "1,2,3,4,5,+", "1,2,3,4,5,1 2"})
    EXPECT_FALSE(parse_message({{"key", "a"}, {"id", "s"}, {"x", bad}}, shape).is_ok()) << bad;
}

TEST(ServeMessage, RegressionTargetsAnyFiniteNumber) {
  const MessageShape shape{1, Task::kRegression, 0};
  auto m = parse_message({{"key", "a"}, {"id", "s"}, {"x", "1"}, {"y", "-12.75"}}, shape);
  ASSERT_TRUE(m.is_ok());
  EXPECT_EQ(m->y, -12.75);
}

TEST(ServeMessage, NumbersRoundTripExactly) {
  for (double v : {0.1, -1.0 / 3.0, 1e-300, 123456789.123456789, 5e-324}) {
    auto m = parse_message(sample_fields("s", "k", std::vector<double>{v}, v), MessageShape{1, Task::kRegression, 0});
    ASSERT_TRUE(m.is_ok());
    EXPECT_EQ(m->x[0], v);
    EXPECT_EQ(*m->y, v);
  }
}

TEST(ServeMessage, RoutingIsStableFnv1a) {
  EXPECT_EQ(key_hash(""), 0xcbf29ce484222325ull);  // FNV-1a offset basis
  EXPECT_EQ(key_hash("a"), 0xaf63dc4c8601ec8cull);  // published FNV-1a test vector
  for (std::uint32_t p : {1u, 3u, 8u}) EXPECT_LT(partition_of("sensor-17", p), p);
}

}  // namespace
}  // namespace irithyll::serve
