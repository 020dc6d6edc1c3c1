// The worker with an anomaly detector (WorkerConfig::anomaly, `irithyll serve
// --task anomaly`) over the in-memory log: every sample is scored with the
// key's detector, the score is published as its prediction, then learned;
// a restarted worker continues each key from its checkpoint; label messages
// are dead letters.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "irithyll/anomaly/registry.hpp"
#include "serve/memory_log.hpp"
#include "serve/worker.hpp"
#include "serve_test_util.hpp"

namespace irithyll::serve {
namespace {

constexpr std::uint32_t kAnomalyPartitions = 3;

WorkerConfig anomaly_config(const std::string& token) {
  WorkerConfig c;
  c.partitions = kAnomalyPartitions;
  c.anomaly = true;
  c.model = "half_space_trees";
  c.settings = ModelSettings{{"n-trees", "5"}, {"height", "6"}, {"window-size", "50"}};
  c.context = LearnerContext{Task::kRegression, 0, 10, 11};
  c.batch = 41;
  c.checkpoint_entries = 100;
  c.checkpoint_ms = 1 << 30;  // checkpoints by count only: deterministic
  c.lease_ms = 60000;
  c.token = token;
  return c;
}

void drain_anomalies(Worker& w) {
  for (int round = 0; round < 100000; ++round) {
    auto n = w.poll();
    ASSERT_TRUE(n.is_ok()) << n.status().to_string();
    if (*n == 0) return;
  }
  FAIL() << "worker never went idle";
}

// Unlabelled samples s<first>..s<last-1>.
void send(MemoryLog& log, const std::vector<test::Sample>& samples, std::size_t first, std::size_t last) {
  StreamNames names;
  for (std::size_t i = first; i < last; ++i) {
    const test::Sample& s = samples[i];
    log.append(names.input(partition_of(s.key, kAnomalyPartitions)),
               sample_fields("s" + std::to_string(i), s.key, s.x, std::nullopt));
  }
}

// One process, one detector per key: each sample's score before learning it,
// and every key's final checkpoint bytes.
struct Reference {
  std::map<std::string, std::string> score;  // sample id -> formatted score
  std::map<std::string, std::vector<std::uint8_t>> model;
};

Reference score_reference(const std::vector<test::Sample>& samples, const WorkerConfig& c) {
  std::map<std::string, std::unique_ptr<AnomalyDetector>> detectors;
  Reference ref;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    auto& d = detectors[samples[i].key];
    if (!d) d = std::move(make_anomaly_detector(c.model, c.settings, AnomalyContext{10, c.context.seed})).value();
    ref.score["s" + std::to_string(i)] = format_number(d->score_one(samples[i].x));
    d->learn_one(samples[i].x);
  }
  for (auto& [key, d] : detectors) {
    ByteWriter out;
    encode_anomaly_detector(*d, out);
    ref.model[key] = out.take();
  }
  return ref;
}

std::map<std::string, std::string> published(MemoryLog& log, const StreamNames& names) {
  std::map<std::string, std::string> out;
  for (std::uint32_t p = 0; p < kAnomalyPartitions; ++p) {
    const auto entries = log.range(names.output(p), 1000000);
    EXPECT_TRUE(entries.is_ok());
    if (!entries) continue;
    for (const LogEntry& e : *entries) out[e.fields.at(0).second] = e.fields.at(2).second;
  }
  return out;
}

void expect_scores_and_models(MemoryLog& log, const WorkerConfig& c, const Reference& ref, std::size_t n) {
  const auto got = published(log, c.names);
  ASSERT_EQ(got.size(), n);
  std::size_t differ = 0;
  for (const auto& [id, score] : ref.score) differ += got.count(id) == 0 || got.at(id) != score;
  EXPECT_EQ(differ, 0u) << "published scores that differ from the single-process reference";
  const auto records = test::checkpointed(log, c.names, kAnomalyPartitions);
  ASSERT_EQ(records.size(), ref.model.size());
  for (const auto& [key, bytes] : ref.model) {
    ASSERT_EQ(records.count(key), 1u) << key;
    EXPECT_EQ(records.at(key).model, bytes) << key;
  }
}

TEST(ServeAnomaly, ScoresThenLearnsEveryKeyLikeOneProcess) {
  MemoryLog log;
  const auto samples = test::generate("friedman", 4, 2400, 5);
  send(log, samples, 0, samples.size());
  const WorkerConfig c = anomaly_config("w1");
  auto w = Worker::make(log, c);
  ASSERT_TRUE(w.is_ok()) << w.status().to_string();
  drain_anomalies(**w);
  ASSERT_TRUE((*w)->shutdown().is_ok());
  const Reference ref = score_reference(samples, c);
  expect_scores_and_models(log, c, ref, samples.size());
  // Scores are not constant: the detectors learned (a planted check of the
  // scores' quality is the detector's own test).
  std::set<std::string> distinct;
  for (const auto& [id, s] : ref.score) distinct.insert(s);
  EXPECT_GT(distinct.size(), 10u);
  EXPECT_EQ((*w)->metrics().learned, samples.size());
  for (std::uint32_t p = 0; p < kAnomalyPartitions; ++p) EXPECT_EQ(log.unacked(c.names.input(p), c.names.group()), 0u);
}

TEST(ServeAnomaly, ARestartedWorkerContinuesFromTheCheckpoints) {
  MemoryLog log;
  const auto samples = test::generate("friedman", 6, 2000, 4);
  const WorkerConfig c = anomaly_config("a");
  send(log, samples, 0, 1100);
  {
    auto a = Worker::make(log, c);
    ASSERT_TRUE(a.is_ok()) << a.status().to_string();
    drain_anomalies(**a);
    ASSERT_TRUE((*a)->shutdown().is_ok());
  }
  send(log, samples, 1100, samples.size());
  auto b = Worker::make(log, anomaly_config("b"));
  ASSERT_TRUE(b.is_ok()) << b.status().to_string();
  drain_anomalies(**b);
  ASSERT_TRUE((*b)->shutdown().is_ok());
  expect_scores_and_models(log, c, score_reference(samples, c), samples.size());
}

TEST(ServeAnomaly, LabelMessagesAreDeadLettersAndUnknownDetectorsRefused) {
  MemoryLog log;
  const WorkerConfig c = anomaly_config("w");
  const auto samples = test::generate("friedman", 2, 10, 1);
  send(log, samples, 0, samples.size());
  log.append(c.names.input(partition_of(samples[0].key, kAnomalyPartitions)), label_fields(samples[0].key, "s0", 1.0));
  auto w = Worker::make(log, c);
  ASSERT_TRUE(w.is_ok()) << w.status().to_string();
  drain_anomalies(**w);
  const auto dead = *log.range(c.names.dead(), 100);
  ASSERT_EQ(dead.size(), 1u);
  std::string reason;
  for (const auto& [k, v] : dead[0].fields)
    if (k == "reason") reason = v;
  EXPECT_NE(reason.find("anomaly model takes no labels"), std::string::npos) << reason;
  EXPECT_EQ(published(log, c.names).size(), samples.size());

  WorkerConfig bad = anomaly_config("x");
  bad.model = "sgbt";  // a learner, not a detector
  auto refused = Worker::make(log, bad);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.status().message().find("half_space_trees"), std::string::npos) << refused.status().to_string();
}

}  // namespace
}  // namespace irithyll::serve
