// End-to-end on a real redis-server (loopback, free port, no persistence):
// the Log conformance harness, dead letters, `irithyll produce | serve` with
// late labels, anomaly scoring, and a clean SIGTERM exit.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "irithyll/anomaly/registry.hpp"
#include "serve/kafka_log.hpp"
#include "serve/worker.hpp"
#include "log_conformance.hpp"
#include "redis_harness.hpp"
#include "serve_test_util.hpp"

namespace irithyll::serve {
namespace {

using namespace std::chrono_literals;

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// `irithyll produce` of n Friedman samples over `keys` keys into the server's
// partitions; "" once it exited 0, else its log.
std::string produce_friedman(test::RedisServer& server, std::uint32_t partitions, std::uint64_t n,
                             std::uint64_t keys, std::uint64_t seed, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {test::kCli, "produce", "--redis", server.address(), "--partitions",
                                   std::to_string(partitions), "--stream", "friedman", "--max-samples",
                                   std::to_string(n), "--keys", std::to_string(keys), "--seed", std::to_string(seed)};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const std::string log = server.dir() + "/produce.log";
  return test::wait_exit(test::spawn(argv, log), std::chrono::seconds(60)) == 0 ? "" : read_text(log);
}

#define START_REDIS(server)                                          \
  IRITHYLL_REQUIRE_REDIS();                                          \
  std::string why;                                                   \
  auto server = test::RedisServer::start(why);                       \
  ASSERT_NE(server, nullptr) << why;                                 \
  auto log = server->connect();                                      \
  ASSERT_NE(log, nullptr)

TEST(ServeRedis, LogConformance) {
  START_REDIS(server);
  test::check_group_semantics(*log);
  test::check_lease_semantics(*log);
  test::check_owned_reads(*log);
  test::check_wait_for_entries(*log);
  test::check_append_bytes(*log);
  test::check_send_buffered(*log);
}

// A wait blocked on the server returns as soon as another connection appends.
TEST(ServeRedis, WaitWakesOnAppend) {
  START_REDIS(server);
  auto other = server->connect();
  ASSERT_NE(other, nullptr);
  test::check_wait_wakes(*log, *other);
}

// The lag (entries the group has not been delivered) survives a restart of
// Redis from its append-only file, which loses the group's read counter.
TEST(ServeRedis, LagIsRightAfterARestart) {
  IRITHYLL_REQUIRE_REDIS();
  std::string why;
  auto server = test::RedisServer::start(why, /*persistent=*/true);
  ASSERT_NE(server, nullptr) << why;
  auto log = server->connect();
  ASSERT_NE(log, nullptr);
  const std::string s = "{t:0}:in";
  for (int i = 0; i < 25; ++i) log->append(s, {{"i", std::to_string(i)}});
  ASSERT_TRUE(log->flush().is_ok());
  ASSERT_TRUE(log->create_group(s, "g").is_ok());
  ASSERT_EQ(log->read_group(s, "g", "c", ">", 10, 0)->size(), 10u);
  ASSERT_EQ(*log->lag(s, "g"), 15u);
  log.reset();
  ASSERT_TRUE(server->restart()) << "redis-server did not come back";
  log = server->connect();
  ASSERT_NE(log, nullptr);
  auto lag = log->lag(s, "g");
  ASSERT_TRUE(lag.is_ok()) << lag.status().to_string();
  EXPECT_EQ(*lag, 15u);
  ASSERT_EQ(log->read_group(s, "g", "c", ">", 4, 0)->size(), 4u);
  for (int i = 0; i < 3; ++i) log->append(s, {{"i", "new"}});
  ASSERT_TRUE(log->flush().is_ok());
  EXPECT_EQ(*log->lag(s, "g"), 14u);
  ASSERT_EQ(log->read_group(s, "g", "c", ">", 100, 0)->size(), 14u);
  EXPECT_EQ(*log->lag(s, "g"), 0u);
}

TEST(ServeRedis, UnreachableServerIsAnIOError) {
  IRITHYLL_REQUIRE_REDIS();
  auto log = connect_redis("127.0.0.1:" + std::to_string(test::free_port()), 500);
  ASSERT_FALSE(log.is_ok());
  EXPECT_EQ(log.status().code(), StatusCode::kIOError);
  EXPECT_FALSE(connect_redis("127.0.0.1:notaport").is_ok());
}

TEST(ServeRedis, DeadLettersCarryTheReasonAndTheWorkerGoesOn) {
  START_REDIS(server);
  WorkerConfig c;
  c.partitions = 1;
  c.settings = test::small_sgbt();
  c.context = LearnerContext{Task::kRegression, 0, 2, 1};
  c.token = "w";
  const std::string in = c.names.input(0);
  log->append(in, {{"id", "s0"}, {"key", "a"}, {"x", "1,2"}, {"y", "1"}});
  log->append(in, {{"id", "s1"}, {"key", "a"}, {"x", "1;2"}});
  log->append(in, {{"id", "s2"}, {"key", "a"}, {"f_u", "1"}});
  log->append(in, {{"key", "a"}, {"label_for", "s9"}, {"y", "oops"}});
  log->append(in, {{"junk", std::string("\xff\x00\x01", 3)}});
  log->append(in, {{"id", "s3"}, {"key", "a"}, {"f_u", "3"}, {"f_v", "4"}, {"y", "2"}});
  ASSERT_TRUE(log->flush().is_ok());
  auto w = Worker::make(*log, c);
  ASSERT_TRUE(w.is_ok());
  for (int i = 0; i < 50; ++i) ASSERT_TRUE((*w)->poll().is_ok());
  ASSERT_TRUE((*w)->shutdown().is_ok());
  const auto dead = *log->range(c.names.dead(), 100);
  ASSERT_EQ(dead.size(), 4u);
  const char* reasons[] = {"x[0] is not a number: '1;2'", "x has 1 values, the model takes 2", "y is not a number",
                           "missing field 'key'"};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NE(dead[i].fields[2].second.find(reasons[i]), std::string::npos);
  EXPECT_EQ(dead[3].fields[3].second, std::string("\xff\x00\x01", 3));  // original fields kept, binary-safe
  EXPECT_EQ(test::checkpointed(*log, c.names, 1).at("a").learned, 2u);
  EXPECT_EQ(*log->lag(in, c.names.group()), 0u);
}

TEST(ServeRedis, ProduceThenServeWithLateLabels) {
  START_REDIS(server);
  const std::uint64_t n = 6000, keys = 40;
  ASSERT_EQ(produce_friedman(*server, 4, n, keys, 7, {"--label-delay", "100"}), "");
  auto args = test::serve_args(server->address(), 4);
  args.insert(args.end(), {"--idle-exit-ms", "1500"});
  test::Children children;
  const std::string out = server->dir() + "/serve.log";
  const pid_t w = children.add(test::spawn(args, out));
  const int code = test::wait_exit(w, 120s);
  children.forget(w);
  ASSERT_EQ(code, 0) << read_text(out);
  const std::string text = read_text(out);
  EXPECT_NE(text.find("\"samples_per_s\":"), std::string::npos) << text;
  EXPECT_NE(text.find("\"lag\":{"), std::string::npos) << text;

  StreamNames names;
  EXPECT_EQ(test::predicted_ids(*log, names, 4).size(), n);
  const auto samples = test::generate("friedman", 7, n, keys);
  const auto ref = test::learn_reference(samples, "sgbt", test::small_sgbt(), LearnerContext{Task::kRegression, 0, 10, 7});
  test::expect_matches(test::checkpointed(*log, names, 4), ref);
}

// `serve --model "T|LEARNER"`: the command line's pipeline, with a learner
// option given as a flag, keeps every key's pipeline exactly as one process
// would have built and taught it.
TEST(ServeRedis, PipelineModelFromTheCommandLine) {
  START_REDIS(server);
  const std::uint64_t n = 3000, keys = 20;
  ASSERT_EQ(produce_friedman(*server, 2, n, keys, 9), "");
  auto args = test::serve_args(server->address(), 2);
  const auto at = std::find(args.begin(), args.end(), "--model");
  ASSERT_NE(at, args.end());
  args.erase(at, at + 6);  // --model sgbt --n-steps 3 --grace-period 50
  args.insert(args.end(), {"--model", "standard_scaler|linear_regression", "--l2", "0.001", "--idle-exit-ms", "1500"});
  test::Children children;
  const std::string out = server->dir() + "/serve.log";
  const pid_t w = children.add(test::spawn(args, out));
  const int code = test::wait_exit(w, 120s);
  children.forget(w);
  ASSERT_EQ(code, 0) << read_text(out);

  StreamNames names;
  EXPECT_EQ(test::predicted_ids(*log, names, 2).size(), n);
  const auto samples = test::generate("friedman", 9, n, keys);
  ModelSettings l2;
  l2.set("l2", "0.001");
  const auto ref = test::learn_reference(samples, "standard_scaler|linear_regression", l2,
                                         LearnerContext{Task::kRegression, 0, 10, 7});
  test::expect_matches(test::checkpointed(*log, names, 2), ref);
}

TEST(ServeRedis, SigtermCheckpointsAndReleasesLeases) {
  START_REDIS(server);
  const std::uint64_t n = 3000, keys = 10;
  test::Children children;
  auto args = test::serve_args(server->address(), 2);
  args.insert(args.end(), {"--checkpoint-ms", "600000", "--checkpoint-entries", "1000000"});  // only the final one
  const std::string out = server->dir() + "/serve.log";
  const pid_t w = children.add(test::spawn(args, out));
  // Samples arrive while it runs.
  const auto samples = test::generate("friedman", 7, n, keys);
  StreamNames names;
  for (std::size_t i = 0; i < samples.size(); ++i)
    log->append(names.input(partition_of(samples[i].key, 2)),
                sample_fields("s" + std::to_string(i), samples[i].key, samples[i].x, samples[i].y));
  ASSERT_TRUE(log->flush().is_ok());
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (test::predicted_ids(*log, names, 2).size() < n && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(20ms);
  ASSERT_EQ(test::predicted_ids(*log, names, 2).size(), n) << read_text(out);
  EXPECT_TRUE(test::checkpointed(*log, names, 2).empty());  // nothing checkpointed before the signal
  ASSERT_GT(w, 0);
  test::signal_child(w, SIGTERM);
  const int code = test::wait_exit(w, 30s);
  children.forget(w);
  ASSERT_EQ(code, 0) << read_text(out);
  test::expect_matches(test::checkpointed(*log, names, 2),
                       test::learn_reference(samples, "sgbt", test::small_sgbt(), LearnerContext{Task::kRegression, 0, 10, 7}));
  for (std::uint32_t p = 0; p < 2; ++p) {
    EXPECT_TRUE(*log->acquire_lease(names.lease(p), "next", 1000)) << "lease " << p << " still held";
    EXPECT_TRUE(log->read_group(names.input(p), names.group(), names.consumer(p), "0", 10, 0)->empty())
        << "entries left unacknowledged";
  }
}

// `serve --task anomaly`: every produced sample gets the score its key's
// Half-Space Trees gave it before learning it, as one process would.
TEST(ServeRedis, AnomalyScoresEverySampleLikeOneProcess) {
  START_REDIS(server);
  const std::uint64_t n = 3000, keys = 12;
  ASSERT_EQ(produce_friedman(*server, 2, n, keys, 5), "");
  test::Children children;
  const std::string out = server->dir() + "/serve.log";
  const pid_t w = children.add(test::spawn({test::kCli, "serve", "--redis", server->address(), "--partitions", "2",
                                            "--features", "10", "--task", "anomaly", "--model", "half_space_trees",
                                            "--n-trees", "5", "--height", "6", "--window-size", "50", "--seed", "7",
                                            "--metrics-ms", "0", "--idle-exit-ms", "1500"},
                                           out));
  const int code = test::wait_exit(w, 120s);
  children.forget(w);
  ASSERT_EQ(code, 0) << read_text(out);
  StreamNames names;
  std::map<std::string, std::string> got;
  for (std::uint32_t p = 0; p < 2; ++p) {
    const auto entries = log->range(names.output(p), 100000);
    ASSERT_TRUE(entries.is_ok());
    for (const auto& e : *entries) got[e.fields.at(0).second] = e.fields.at(2).second;
  }
  ASSERT_EQ(got.size(), n);
  const auto samples = test::generate("friedman", 5, n, keys);
  const ModelSettings settings{{"n-trees", "5"}, {"height", "6"}, {"window-size", "50"}};
  std::map<std::string, std::unique_ptr<AnomalyDetector>> detectors;
  std::size_t differ = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    auto& d = detectors[samples[i].key];
    if (!d) d = std::move(make_anomaly_detector("half_space_trees", settings, AnomalyContext{10, 7})).value();
    differ += got["s" + std::to_string(i)] != format_number(d->score_one(samples[i].x));
    d->learn_one(samples[i].x);
  }
  EXPECT_EQ(differ, 0u) << "published scores that differ from the single-process reference";
}

// An idle worker sleeps on the log (XREAD BLOCK after each partition's
// newest id) instead of reading every partition every few milliseconds:
// over 3 s idle on 4 partitions, the 2 ms polling loop sent 5,376 fenced
// reads (about 2,700 in this test's 1.5 s), waiting on the log 76.
TEST(ServeRedis, IdleWorkerWaitsOnTheLog) {
  START_REDIS(server);
  test::Children children;
  const std::string out = server->dir() + "/serve.log";
  const pid_t w = children.add(test::spawn({test::kCli, "serve", "--redis", server->address(), "--partitions", "4",
                                            "--features", "10", "--model", "sgbt", "--metrics-ms", "0",
                                            "--idle-exit-ms", "1500"},
                                           out));
  ASSERT_EQ(test::wait_exit(w, 60s), 0) << read_text(out);
  children.forget(w);
  const std::uint64_t reads = server->command_calls("xreadgroup"), waits = server->command_calls("xread");
  EXPECT_GT(reads, 0u);
  EXPECT_GT(waits, 0u);
  EXPECT_LT(reads, 200u) << "an idle worker is polling its partitions";
}

// `produce --data F --key COL`: the column's text is the key (routed by
// partition_of) and not a feature.
TEST(ServeRedis, ProduceKeyColumn) {
  START_REDIS(server);
  const std::string csv = server->dir() + "/keyed.csv";
  std::ofstream(csv) << "a,user,b,y\n1,alice,2,0.5\n3,bob,4,1.5\n5,carol,6,2.5\n";
  const pid_t p = test::spawn({test::kCli, "produce", "--redis", server->address(), "--partitions", "2", "--data", csv,
                               "--key", "user"},
                              server->dir() + "/produce.log");
  ASSERT_EQ(test::wait_exit(p, 60s), 0) << read_text(server->dir() + "/produce.log");
  StreamNames names;
  std::map<std::string, std::string> x_of;
  for (std::uint32_t part = 0; part < 2; ++part) {
    const auto entries = log->range(names.input(part), 10);
    ASSERT_TRUE(entries.is_ok());
    for (const auto& e : *entries) {
      EXPECT_EQ(partition_of(e.fields.at(1).second, 2), part) << e.fields.at(1).second;
      x_of[e.fields.at(1).second] = e.fields.at(2).second;
    }
  }
  EXPECT_EQ(x_of, (std::map<std::string, std::string>{{"alice", "1,2"}, {"bob", "3,4"}, {"carol", "5,6"}}));
}

// `serve --log kafka` without a reachable broker exits 1 with the reason,
// within its timeout (no broker can be installed here; the log's logic is
// tested through a fake client in kafka_test.cpp).
TEST(ServeCli, KafkaWithoutABrokerFailsCleanly) {
  START_REDIS(server);
  const std::string out = server->dir() + "/kafka.log";
  auto args = test::serve_args(server->address(), 2);
  args.insert(args.end(), {"--log", "kafka", "--brokers", "127.0.0.1:" + std::to_string(test::free_port()),
                           "--kafka-timeout-ms", "1000"});
  const pid_t w = test::spawn(args, out);
  ASSERT_GT(w, 0);
  EXPECT_EQ(test::wait_exit(w, 60s), 1) << read_text(out);
  const std::string text = read_text(out);
  EXPECT_NE(text.find(kafka_available() ? "no broker at" : "no Kafka support"), std::string::npos) << text;
  auto no_brokers = test::serve_args(server->address(), 2);
  no_brokers.insert(no_brokers.end(), {"--log", "kafka"});
  const pid_t v = test::spawn(no_brokers, out);
  EXPECT_NE(test::wait_exit(v, 30s), 0);
  EXPECT_NE(read_text(out).find("--brokers"), std::string::npos) << read_text(out);
}

// A pipeline with a step no catalogue knows is refused by name before the
// worker connects: the log address here has nothing listening, so a check
// made after connecting would report the connection instead.
TEST(ServeCli, BadPipelineStepIsRefusedBeforeConnecting) {
  const std::string out = ::testing::TempDir() + "/serve_bad_pipeline.txt";
  std::remove(out.c_str());
  const pid_t p = test::spawn({test::kCli, "serve", "--redis", "127.0.0.1:" + std::to_string(test::free_port()),
                               "--features", "3", "--model", "no_such_step|linear_regression"},
                              out);
  ASSERT_GT(p, 0);
  EXPECT_EQ(test::wait_exit(p, 30s), 2) << read_text(out);  // a usage error
  const std::string text = read_text(out);
  EXPECT_NE(text.find("unknown transformer 'no_such_step'"), std::string::npos) << text;
}

TEST(ServeCli, HelpDocumentsEveryOption) {
  const std::string out = ::testing::TempDir() + "/serve_help.txt";
  std::remove(out.c_str());
  const pid_t p = test::spawn({test::kCli, "serve", "--help"}, out);
  ASSERT_EQ(test::wait_exit(p, 30s), 0);
  const std::string text = read_text(out);
  for (const char* o : {"--redis", "--prefix", "--partitions", "--max-partitions", "--features", "--task", "--classes",
                        "--model", "--seed", "--max-keys", "--batch", "--checkpoint-entries", "--checkpoint-ms", "--key-checkpoint-ms",
                        "--lease-ms", "--label-window", "--metrics-ms", "--idle-exit-ms", "--token", "--n-steps", "--log",
                        "--brokers", "--kafka-timeout-ms"})
    EXPECT_NE(text.find(o), std::string::npos) << o;
}

}  // namespace
}  // namespace irithyll::serve
