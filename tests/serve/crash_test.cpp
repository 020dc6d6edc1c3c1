// The exactly-once crash test: 3 `irithyll serve` processes on 8
// partitions learn 200,000 samples over 1,000 keys while a producer writes
// them; one worker is killed with SIGKILL a quarter of the way through and
// another at 60%, and both are restarted at once. At the end every key's
// checkpointed model equals, byte for byte, one process that learned that
// key's samples in order, every key's learned count equals its produced
// count, and every sample has a prediction (repeats carrying the same value).
//
// Under the sanitizers it runs at a tenth of the size (the release pass runs
// the full one). Every wait is bounded; the server and workers are killed on
// any exit path.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "redis_harness.hpp"
#include "serve_test_util.hpp"

namespace irithyll::serve {
namespace {

using namespace std::chrono_literals;

#if defined(IRITHYLL_SANITIZED)
constexpr std::uint64_t kSamples = 20000, kKeys = 200;
#else
constexpr std::uint64_t kSamples = 200000, kKeys = 1000;
#endif
constexpr std::uint32_t kCrashPartitions = 8;
constexpr std::uint64_t kSeed = 7;

std::string tail_of(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string s = ss.str();
  return s.size() > 2000 ? s.substr(s.size() - 2000) : s;
}

std::uint64_t predictions(Log& log, const StreamNames& names) {
  std::uint64_t n = 0;
  for (std::uint32_t p = 0; p < kCrashPartitions; ++p) n += log.length(names.output(p)).is_ok() ? *log.length(names.output(p)) : 0;
  return n;
}

// Everything delivered and acknowledged, i.e. covered by a checkpoint.
bool all_checkpointed(Log& log, const StreamNames& names) {
  for (std::uint32_t p = 0; p < kCrashPartitions; ++p) {
    auto lag = log.lag(names.input(p), names.group());
    auto pending = log.read_group(names.input(p), names.group(), names.consumer(p), "0", 1, 0);
    if (!lag || *lag != 0 || !pending || !pending->empty()) return false;
  }
  return true;
}

TEST(ServeCrash, KilledWorkersLoseAndRepeatNothing) {
  IRITHYLL_REQUIRE_REDIS();
  std::string why;
  auto server = test::RedisServer::start(why);
  ASSERT_NE(server, nullptr) << why;
  auto log = server->connect();
  ASSERT_NE(log, nullptr);
  const StreamNames names;
  // Groups exist before the producer starts, so "from the first entry" holds.
  for (std::uint32_t p = 0; p < kCrashPartitions; ++p) ASSERT_TRUE(log->create_group(names.input(p), names.group()).is_ok());

  test::Children children;
  auto args = test::serve_args(server->address(), kCrashPartitions);
  args.insert(args.end(), {"--max-partitions", "3", "--metrics-ms", "1000"});
  std::vector<pid_t> workers;
  auto start_worker = [&](int i) {
    return children.add(test::spawn(args, server->dir() + "/worker" + std::to_string(i) + ".log"));
  };
  for (int i = 0; i < 3; ++i) {
    workers.push_back(start_worker(i));
    ASSERT_GT(workers.back(), 0) << "fork failed";
  }

  Status produced;
  std::thread producer([&] {
    auto sink = server->connect();
    auto stream = make_generator("friedman", kSeed, kSamples);
    if (!sink || !stream) {
      produced = Status::io_error("producer could not start");
      return;
    }
    ProduceOptions options;
    options.partitions = kCrashPartitions;
    options.keys = kKeys;
    options.seed = kSeed;
    auto r = produce(*sink, **stream, options, kSamples);
    produced = r ? Status::ok() : r.status();
  });

  const auto deadline = std::chrono::steady_clock::now() + 150s;
  auto wait_for = [&](auto done) {
    while (!done() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(10ms);
    return done();
  };
  const int victims[2] = {0, 1};
  const std::uint64_t at[2] = {kSamples / 4, kSamples * 6 / 10};
  bool killed_all = true;
  for (int k = 0; k < 2; ++k) {
    if (!wait_for([&] { return predictions(*log, names) >= at[k]; })) {
      killed_all = false;
      break;
    }
    const int v = victims[k];
    test::kill_hard(workers[v]);
    children.forget(workers[v]);
    workers[v] = start_worker(10 + k);
  }
  producer.join();
  ASSERT_TRUE(produced.is_ok()) << produced.to_string();
  ASSERT_TRUE(killed_all) << "workers stalled before the kills: " << tail_of(server->dir() + "/worker2.log");
  ASSERT_TRUE(wait_for([&] { return all_checkpointed(*log, names); }))
      << "not all entries checkpointed in time: " << tail_of(server->dir() + "/worker2.log");
  for (pid_t w : workers) test::signal_child(w, SIGTERM);
  for (pid_t w : workers) {
    EXPECT_EQ(test::wait_exit(w, 30s), 0);
    children.forget(w);
  }

  EXPECT_EQ(test::predicted_ids(*log, names, kCrashPartitions).size(), kSamples);
  const auto samples = test::generate("friedman", kSeed, kSamples, kKeys);
  const auto ref = test::learn_reference(samples, "sgbt", test::small_sgbt(), LearnerContext{Task::kRegression, 0, 10, 7});
  test::expect_matches(test::checkpointed(*log, names, kCrashPartitions), ref);
  const auto dead = log->length(names.dead());
  ASSERT_TRUE(dead.is_ok());
  EXPECT_EQ(*dead, 0u);
  if (::testing::Test::HasFailure())
    for (const char* w : {"worker0", "worker1", "worker2", "worker10", "worker11"})
      ADD_FAILURE() << w << ": " << tail_of(server->dir() + "/" + w + ".log");
}

}  // namespace
}  // namespace irithyll::serve
