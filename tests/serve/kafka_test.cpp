// The Kafka log without a broker (none can be installed here): its mapping
// (topics, ids, records, client configuration), and the worker running
// end-to-end over KafkaLog with a fake client in place of librdkafka,
// including a crash and takeover, while the fake checks that no group offset
// is ever committed past the checkpoint that covers it. With librdkafka in
// the build, the real client runs the worker over librdkafka's in-process
// mock cluster, and connecting to an unreachable broker fails within its
// timeout.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <thread>

#if defined(IRITHYLL_HAVE_RDKAFKA)
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#endif

#include "serve/kafka_log.hpp"
#include "serve/memory_log.hpp"
#include "serve/kafka/kafka_client.hpp"
#include "serve/kafka/kafka_log_impl.hpp"
#include "serve/kafka/kafka_mapping.hpp"
#include "serve_test_util.hpp"

namespace irithyll::serve {
namespace {

using detail::KafkaRecord;
using detail::TopicPartition;

TEST(ServeKafka, StreamsMapToTopicPartitions) {
  StreamNames names;
  names.prefix = "fx";
  const detail::KafkaTopics topics(names, 3);
  EXPECT_EQ(*topics.find(names.input(2)), (TopicPartition{"fx.in", 2}));
  EXPECT_EQ(*topics.find(names.output(0)), (TopicPartition{"fx.out", 0}));
  EXPECT_EQ(*topics.find(names.dead()), (TopicPartition{"fx.dead", 0}));
  EXPECT_FALSE(topics.find(names.input(3)).has_value());  // beyond the partition count
  const auto bad = topics.of("nope");
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.status().message().find("'nope'"), std::string::npos);
}

TEST(ServeKafka, EntryIdsAreOffsetsPlusOne) {
  EXPECT_EQ(detail::entry_id(0), "1-0");
  EXPECT_EQ(*detail::offset_of("1-0"), 0);
  EXPECT_EQ(*detail::offset_of(detail::entry_id(123456789012)), 123456789012);
  EXPECT_LT(EntryId{}, *EntryId::parse(detail::entry_id(0)));  // "0-0" is before every record
  for (const char* bad : {"0-0", "5-1", "x", ""}) EXPECT_FALSE(detail::offset_of(bad).is_ok()) << bad;
  const std::vector<std::string> ids = {"3-0", "7-0", "5-0"};
  EXPECT_EQ(**detail::commit_offset(ids), 7);  // one past offset 6
  EXPECT_FALSE(detail::commit_offset(std::vector<std::string>{}).value().has_value());
  EXPECT_FALSE(detail::commit_offset(std::vector<std::string>{"3-0", "bad"}).is_ok());
}

TEST(ServeKafka, FieldsTravelAsHeadersInOrderAndTheKeyIsTheRecordKey) {
  const Fields fields = sample_fields("s1", "user-9", std::vector<double>{1.5, -2}, 3.0);
  const KafkaRecord r = detail::record_of(fields);
  EXPECT_EQ(r.key, "user-9");
  EXPECT_EQ(r.headers, fields);
  KafkaRecord at = r;
  at.offset = 41;
  const LogEntry e = detail::entry_of(at);
  EXPECT_EQ(e.id, "42-0");
  EXPECT_EQ(e.fields, fields);
  EXPECT_TRUE(detail::record_of(Fields{{"x", "1"}}).key.empty());
}

std::string value_of(const detail::KafkaConfig& c, const std::string& name) {
  for (const auto& [n, v] : c)
    if (n == name) return v;
  return "<unset>";
}

TEST(ServeKafka, ClientConfigurationAndRefusedOverrides) {
  KafkaOptions o;
  o.brokers = "k1:9092,k2:9092";
  o.properties = {{"client.id", "w7"}};
  const auto c = detail::consumer_config(o, "irithyll-workers");
  ASSERT_TRUE(c.is_ok()) << c.status().to_string();
  EXPECT_EQ(value_of(*c, "bootstrap.servers"), "k1:9092,k2:9092");
  EXPECT_EQ(value_of(*c, "group.id"), "irithyll-workers");
  EXPECT_EQ(value_of(*c, "enable.auto.commit"), "false");  // offsets move only after a checkpoint
  EXPECT_EQ(value_of(*c, "enable.auto.offset.store"), "false");
  EXPECT_EQ(value_of(*c, "auto.offset.reset"), "earliest");
  EXPECT_EQ(value_of(*c, "client.id"), "w7");
  const auto p = detail::producer_config(o);
  ASSERT_TRUE(p.is_ok());
  EXPECT_EQ(value_of(*p, "enable.idempotence"), "true");
  EXPECT_EQ(value_of(*p, "acks"), "all");
  o.properties = {{"enable.auto.commit", "true"}};
  const auto refused = detail::consumer_config(o, "g");
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.status().message().find("enable.auto.commit"), std::string::npos);
  o.properties = {{"enable.idempotence", "false"}};
  EXPECT_FALSE(detail::producer_config(o).is_ok());
  o.properties.clear();
  o.brokers.clear();
  EXPECT_FALSE(detail::consumer_config(o, "g").is_ok());
}

// An in-memory Kafka: topics of records, the group's committed offsets, and a
// check at every commit that the partition's checkpoint ("__last" in the
// state store) already covers every record below the committed offset.
struct FakeBroker {
  std::map<TopicPartition, std::vector<KafkaRecord>> records;
  std::map<TopicPartition, std::int64_t> committed;
  std::shared_ptr<MemoryLog> state;
  StreamNames names;
  std::size_t commits = 0;
  std::vector<std::string> violations;
  Status fail_flush, fail_commit;
};

class FakeClient final : public detail::KafkaClient {
 public:
  explicit FakeClient(FakeBroker& b) : b_(b) {}
  Status assign(const std::string& topic, std::int32_t partition) override {
    const TopicPartition tp{topic, partition};
    auto c = b_.committed.find(tp);
    position_[tp] = c == b_.committed.end() ? 0 : c->second;
    return Status::ok();
  }
  Status unassign(const std::string& topic, std::int32_t partition) override {
    position_.erase(TopicPartition{topic, partition});
    return Status::ok();
  }
  Result<std::vector<KafkaRecord>> poll(const std::string& topic, std::int32_t partition, std::size_t max,
                                        int) override {
    auto pos = position_.find(TopicPartition{topic, partition});
    if (pos == position_.end()) return Status::invalid_argument("not assigned");
    const auto& all = b_.records[pos->first];
    std::vector<KafkaRecord> out;
    while (out.size() < max && pos->second < static_cast<std::int64_t>(all.size()))
      out.push_back(all[static_cast<std::size_t>(pos->second++)]);
    return out;
  }
  Status produce(const std::string& topic, std::int32_t partition, const std::string& key,
                 const Fields& headers) override {
    auto& all = b_.records[TopicPartition{topic, partition}];
    all.push_back(KafkaRecord{static_cast<std::int64_t>(all.size()), key, headers});
    return Status::ok();
  }
  Status flush() override { return b_.fail_flush; }
  Status commit(const std::string& topic, std::int32_t partition, std::int64_t next) override {
    if (!b_.fail_commit.is_ok()) return b_.fail_commit;
    ++b_.commits;
    const auto last = b_.state->hash_get(b_.names.checkpoint(static_cast<std::uint32_t>(partition)), "__last");
    const auto covered = last.is_ok() && last->has_value() ? detail::offset_of(**last) : Result<std::int64_t>(-1);
    if (!covered.is_ok() || *covered + 1 < next)
      b_.violations.push_back(topic + "[" + std::to_string(partition) + "] committed " + std::to_string(next) +
                              " past its checkpoint " + (last.is_ok() ? last->value_or("none") : "?"));
    auto& c = b_.committed[TopicPartition{topic, partition}];
    if (next < c) b_.violations.push_back("commit moved backwards");
    c = next;
    return Status::ok();
  }
  Result<std::int64_t> committed(const std::string& topic, std::int32_t partition) override {
    auto c = b_.committed.find(TopicPartition{topic, partition});
    return c == b_.committed.end() ? std::int64_t{-1} : c->second;
  }
  Result<std::pair<std::int64_t, std::int64_t>> watermarks(const std::string& topic, std::int32_t partition) override {
    return std::pair<std::int64_t, std::int64_t>{0, static_cast<std::int64_t>(b_.records[{topic, partition}].size())};
  }

 private:
  FakeBroker& b_;
  std::map<TopicPartition, std::int64_t> position_;
};

std::unique_ptr<Log> kafka_log(FakeBroker& b, std::uint32_t partitions, bool with_state = true) {
  return std::make_unique<detail::KafkaLog>(std::make_unique<FakeClient>(b),
                                            with_state ? std::shared_ptr<Log>(b.state) : nullptr, b.names, partitions);
}

WorkerConfig kafka_worker(const std::string& token, std::uint32_t partitions) {
  WorkerConfig c;
  c.partitions = partitions;
  c.settings = test::small_sgbt();
  c.context = LearnerContext{Task::kRegression, 0, 10, 7};
  c.batch = 40;
  c.checkpoint_ms = 0;
  c.key_checkpoint_ms = 20;
  c.lease_ms = 60000;
  c.token = token;
  return c;
}

TEST(ServeKafka, WorkerOverKafkaLearnsExactlyOnceAcrossACrash) {
  FakeBroker b;
  b.state = std::make_shared<MemoryLog>();
  const std::uint32_t partitions = 3;
  const std::uint64_t n = 2500, keys = 15;
  {
    auto sink = kafka_log(b, partitions, false);  // a producer needs no state store
    auto stream = make_generator("friedman", 4, n);
    ProduceOptions po;
    po.partitions = partitions;
    po.keys = keys;
    po.seed = 4;
    ASSERT_TRUE(produce(*sink, **stream, po, n).is_ok());
  }
  {
    auto log = kafka_log(b, partitions);
    auto a = Worker::make(*log, kafka_worker("a", partitions));
    ASSERT_TRUE(a.is_ok()) << a.status().to_string();
    for (int i = 0; i < 15; ++i) {
      ASSERT_TRUE((*a)->poll().is_ok());
      std::this_thread::sleep_for(std::chrono::milliseconds(3));
    }
    EXPECT_GT(b.commits, 0u);
  }  // dropped without shutdown: the next owner resumes at the committed offsets
  for (std::uint32_t p = 0; p < partitions; ++p) b.state->expire_lease(b.names.lease(p));
  auto log = kafka_log(b, partitions);
  auto w = Worker::make(*log, kafka_worker("b", partitions));
  ASSERT_TRUE(w.is_ok());
  for (int idle = 0, round = 0; idle < 2 && round < 10000; ++round) {
    auto done = (*w)->poll();
    ASSERT_TRUE(done.is_ok()) << done.status().to_string();
    idle = *done == 0 ? idle + 1 : 0;
  }
  ASSERT_TRUE((*w)->shutdown().is_ok());
  EXPECT_TRUE(b.violations.empty()) << b.violations.front();
  test::expect_matches(test::checkpointed(*b.state, b.names, partitions),
                       test::learn_reference(test::generate("friedman", 4, n, keys), "sgbt", test::small_sgbt(),
                                             LearnerContext{Task::kRegression, 0, 10, 7}));
  std::set<std::string> predicted;
  for (std::uint32_t p = 0; p < partitions; ++p) {
    const TopicPartition in{"irithyll.in", static_cast<std::int32_t>(p)};
    EXPECT_EQ(b.committed[in], static_cast<std::int64_t>(b.records[in].size())) << "partition " << p;
    for (const auto& r : b.records[TopicPartition{"irithyll.out", static_cast<std::int32_t>(p)}])
      predicted.insert(r.headers.at(0).second);
  }
  EXPECT_EQ(predicted.size(), n);
}

TEST(ServeKafka, ClientErrorsBecomeStatuses) {
  FakeBroker b;
  b.state = std::make_shared<MemoryLog>();
  auto log = kafka_log(b, 2);
  log->append("not-a-stream", Fields{{"key", "a"}});
  const Status unknown = log->flush();
  EXPECT_EQ(unknown.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(log->flush().is_ok());  // reported once
  b.fail_flush = Status::io_error("kafka: flush: Local: Message timed out");
  log->append(b.names.output(0), Fields{{"key", "a"}});
  EXPECT_EQ(log->flush().code(), StatusCode::kIOError);
  b.fail_flush = Status::ok();
  ASSERT_TRUE(log->create_group(b.names.input(1), b.names.group()).is_ok());
  EXPECT_FALSE(log->create_group(b.names.input(1), "another-group").is_ok());
  EXPECT_FALSE(log->read_group(b.names.input(0), b.names.group(), "p0", ">", 10, 0).is_ok());  // never assigned
  b.fail_commit = Status::io_error("kafka: commit irithyll.in[1]: Broker: Not coordinator");
  const std::vector<std::string> ids = {"1-0"};
  EXPECT_EQ(log->ack(b.names.input(1), b.names.group(), ids).code(), StatusCode::kIOError);
  EXPECT_EQ(log->range(b.names.output(0), 10).status().code(), StatusCode::kNotSupported);
  auto sink_only = kafka_log(b, 2, false);
  EXPECT_EQ(sink_only->acquire_lease("l", "t", 100).status().code(), StatusCode::kNotSupported);
}

#if defined(IRITHYLL_HAVE_RDKAFKA)
// librdkafka's in-process mock cluster (rdkafka_mock.h) is not a broker, but
// it speaks the protocol: produce, fetch, group offsets. The real client runs
// the worker over it, with a crash in the middle, to the exact per-key models.
TEST(ServeKafka, WorkerOverLibrdkafkasMockCluster) {
  char err[256];
  rd_kafka_t* owner = rd_kafka_new(RD_KAFKA_PRODUCER, rd_kafka_conf_new(), err, sizeof err);
  ASSERT_NE(owner, nullptr) << err;
  rd_kafka_mock_cluster_t* cluster = rd_kafka_mock_cluster_new(owner, 1);
  ASSERT_NE(cluster, nullptr);
  struct Cleanup {
    rd_kafka_t* rk;
    rd_kafka_mock_cluster_t* mc;
    ~Cleanup() {
      rd_kafka_mock_cluster_destroy(mc);
      rd_kafka_destroy(rk);
    }
  } cleanup{owner, cluster};
  const std::uint32_t partitions = 2;
  const std::uint64_t n = 1200, keys = 8;
  StreamNames names;
  ASSERT_EQ(rd_kafka_mock_topic_create(cluster, "irithyll.in", partitions, 1), RD_KAFKA_RESP_ERR_NO_ERROR);
  ASSERT_EQ(rd_kafka_mock_topic_create(cluster, "irithyll.out", partitions, 1), RD_KAFKA_RESP_ERR_NO_ERROR);
  ASSERT_EQ(rd_kafka_mock_topic_create(cluster, "irithyll.dead", 1, 1), RD_KAFKA_RESP_ERR_NO_ERROR);
  KafkaOptions o;
  o.brokers = rd_kafka_mock_cluster_bootstraps(cluster);
  o.timeout_ms = 10000;
  {
    auto sink = connect_kafka(o, names, partitions, nullptr);
    ASSERT_TRUE(sink.is_ok()) << sink.status().to_string();
    auto stream = make_generator("friedman", 6, n);
    ProduceOptions po;
    po.partitions = partitions;
    po.keys = keys;
    po.seed = 6;
    ASSERT_TRUE(produce(**sink, **stream, po, n).is_ok());
  }
  auto state = std::make_shared<MemoryLog>();
  WorkerConfig c = kafka_worker("a", partitions);
  c.batch = 100;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  {
    auto log = connect_kafka(o, names, partitions, state);
    ASSERT_TRUE(log.is_ok()) << log.status().to_string();
    auto a = Worker::make(**log, c);
    ASSERT_TRUE(a.is_ok());
    while ((*a)->metrics().learned < n / 3 && std::chrono::steady_clock::now() < deadline) {
      auto done = (*a)->poll();
      ASSERT_TRUE(done.is_ok()) << done.status().to_string();
      if (*done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_GE((*a)->metrics().learned, n / 3) << "no progress over the mock cluster";
  }  // dropped without shutdown
  for (std::uint32_t p = 0; p < partitions; ++p) state->expire_lease(names.lease(p));
  auto log = connect_kafka(o, names, partitions, state);
  ASSERT_TRUE(log.is_ok()) << log.status().to_string();
  c.token = "b";
  auto w = Worker::make(**log, c);
  ASSERT_TRUE(w.is_ok());
  // Done when every key's record holds all of its samples (the worker's own
  // count restarts from the checkpoint, so count through the state).
  auto learned = [&] {
    std::uint64_t total = 0;
    for (const auto& [key, rec] : test::checkpointed(*state, names, partitions)) total += rec.learned;
    return total;
  };
  while (learned() < n && std::chrono::steady_clock::now() < deadline) {
    auto done = (*w)->poll();
    ASSERT_TRUE(done.is_ok()) << done.status().to_string();
    if (*done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE((*w)->shutdown().is_ok());
  test::expect_matches(test::checkpointed(*state, names, partitions),
                       test::learn_reference(test::generate("friedman", 6, n, keys), "sgbt", test::small_sgbt(),
                                             LearnerContext{Task::kRegression, 0, 10, 7}));
  const auto in_lag = (*log)->lag(names.input(0), names.group());
  ASSERT_TRUE(in_lag.is_ok()) << in_lag.status().to_string();
}

TEST(ServeKafka, UnreachableBrokerFailsWithinTheTimeout) {
  KafkaOptions o;
  o.brokers = "127.0.0.1:1";  // nothing listens on port 1
  o.timeout_ms = 1500;
  const auto t0 = std::chrono::steady_clock::now();
  auto log = connect_kafka(o, StreamNames{}, 8, std::make_shared<MemoryLog>());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(log.is_ok());
  EXPECT_EQ(log.status().code(), StatusCode::kIOError);
  EXPECT_NE(log.status().message().find("127.0.0.1:1"), std::string::npos) << log.status().to_string();
  EXPECT_LT(seconds, 30.0) << "bounded by the timeout, not a hang";  // generous: a loaded machine
  o.properties = {{"enable.auto.commit", "true"}};
  EXPECT_EQ(connect_kafka(o, StreamNames{}, 8, nullptr).status().code(), StatusCode::kInvalidArgument);
  o.properties = {{"no.such.property", "1"}};
  EXPECT_EQ(connect_kafka(o, StreamNames{}, 8, nullptr).status().code(), StatusCode::kInvalidArgument);
}
#else
TEST(ServeKafka, WithoutLibrdkafkaConnectSaysSo) {
  EXPECT_FALSE(kafka_available());
  KafkaOptions o;
  o.brokers = "k:9092";
  EXPECT_EQ(connect_kafka(o, StreamNames{}, 8, nullptr).status().code(), StatusCode::kNotSupported);
}
#endif

}  // namespace
}  // namespace irithyll::serve
