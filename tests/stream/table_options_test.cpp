// The reader's steering options and single-pass behaviour: separators, no
// header, column selection, fixed classes, the look-ahead and its class
// rule, the id-like-target guard rail, the missing-value list and unlabelled
// rows.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "irithyll/stream/table_stream.hpp"

namespace irithyll {
namespace {

struct TableDrained {
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  Status status;
  Schema schema;
};

TableDrained drain(const std::string& text, const TableOptions& options = {}) {
  TableDrained d;
  auto r = open_table_stream_from_string(text, options, "t.csv");
  if (!r.is_ok()) {
    d.status = r.status();
    return d;
  }
  d.schema = (*r)->schema();
  std::vector<double> x(d.schema.n_features());
  double y = 0;
  while ((*r)->next(x, y)) {
    d.x.push_back(x);
    d.y.push_back(y);
  }
  d.status = (*r)->status();
  return d;
}

TEST(TableOptions, SeparatorIsGuessedOrGiven) {
  for (const char* text : {"a;b;y\n1;2,5;0.5\n", "a\tb\ty\n1\t2,5\t0.5\n", "a|b|y\n1|2,5|0.5\n"}) {
    const TableDrained d = drain(text);
    ASSERT_TRUE(d.status.is_ok()) << d.status.message();
    EXPECT_EQ(d.schema.feature_names, (std::vector<std::string>{"a", "b"})) << text;
    EXPECT_EQ(d.x[0][0], 1.0);
    EXPECT_EQ(d.x[0][1], 2.5);  // a decimal comma where the separator is not ','
    EXPECT_TRUE(d.schema.categorical_features.empty()) << text;
  }
  TableOptions o;
  o.separator = ';';
  const TableDrained d = drain("a,b;y\n1,5;2\n", o);
  ASSERT_TRUE(d.status.is_ok()) << d.status.message();
  EXPECT_EQ(d.schema.feature_names, (std::vector<std::string>{"a,b"}));
}

TEST(TableOptions, NoHeaderKeepsTheFirstRow) {
  TableOptions o;
  o.header = false;
  o.task = Task::kRegression;
  const TableDrained d = drain("1,2,0.5\n3,4,1.5\n", o);
  ASSERT_TRUE(d.status.is_ok()) << d.status.message();
  EXPECT_EQ(d.schema.feature_names, (std::vector<std::string>{"c1", "c2"}));
  EXPECT_EQ(d.schema.target_name, "c3");
  EXPECT_EQ(d.y, (std::vector<double>{0.5, 1.5}));
  o.target = "c1";
  EXPECT_EQ(drain("1,2,0.5\n3,4,1.5\n", o).y, (std::vector<double>{1, 3}));
}

TEST(TableOptions, FeaturesDropAndCategorical) {
  const std::string text = "id,zip,t,y\n7,10115,5,a\n8,20095,6,b\n9,10115,7,a\n";
  TableOptions drop;
  drop.drop = {"id"};
  drop.categorical = {"zip"};
  const TableDrained d = drain(text, drop);
  ASSERT_TRUE(d.status.is_ok()) << d.status.message();
  EXPECT_EQ(d.schema.feature_names, (std::vector<std::string>{"zip", "t"}));
  EXPECT_EQ(d.x[1], (std::vector<double>{1, 6}));
  EXPECT_EQ(d.x[2], (std::vector<double>{0, 7}));
  TableOptions pick;
  pick.features = {"t", "id"};
  const TableDrained p = drain(text, pick);
  ASSERT_TRUE(p.status.is_ok());
  EXPECT_EQ(p.x[0], (std::vector<double>{5, 7}));
  TableOptions bad;
  bad.drop = {"nope"};
  EXPECT_EQ(drain(text, bad).status.message(), "t.csv: --drop names unknown column 'nope'");
}

TEST(TableOptions, WiderMissingValueList) {
  const TableDrained d = drain("a,b,y\nnull,1,0.5\nNULL,N/A,1.5\nNaN,none,2.5\nNA,?,3.5\n-,nil,4.5\n");
  ASSERT_TRUE(d.status.is_ok()) << d.status.message();
  for (const auto& row : d.x)
    for (std::size_t c = 0; c < row.size(); ++c)
      if (!(c == 1 && row[c] == 1.0)) {
        EXPECT_TRUE(std::isnan(row[c]));
      }
  EXPECT_TRUE(is_missing_token("n/a"));
  EXPECT_FALSE(is_missing_token("nan0"));
}

TEST(TableOptions, ClassListFixesIdsAndRejectsOthers) {
  TableOptions o;
  o.classes = {"UP", "DOWN", "FLAT"};
  const TableDrained d = drain("a,y\n1,DOWN\n2,UP\n", o);
  ASSERT_TRUE(d.status.is_ok());
  EXPECT_EQ(d.schema.class_names, o.classes);
  EXPECT_EQ(d.y, (std::vector<double>{1, 0}));
  EXPECT_EQ(drain("a,y\n1,DOWN\n2,SIDE\n", o).status.message(),
            "t.csv:3:2: class 'SIDE' is not in the --classes list");
}

TEST(TableOptions, ClassFirstSeenAfterTheLookaheadIsAnErrorNamingTheRow) {
  TableOptions o;
  o.lookahead_rows = 2;
  const TableDrained d = drain("a,y\n1,x\n2,z\n3,x\n4,w\n", o);
  EXPECT_EQ(d.y, (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(d.status.message(),
            "t.csv:5:2: class 'w' first appears after the 2 rows the class set was inferred from; list every class "
            "with --classes, or look further ahead with --lookahead");
  o.classes = {"w", "x", "z"};
  EXPECT_TRUE(drain("a,y\n1,x\n2,z\n3,x\n4,w\n", o).status.is_ok());
}

TEST(TableOptions, IdLikeTargetIsRefusedNamingTheColumn) {
  std::string text = "a,stamp\n";
  for (int i = 0; i < 3000; ++i) text += std::to_string(i % 7) + ",t" + std::to_string(i) + "\n";
  const TableDrained d = drain(text);
  ASSERT_FALSE(d.status.is_ok());
  EXPECT_NE(d.status.message().find("target column 'stamp' has 3000 distinct values"), std::string::npos)
      << d.status.message();
  EXPECT_NE(d.status.message().find("--target"), std::string::npos);
  EXPECT_NE(d.status.message().find("--task regression"), std::string::npos);
  // A real-valued target forced to classification trips the same rule.
  std::string real = "a,y\n";
  for (int i = 0; i < 3000; ++i) real += "1," + std::to_string(i * 0.37) + "\n";
  TableOptions cls;
  cls.task = Task::kClassification;
  EXPECT_FALSE(drain(real, cls).status.is_ok());
  // Many classes but each seen often: allowed.
  std::string many = "a,y\n";
  for (int i = 0; i < 3000; ++i) many += "1,c" + std::to_string(i % 1200) + "\n";
  TableOptions two;
  two.max_classes = 1000;
  EXPECT_TRUE(drain(many, two).status.is_ok());
}

TEST(TableOptions, UnlabelledRowsComeBackAsNaNWhenAllowed) {
  const std::string text = "a,y\n1,u\n2,\n3,v\n4,null\n";
  EXPECT_EQ(drain(text).status.message(), "t.csv:3:2: missing target value '' in column 'y'");
  TableOptions o;
  o.allow_missing_target = true;
  const TableDrained d = drain(text, o);
  ASSERT_TRUE(d.status.is_ok()) << d.status.message();
  ASSERT_EQ(d.y.size(), 4u);
  EXPECT_EQ(d.schema.class_names, (std::vector<std::string>{"u", "v"}));
  EXPECT_TRUE(std::isnan(d.y[1]));
  EXPECT_TRUE(std::isnan(d.y[3]));
}

TEST(TableOptions, LookaheadLengthDoesNotChangeTheSamples) {
  std::string text = "a,b,y\n";
  for (int i = 0; i < 500; ++i)
    text += std::to_string(i % 13) + "," + (i % 3 ? "p" : "q") + "," + std::to_string(i % 4) + ".5\n";
  const TableDrained full = drain(text);
  for (std::uint64_t n : {1u, 7u, 499u, 500u, 501u}) {
    TableOptions o;
    o.lookahead_rows = n;
    const TableDrained d = drain(text, o);
    ASSERT_TRUE(d.status.is_ok()) << n << ": " << d.status.message();
    EXPECT_EQ(d.x, full.x) << n;
    EXPECT_EQ(d.y, full.y) << n;
  }
}

}  // namespace
}  // namespace irithyll
