// One harness for every Log implementation (style.md #13): the consumer-group,
// lease and commit semantics the worker's exactly-once argument rests on.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "serve/log.hpp"

namespace irithyll::serve::test {

inline void check_group_semantics(Log& log) {
  ASSERT_TRUE(log.create_group("s", "g").is_ok());
  ASSERT_TRUE(log.create_group("s", "g").is_ok());  // existing: fine
  for (int i = 0; i < 5; ++i) log.append("s", {{"i", std::to_string(i)}});
  ASSERT_TRUE(log.flush().is_ok());
  auto a = log.read_group("s", "g", "c", ">", 3, 0);
  ASSERT_TRUE(a.is_ok()) << a.status().to_string();
  ASSERT_EQ(a->size(), 3u);
  EXPECT_EQ((*a)[0].fields, (Fields{{"i", "0"}}));
  auto b = log.read_group("s", "g", "c", ">", 10, 0);
  ASSERT_EQ(b->size(), 2u);
  EXPECT_EQ(*log.lag("s", "g"), 0u);
  EXPECT_TRUE(log.read_group("s", "g", "c", ">", 10, 0)->empty());
  const std::vector<std::string> ids{(*a)[0].id, (*a)[1].id};
  ASSERT_TRUE(log.ack("s", "g", ids).is_ok());
  auto pending = log.read_group("s", "g", "c", "0", 10, 0);
  ASSERT_EQ(pending->size(), 3u);
  EXPECT_EQ((*pending)[0].id, (*a)[2].id);
  auto after = log.read_group("s", "g", "c", (*a)[2].id, 10, 0);
  ASSERT_EQ(after->size(), 2u);
  EXPECT_EQ((*after)[0].id, (*b)[0].id);
  EXPECT_TRUE(log.read_group("s", "g", "other", "0", 10, 0)->empty());
  auto all = log.range("s", 100);
  ASSERT_EQ(all->size(), 5u);
  for (std::size_t i = 1; i < all->size(); ++i)
    EXPECT_LT(*EntryId::parse((*all)[i - 1].id), *EntryId::parse((*all)[i].id));
}

// Both appends carry any bytes exactly: NUL, CR LF (the protocol's own
// framing characters), empty names and values, repeated names, a value
// longer than any read buffer, in order; a borrowed append equals the
// same fields appended as strings.
inline void check_append_bytes(Log& log) {
  const std::string binary("a\0b\r\n$3\r\n*1\xff", 13);
  const std::string long_value(100000, 'v');
  const Fields fields{{"n", binary}, {"", ""}, {"n", "again"}, {"big", long_value}, {binary, "1"}};
  std::vector<FieldView> views;
  for (const auto& [k, v] : fields) views.emplace_back(k, v);
  log.append("b", fields);
  log.append_borrowed("b", views);
  ASSERT_TRUE(log.flush().is_ok());
  auto all = log.range("b", 10);
  ASSERT_TRUE(all.is_ok()) << all.status().to_string();
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].fields, fields);
  EXPECT_EQ((*all)[1].fields, fields);
}

// Appends sent early keep every reply in order: another command after
// send_buffered reads its own reply (not an append's), and flush still
// reports the appends.
inline void check_send_buffered(Log& log) {
  for (int i = 0; i < 3; ++i) log.append("e", {{"i", std::to_string(i)}});
  log.send_buffered();
  auto n = log.length("e");
  ASSERT_TRUE(n.is_ok()) << n.status().to_string();
  EXPECT_EQ(*n, 3u);
  log.append("e", {{"i", "3"}});
  log.send_buffered();
  log.send_buffered();  // nothing new: harmless
  log.append("e", {{"i", "4"}});
  ASSERT_TRUE(log.flush().is_ok());
  auto all = log.range("e", 10);
  ASSERT_TRUE(all.is_ok()) << all.status().to_string();
  ASSERT_EQ(all->size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ((*all)[static_cast<std::size_t>(i)].fields, (Fields{{"i", std::to_string(i)}}));
}

inline void check_lease_semantics(Log& log) {
  EXPECT_TRUE(*log.acquire_lease("l", "a", 60000));
  EXPECT_FALSE(*log.acquire_lease("l", "b", 60000));
  EXPECT_FALSE(*log.acquire_lease("l", "a", 60000));  // taking is not renewing
  EXPECT_TRUE(*log.renew_lease("l", "a", 60000));
  EXPECT_FALSE(*log.renew_lease("l", "b", 60000));
  EXPECT_FALSE(*log.renew_lease("free", "a", 60000));  // a lapsed or never-held lease is not renewed
  std::string blob("\0\1\2binary", 9);
  EXPECT_TRUE(*log.commit("l", "a", 60000, "h", {{"f", blob}, {"g", "x"}}));
  EXPECT_FALSE(*log.commit("l", "b", 60000, "h", {{"f", "2"}}));
  EXPECT_EQ(**log.hash_get("h", "f"), blob);
  EXPECT_FALSE(log.hash_get("h", "missing")->has_value());
  EXPECT_EQ(log.hash_get_all("h")->size(), 2u);
  ASSERT_TRUE(log.release_lease("l", "b").is_ok());  // not b's: no effect
  EXPECT_FALSE(*log.acquire_lease("l", "b", 60000));
  ASSERT_TRUE(log.release_lease("l", "a").is_ok());
  EXPECT_FALSE(*log.commit("l", "a", 60000, "h", {{"f", "3"}}));  // released: fenced out
  EXPECT_TRUE(*log.acquire_lease("l", "b", 60000));
  EXPECT_FALSE(*log.commit("l", "a", 60000, "h", {{"f", "4"}}));
  EXPECT_EQ(**log.hash_get("h", "f"), blob);
}

// Reads fenced by a lease: only the holder gets entries.
inline void check_owned_reads(Log& log) {
  ASSERT_TRUE(log.create_group("o", "g").is_ok());
  log.append("o", {{"i", "0"}});
  log.append("o", {{"i", "1"}});
  ASSERT_TRUE(log.flush().is_ok());
  EXPECT_FALSE(log.read_owned("ol", "a", "o", "g", "c", ">", 10)->has_value());  // nobody holds it
  ASSERT_TRUE(*log.acquire_lease("ol", "b", 60000));
  EXPECT_FALSE(log.read_owned("ol", "a", "o", "g", "c", ">", 10)->has_value());  // someone else does
  EXPECT_EQ(*log.lag("o", "g"), 2u);                                             // and nothing was delivered
  auto got = log.read_owned("ol", "b", "o", "g", "c", ">", 1);
  ASSERT_TRUE(got.is_ok()) << got.status().to_string();
  ASSERT_TRUE(got->has_value());
  ASSERT_EQ((*got)->size(), 1u);
  EXPECT_EQ((**got)[0].fields, (Fields{{"i", "0"}}));
  auto pending = log.read_owned("ol", "b", "o", "g", "c", "0", 10);
  ASSERT_EQ((*pending)->size(), 1u);
  auto rest = log.read_owned("ol", "b", "o", "g", "c", ">", 10);
  ASSERT_EQ((*rest)->size(), 1u);
  auto none = log.read_owned("ol", "b", "o", "g", "c", ">", 10);
  ASSERT_TRUE(none->has_value());
  EXPECT_TRUE((*none)->empty());
  ASSERT_TRUE(*log.commit("ol", "b", 60000, "oh", {{"f", "v"}}));
  EXPECT_FALSE(log.hash_get_owned("ol", "a", "oh", "f")->held);
  auto mine = log.hash_get_owned("ol", "b", "oh", "f");
  ASSERT_TRUE(mine.is_ok()) << mine.status().to_string();
  EXPECT_TRUE(mine->held);
  EXPECT_EQ(mine->value, std::optional<std::string>("v"));
  auto absent = log.hash_get_owned("ol", "b", "oh", "nope");
  EXPECT_TRUE(absent->held);
  EXPECT_FALSE(absent->value.has_value());
}

// wait_for_entries on a log that waits on its streams (not the polling
// default): false while every entry was delivered, true while one was not.
inline void check_wait_for_entries(Log& log) {
  ASSERT_TRUE(log.create_group("w", "g").is_ok());
  ASSERT_TRUE(*log.acquire_lease("wl", "a", 60000));
  const std::vector<std::string> streams{"w"};
  auto none = log.read_owned("wl", "a", "w", "g", "c", ">", 10);
  ASSERT_TRUE(none.is_ok() && none->has_value());
  EXPECT_TRUE((*none)->empty());
  auto idle = log.wait_for_entries(streams, "g", 20);
  ASSERT_TRUE(idle.is_ok()) << idle.status().to_string();
  EXPECT_FALSE(*idle);
  log.append("w", {{"i", "0"}});
  log.append("w", {{"i", "1"}});
  ASSERT_TRUE(log.flush().is_ok());
  EXPECT_TRUE(*log.wait_for_entries(streams, "g", 5000));  // at once: both after what was delivered
  EXPECT_EQ((*log.read_owned("wl", "a", "w", "g", "c", ">", 1))->size(), 1u);
  EXPECT_TRUE(*log.wait_for_entries(streams, "g", 5000));  // one is still undelivered
  EXPECT_EQ((*log.read_owned("wl", "a", "w", "g", "c", ">", 10))->size(), 1u);
  EXPECT_FALSE(*log.wait_for_entries(streams, "g", 20));
}

// A wait on `log` wakes when `writer` (another connection to the same log,
// or the same object) appends from another thread. A wait that missed the
// append would run out its 2 s and answer false.
inline void check_wait_wakes(Log& log, Log& writer) {
  ASSERT_TRUE(log.create_group("ww", "g").is_ok());
  ASSERT_TRUE(*log.acquire_lease("wwl", "a", 60000));
  ASSERT_TRUE((*log.read_owned("wwl", "a", "ww", "g", "c", ">", 10))->empty());
  const std::vector<std::string> streams{"ww"};
  std::thread appender([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    writer.append("ww", {{"i", "0"}});
    EXPECT_TRUE(writer.flush().is_ok());
  });
  auto woke = log.wait_for_entries(streams, "g", 2000);
  appender.join();
  ASSERT_TRUE(woke.is_ok()) << woke.status().to_string();
  EXPECT_TRUE(*woke);
}

}  // namespace irithyll::serve::test
