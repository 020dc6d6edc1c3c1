// MemoryLog keeps the Redis semantics the worker relies on.
#include "serve/memory_log.hpp"

#include <gtest/gtest.h>

#include "log_conformance.hpp"

namespace irithyll::serve {
namespace {

TEST(ServeMemoryLog, GroupDeliversOncePendingUntilAcked) {
  MemoryLog log;
  ASSERT_TRUE(log.create_group("s", "g").is_ok());
  for (int i = 0; i < 5; ++i) log.append("s", {{"i", std::to_string(i)}});
  auto a = log.read_group("s", "g", "c", ">", 3, 0);
  ASSERT_TRUE(a.is_ok());
  ASSERT_EQ(a->size(), 3u);
  EXPECT_EQ((*a)[0].id, "1-0");
  auto b = log.read_group("s", "g", "c", ">", 10, 0);
  ASSERT_EQ(b->size(), 2u);
  EXPECT_EQ(*log.lag("s", "g"), 0u);
  const std::vector<std::string> ids{"1-0", "2-0"};
  ASSERT_TRUE(log.ack("s", "g", ids).is_ok());
  auto pending = log.read_group("s", "g", "c", "0", 10, 0);
  ASSERT_EQ(pending->size(), 3u);
  EXPECT_EQ((*pending)[0].id, "3-0");
  auto after = log.read_group("s", "g", "c", "3-0", 10, 0);
  ASSERT_EQ(after->size(), 2u);
  EXPECT_EQ(log.read_group("s", "g", "other", "0", 10, 0)->size(), 0u);
  EXPECT_EQ(log.unacked("s", "g"), 3u);
}

TEST(ServeMemoryLog, LeasesAndFencedCommits) {
  MemoryLog log;
  EXPECT_TRUE(*log.acquire_lease("l", "a", 10000));
  EXPECT_FALSE(*log.acquire_lease("l", "b", 10000));
  EXPECT_TRUE(*log.renew_lease("l", "a", 10000));
  EXPECT_TRUE(*log.commit("l", "a", 10000, "h", {{"f", "1"}}));
  EXPECT_FALSE(*log.commit("l", "b", 10000, "h", {{"f", "2"}}));
  EXPECT_EQ(**log.hash_get("h", "f"), "1");
  log.expire_lease("l");
  EXPECT_FALSE(*log.commit("l", "a", 10000, "h", {{"f", "3"}}));
  EXPECT_FALSE(*log.renew_lease("l", "a", 10000));  // lapsed: lost, even though nobody took it
  EXPECT_TRUE(*log.acquire_lease("l", "b", 10000));
  ASSERT_TRUE(log.release_lease("l", "a").is_ok());  // not a's: no effect
  EXPECT_FALSE(*log.acquire_lease("l", "a", 10000));
  ASSERT_TRUE(log.release_lease("l", "b").is_ok());
  EXPECT_TRUE(*log.acquire_lease("l", "a", 10000));
}

TEST(ServeMemoryLog, Conformance) {
  MemoryLog groups, leases, owned;
  test::check_group_semantics(groups);
  test::check_lease_semantics(leases);
  test::check_owned_reads(owned);
  MemoryLog bytes;
  test::check_append_bytes(bytes);
  test::check_send_buffered(bytes);
  MemoryLog waits, wakes;
  test::check_wait_for_entries(waits);
  test::check_wait_wakes(wakes, wakes);
}

TEST(ServeEntryId, ParsesAndOrders) {
  EXPECT_EQ(EntryId::parse("5-3")->seq, 3u);
  EXPECT_EQ(EntryId::parse("7")->ms, 7u);
  EXPECT_FALSE(EntryId::parse("").has_value());
  EXPECT_FALSE(EntryId::parse("1-").has_value());
  EXPECT_FALSE(EntryId::parse("x-1").has_value());
  EXPECT_LT(*EntryId::parse("1-9"), *EntryId::parse("2-0"));
  EXPECT_LT(*EntryId::parse("2-1"), *EntryId::parse("2-10"));
}

}  // namespace
}  // namespace irithyll::serve
