// WorkerPool: every part runs exactly once per job, on a fixed split, across
// many back-to-back jobs, and the pool can be destroyed while idle.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "core/worker_pool.hpp"

namespace irithyll::detail {
namespace {

TEST(WorkerPool, PartRangeCoversEveryItemOnceInOrder) {
  for (std::size_t n : {0u, 1u, 5u, 10u, 30u}) {
    for (std::size_t parts : {1u, 2u, 3u, 4u, 7u, 16u}) {
      std::size_t next = 0;
      for (std::size_t p = 0; p < parts; ++p) {
        const auto [first, last] = part_range(n, parts, p);
        EXPECT_EQ(first, next) << n << " " << parts << " " << p;
        EXPECT_LE(last - first, n / parts + 1);
        EXPECT_GE(last - first, n / parts);
        next = last;
      }
      EXPECT_EQ(next, n);
    }
  }
}

TEST(WorkerPool, EveryPartRunsOncePerJobOverManyJobs) {
  for (std::size_t parts : {1u, 2u, 3u, 5u}) {
    WorkerPool pool(parts);
    ASSERT_EQ(pool.n_parts(), parts);
    std::vector<std::uint64_t> runs(parts, 0);  // each part writes its own slot
    std::vector<std::thread::id> who(parts);
    std::uint64_t total = 0;
    for (int job = 0; job < 3000; ++job) {
      auto part = [&](std::size_t p) {
        ++runs[p];
        if (job == 0) who[p] = std::this_thread::get_id();
        EXPECT_EQ(who[p], std::this_thread::get_id()) << "part " << p << " moved thread";
      };
      pool.run(part);
      // run() returned: every part's write is visible here.
      for (std::size_t p = 0; p < parts; ++p) ASSERT_EQ(runs[p], static_cast<std::uint64_t>(job) + 1) << p;
      ++total;
    }
    EXPECT_EQ(who[0], std::this_thread::get_id()) << "part 0 runs on the caller";
    for (std::size_t p = 1; p < parts; ++p) EXPECT_NE(who[p], std::this_thread::get_id());
    EXPECT_EQ(total, 3000u);
  }
}

TEST(WorkerPool, JobsAfterTheWorkersWentToSleepStillRun) {
  WorkerPool pool(3);
  std::atomic<int> count{0};
  auto part = [&](std::size_t) { count.fetch_add(1); };
  for (int job = 0; job < 3; ++job) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the spin, onto the futex
    pool.run(part);
    EXPECT_EQ(count.load(), 3 * (job + 1));
  }
}

TEST(WorkerPool, DestroyedWhileIdleJoinsCleanly) {
  for (int i = 0; i < 50; ++i) {
    WorkerPool never_used(4);
    WorkerPool used(2);
    int a = 0, b = 0;
    auto part = [&](std::size_t p) { (p == 0 ? a : b) = 1; };
    used.run(part);
    EXPECT_EQ(a + b, 2);
  }
}

}  // namespace
}  // namespace irithyll::detail
