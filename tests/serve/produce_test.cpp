// produce() with a key column (`irithyll produce --data F --key COL`): each
// row's key is its column's text, routed by partition_of, and the column is
// not a feature.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "serve/memory_log.hpp"
#include "serve/produce.hpp"
#include "irithyll/stream/table_stream.hpp"

namespace irithyll::serve {
namespace {

std::string write_csv(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ServeProduce, KeyColumnKeysAndRoutesEachRow) {
  // Blank lines and a quoted key with the separator inside stay in step.
  const std::string path = write_csv("keyed.csv",
                                     "a;user;b;y\n1;alice;2;0.5\n\n3;bob;4;1.5\n5;\"c;d\";6;2.5\n7;alice;8;3.5\n");
  auto keys = open_csv_keys(path, "user");
  ASSERT_TRUE(keys.is_ok()) << keys.status().to_string();
  TableOptions csv;
  csv.drop = {"user"};
  auto stream = open_table_stream(path, csv);
  ASSERT_TRUE(stream.is_ok()) << stream.status().to_string();
  ASSERT_EQ((*stream)->schema().n_features(), 2u);
  MemoryLog log;
  ProduceOptions po;
  po.partitions = 4;
  auto report = produce(log, **stream, po, std::nullopt, keys->get());
  ASSERT_TRUE(report.is_ok()) << report.status().to_string();
  EXPECT_EQ(report->samples, 4u);
  const char* expected_keys[] = {"alice", "bob", "c;d", "alice"};
  const char* expected_x[] = {"1,2", "3,4", "5,6", "7,8"};
  std::size_t found = 0;
  for (std::uint32_t p = 0; p < 4; ++p) {
    const auto entries = log.range(po.names.input(p), 100);
    ASSERT_TRUE(entries.is_ok());
    for (const auto& e : *entries) {
      const std::string id = e.fields.at(0).second;  // "s<i>"
      const std::size_t i = std::stoul(id.substr(1));
      ASSERT_LT(i, 4u);
      EXPECT_EQ(e.fields.at(1).second, expected_keys[i]) << id;
      EXPECT_EQ(partition_of(expected_keys[i], 4), p) << id;
      EXPECT_EQ(e.fields.at(2).second, expected_x[i]) << id;
      ++found;
    }
  }
  EXPECT_EQ(found, 4u);
}

TEST(ServeProduce, KeyColumnErrorsNameTheFileAndLine) {
  EXPECT_FALSE(open_csv_keys(write_csv("nokey.csv", "a,b,y\n1,2,3\n"), "user").is_ok());
  EXPECT_FALSE(open_csv_keys("-", "user").is_ok());
  auto keys = open_csv_keys(write_csv("emptykey.csv", "user,a,y\nu1,1,2\n,3,4\n"), "user");
  ASSERT_TRUE(keys.is_ok());
  EXPECT_EQ(*(*keys)->next_key(), "u1");
  const auto empty = (*keys)->next_key();
  ASSERT_FALSE(empty.is_ok());
  EXPECT_NE(empty.status().message().find("emptykey.csv:3: empty key"), std::string::npos) << empty.status().message();
  EXPECT_FALSE((*keys)->next_key().is_ok());  // past the last row
}

}  // namespace
}  // namespace irithyll::serve
