// The worker over the in-memory log: predictions, learning, dead letters,
// the label-join window, LRU eviction and exactly-once takeover after a crash.
#include "serve/worker.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "serve/memory_log.hpp"
#include "serve_test_util.hpp"

namespace irithyll::serve {
namespace {

using test::Sample;

WorkerConfig config_for(const std::string& token, std::uint32_t partitions = 4) {
  WorkerConfig c;
  c.partitions = partitions;
  c.model = "sgbt";
  c.settings = test::small_sgbt();
  c.context = LearnerContext{Task::kRegression, 0, 10, 7};
  c.batch = 37;
  c.checkpoint_entries = 100;
  c.checkpoint_ms = 1 << 30;  // checkpoints by count only: deterministic
  c.lease_ms = 60000;
  c.token = token;
  return c;
}

// Polls until `idle_rounds` rounds in a row find nothing to do (bounded).
// With short leases, a lost partition is re-taken only every lease_ms / 3,
// so those tests wait `idle_sleep_ms` between idle rounds.
void drain(Worker& w, int idle_rounds = 1, int idle_sleep_ms = 0) {
  int idle = 0;
  for (int round = 0; round < 100000; ++round) {
    auto n = w.poll();
    ASSERT_TRUE(n.is_ok()) << n.status().to_string();
    idle = *n == 0 ? idle + 1 : 0;
    if (idle >= idle_rounds) return;
    if (*n == 0) std::this_thread::sleep_for(std::chrono::milliseconds(idle_sleep_ms));
  }
  FAIL() << "worker never went idle";
}

void send(MemoryLog& log, const std::vector<Sample>& samples, std::uint32_t partitions, std::size_t first = 0) {
  StreamNames names;
  for (std::size_t i = first; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    log.append(names.input(partition_of(s.key, partitions)), sample_fields("s" + std::to_string(i), s.key, s.x, s.y));
  }
}

TEST(ServeWorker, LearnsEveryKeyLikeOneProcess) {
  MemoryLog log;
  const auto samples = test::generate("friedman", 3, 3000, 25);
  send(log, samples, 4);
  WorkerConfig c = config_for("w1");
  auto w = Worker::make(log, c);
  ASSERT_TRUE(w.is_ok()) << w.status().to_string();
  drain(**w);
  ASSERT_TRUE((*w)->shutdown().is_ok());
  const auto ref = test::learn_reference(samples, c.model, c.settings, c.context);
  test::expect_matches(test::checkpointed(log, c.names, 4), ref);
  std::size_t predictions = 0;
  for (std::uint32_t p = 0; p < 4; ++p) {
    predictions += log.range(c.names.output(p), 100000)->size();
    EXPECT_EQ(log.unacked(c.names.input(p), c.names.group()), 0u);
  }
  EXPECT_EQ(predictions, samples.size());
}

// A pipeline spec serves like a catalogue learner: every key's checkpoint
// is the pipeline that one process would have built and taught, byte for
// byte, and it survives a takeover (the second worker decodes the
// "pipeline" records the first wrote).
TEST(ServeWorker, PipelineSpecServesEveryKeyLikeOneProcess) {
  MemoryLog log;
  const auto samples = test::generate("friedman", 3, 2000, 11);
  send(log, samples, 4);
  WorkerConfig c = config_for("p1");
  c.model = "standard_scaler|linear_regression(l2=0.001)";
  c.settings = {};
  {
    auto a = Worker::make(log, c);
    ASSERT_TRUE(a.is_ok()) << a.status().to_string();
    for (int i = 0; i < 10; ++i) ASSERT_TRUE((*a)->poll().is_ok());
    EXPECT_GT((*a)->metrics().checkpoints, 0u);
  }
  for (std::uint32_t p = 0; p < 4; ++p) log.expire_lease(c.names.lease(p));
  c.token = "p2";
  auto b = Worker::make(log, c);
  ASSERT_TRUE(b.is_ok()) << b.status().to_string();
  drain(**b);
  ASSERT_TRUE((*b)->shutdown().is_ok());
  const auto ref = test::learn_reference(samples, c.model, c.settings, c.context);
  test::expect_matches(test::checkpointed(log, c.names, 4), ref);
}

TEST(ServeWorker, PipelineWithAnUnknownStepIsRefusedByName) {
  MemoryLog log;
  WorkerConfig c = config_for("p3");
  c.model = "standard_scaler|no_such_learner";
  c.settings = {};
  auto w = Worker::make(log, c);
  ASSERT_FALSE(w.is_ok());
  EXPECT_NE(w.status().to_string().find("no_such_learner"), std::string::npos) << w.status().to_string();
}

TEST(ServeWorker, CrashAfterUncheckpointedWorkIsReplayedExactlyOnce) {
  MemoryLog log;
  const auto samples = test::generate("friedman", 5, 4000, 30);
  send(log, samples, 4);
  WorkerConfig c = config_for("a");
  {
    auto a = Worker::make(log, c);
    ASSERT_TRUE(a.is_ok());
    for (int i = 0; i < 20; ++i) ASSERT_TRUE((*a)->poll().is_ok());
    EXPECT_GT((*a)->metrics().checkpoints, 0u);
    // Destroyed without shutdown(): everything since its last checkpoint is lost.
  }
  for (std::uint32_t p = 0; p < 4; ++p) log.expire_lease(c.names.lease(p));
  c.token = "b";
  auto b = Worker::make(log, c);
  ASSERT_TRUE(b.is_ok());
  drain(**b);
  ASSERT_TRUE((*b)->shutdown().is_ok());
  EXPECT_EQ((*b)->metrics().takeovers, 4u);
  const auto ref = test::learn_reference(samples, c.model, c.settings, c.context);
  test::expect_matches(test::checkpointed(log, c.names, 4), ref);
}

// A pauses past its lease; B takes the partition over, checkpoints further,
// then pauses past its own. When A wakes, the lease is free again: A must not
// "renew" it and carry on from its stale state, but reload B's checkpoint.
TEST(ServeWorker, LapsedLeaseIsNeverRenewedOverASuccessorsCheckpoint) {
  MemoryLog log;
  const auto samples = test::generate("friedman", 13, 1500, 12);
  send(log, samples, 1);
  WorkerConfig c = config_for("a", 1);
  c.checkpoint_entries = 40;
  // Long enough that no poll outlasts it on a loaded machine under sanitizers
  // (the test expires leases by hand); A's renewal falls due after a third.
  c.lease_ms = 600;
  auto a = Worker::make(log, c);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE((*a)->poll().is_ok());
  log.expire_lease(c.names.lease(0));
  c.token = "b";
  auto b = Worker::make(log, c);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE((*b)->poll().is_ok());
  EXPECT_GT((*b)->metrics().checkpoints, 0u);
  EXPECT_EQ((*b)->metrics().lost, 0u);
  log.expire_lease(c.names.lease(0));
  std::this_thread::sleep_for(std::chrono::milliseconds(c.lease_ms / 3 + 20));  // A's renewal falls due
  drain(**a, 4, 15);
  ASSERT_TRUE((*a)->shutdown().is_ok());
  test::expect_matches(test::checkpointed(log, c.names, 1),
                       test::learn_reference(samples, c.model, c.settings, c.context));
}

TEST(ServeWorker, LeaseHeldElsewhereIsNotTaken) {
  MemoryLog log;
  WorkerConfig c = config_for("a", 2);
  ASSERT_TRUE(*log.acquire_lease(c.names.lease(0), "other", 60000));
  auto a = Worker::make(log, c);
  ASSERT_TRUE((*a)->poll().is_ok());
  const auto m = (*a)->metrics();
  ASSERT_EQ(m.owned.size(), 1u);
  EXPECT_EQ(m.owned[0].partition, 1u);
}

TEST(ServeWorker, LruEvictionKeepsResultsExact) {
  MemoryLog log;
  const auto samples = test::generate("friedman", 9, 2000, 40);
  send(log, samples, 2);
  WorkerConfig c = config_for("w", 2);
  c.max_keys = 3;  // far fewer than the keys: constant eviction and reloads
  auto w = Worker::make(log, c);
  drain(**w);
  for (const auto& pm : (*w)->metrics().owned) EXPECT_LE(pm.keys_held, 3u);
  ASSERT_TRUE((*w)->shutdown().is_ok());
  test::expect_matches(test::checkpointed(log, c.names, 2),
                       test::learn_reference(samples, c.model, c.settings, c.context));
}

TEST(ServeWorker, DeadLettersNeverStopTheWorker) {
  MemoryLog log;
  WorkerConfig c = config_for("w", 1);
  c.context = LearnerContext{Task::kClassification, 2, 2, 1};
  const std::string in = c.names.input(0);
  log.append(in, {{"id", "s0"}, {"key", "a"}, {"x", "1,2"}, {"y", "1"}});
  log.append(in, {{"id", "s1"}, {"x", "1,2"}});                           // no key
  log.append(in, {{"id", "s2"}, {"key", "a"}, {"x", "1,abc"}});           // not a number
  log.append(in, {{"id", "s3"}, {"key", "a"}, {"x", "1,2,3"}});           // 3 features, model takes 2
  log.append(in, {{"id", "s4"}, {"key", "a"}, {"x", "1,2"}, {"y", "7"}}); // class out of range
  log.append(in, {{"key", "a"}, {"label_for", "nope"}, {"y", "0"}});      // label for an unknown sample
  log.append(in, {{"id", "s5"}, {"key", "a"}, {"x", "3,4"}, {"y", "0"}});
  auto w = Worker::make(log, c);
  drain(**w);
  ASSERT_TRUE((*w)->shutdown().is_ok());
  const auto dead = *log.range(c.names.dead(), 100);
  ASSERT_EQ(dead.size(), 5u);
  const char* reasons[] = {"missing field 'key'", "x[1] is not a number", "x has more than 2 values",
                           "not a class index", "not in the join window"};
  for (std::size_t i = 0; i < 5; ++i) {
    ASSERT_GE(dead[i].fields.size(), 3u);
    EXPECT_EQ(dead[i].fields[2].first, "reason");
    EXPECT_NE(dead[i].fields[2].second.find(reasons[i]), std::string::npos) << dead[i].fields[2].second;
  }
  const auto records = test::checkpointed(log, c.names, 1);
  ASSERT_EQ(records.count("a"), 1u);
  EXPECT_EQ(records.at("a").learned, 2u);
  EXPECT_EQ(log.range(c.names.output(0), 100)->size(), 2u);
}

TEST(ServeWorker, LabelJoinWindow) {
  MemoryLog log;
  WorkerConfig c = config_for("w", 1);
  c.context = LearnerContext{Task::kRegression, 0, 1, 1};
  c.label_window = 3;
  const std::string in = c.names.input(0);
  // Five unlabelled samples; the window keeps the last three.
  for (int i = 0; i < 5; ++i) log.append(in, {{"id", "s" + std::to_string(i)}, {"key", "k"}, {"x", std::to_string(i)}});
  log.append(in, label_fields("k", "s4", 4.0));  // joined
  log.append(in, label_fields("k", "s2", 2.0));  // joined
  log.append(in, label_fields("k", "s0", 0.0));  // left the window: dead letter
  log.append(in, label_fields("k", "s2", 2.0));  // already joined: dead letter
  auto w = Worker::make(log, c);
  drain(**w);
  const auto m = (*w)->metrics();
  EXPECT_EQ(m.learned, 2u);
  EXPECT_EQ(m.window_expired, 2u);
  EXPECT_EQ(m.dead_letters, 2u);
  ASSERT_TRUE((*w)->shutdown().is_ok());
  // The model learned exactly (4 -> 4) then (2 -> 2).
  auto ref = make_learner(c.model, c.settings, c.context);
  (*ref)->learn_one(std::vector<double>{4}, 4.0);
  (*ref)->learn_one(std::vector<double>{2}, 2.0);
  const auto records = test::checkpointed(log, c.names, 1);
  EXPECT_EQ(records.at("k").model, encode_learner(**ref));
}

TEST(ServeWorker, LabelWindowSurvivesTakeover) {
  MemoryLog log;
  WorkerConfig c = config_for("a", 1);
  c.context = LearnerContext{Task::kRegression, 0, 1, 1};
  c.checkpoint_entries = 1;
  const std::string in = c.names.input(0);
  log.append(in, {{"id", "s0"}, {"key", "k"}, {"x", "1.5"}});
  {
    auto a = Worker::make(log, c);
    drain(**a);  // checkpointed with s0 in the window, then "crashes"
  }
  log.expire_lease(c.names.lease(0));
  log.append(in, label_fields("k", "s0", 3.0));
  c.token = "b";
  auto b = Worker::make(log, c);
  drain(**b);
  ASSERT_TRUE((*b)->shutdown().is_ok());
  EXPECT_EQ(test::checkpointed(log, c.names, 1).at("k").learned, 1u);
}

// Per-key checkpoints: the partition commits after every batch, but each key
// is rewritten only every 15-30 ms (at its own phase), so at a crash keys
// stand at different positions and entries behind "__last" are still
// pending for the keys not saved yet. The first 2000 samples carry their
// labels; the last 1000 get theirs as separate messages (window joins). Three
// workers in turn, the first two dropped without shutdown: every key must
// still learn each of its samples once, in order.
TEST(ServeWorker, PerKeyCheckpointsReplayEachKeyFromItsOwnPosition) {
  MemoryLog log;
  const std::uint64_t n = 3000, keys = 20;
  WorkerConfig c = config_for("a", 2);
  c.checkpoint_ms = 0;
  c.checkpoint_entries = 1000000;
  c.key_checkpoint_ms = 30;
  c.batch = 50;
  auto stream = make_generator("friedman", 11, n);
  ASSERT_TRUE(stream.is_ok());
  ProduceOptions po;
  po.partitions = 2;
  po.keys = keys;
  po.seed = 11;
  ASSERT_TRUE(produce(log, **stream, po, 2000).is_ok());
  po.first_index = 2000;
  po.label_delay = 7;
  ASSERT_TRUE(produce(log, **stream, po, 1000).is_ok());
  // At some crash, an entry at or before "__last" is still pending: a key it
  // changed was not saved yet, so the floor held its acknowledgement back.
  bool held_back = false;
  for (const char* token : {"a", "b"}) {
    c.token = token;
    auto w = Worker::make(log, c);
    ASSERT_TRUE(w.is_ok());
    for (int i = 0; i < 14; ++i) {
      ASSERT_TRUE((*w)->poll().is_ok());
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    for (std::uint32_t p = 0; p < 2; ++p) {
      const auto last = EntryId::parse(log.hash_get(c.names.checkpoint(p), "__last")->value_or("0-0"));
      const auto pending = log.read_group(c.names.input(p), c.names.group(), c.names.consumer(p), "0", 1, 0);
      ASSERT_TRUE(pending.is_ok() && last);
      if (!pending->empty() && *EntryId::parse(pending->front().id) <= *last) held_back = true;
      log.expire_lease(c.names.lease(p));
    }
  }  // both dropped without shutdown
  EXPECT_TRUE(held_back) << "no key was left unsaved at a commit: the per-key path was not exercised";
  c.token = "c";
  auto w = Worker::make(log, c);
  drain(**w);
  ASSERT_TRUE((*w)->shutdown().is_ok());
  EXPECT_EQ((*w)->metrics().dead_letters, 0u);
  test::expect_matches(test::checkpointed(log, c.names, 2),
                       test::learn_reference(test::generate("friedman", 11, n, keys), c.model, c.settings, c.context));
  for (std::uint32_t p = 0; p < 2; ++p) EXPECT_EQ(log.unacked(c.names.input(p), c.names.group()), 0u);
}

// Two workers started with one token (a copied command line): the first one's
// lease lapses during a pause, the second takes the partition. The first must
// notice it no longer holds the lease: with a shared token it would pass every
// fence and learn the partition beside its twin (entries learned twice, or
// acknowledged by one and never learned by the other).
TEST(ServeWorker, TwoWorkersGivenOneTokenNeverShareAPartition) {
  MemoryLog log;
  const std::uint64_t n = 1200, keys = 12;
  const auto samples = test::generate("friedman", 5, n, keys);
  send(log, samples, 1);
  WorkerConfig c = config_for("copied", 1);
  auto w1 = Worker::make(log, c);
  auto w2 = Worker::make(log, c);
  ASSERT_TRUE(w1.is_ok() && w2.is_ok());
  ASSERT_TRUE((*w1)->poll().is_ok());  // takes partition 0, learns a batch
  log.expire_lease(c.names.lease(0));  // w1 pauses past its lease
  ASSERT_TRUE((*w2)->poll().is_ok());  // w2 takes partition 0 over
  EXPECT_EQ((*w2)->metrics().takeovers, 1u);
  // Both keep polling, interleaved, until neither has work.
  for (int round = 0, idle = 0; round < 10000 && idle < 2; ++round) {
    auto a = (*w1)->poll();
    auto b = (*w2)->poll();
    ASSERT_TRUE(a.is_ok() && b.is_ok());
    idle = *a + *b == 0 ? idle + 1 : 0;
  }
  EXPECT_EQ((*w1)->metrics().lost, 1u) << "the paused worker kept a partition its twin had taken";
  EXPECT_TRUE((*w1)->metrics().owned.empty());
  ASSERT_TRUE((*w1)->shutdown().is_ok());
  ASSERT_TRUE((*w2)->shutdown().is_ok());
  test::expect_matches(test::checkpointed(log, c.names, 1),
                       test::learn_reference(samples, c.model, c.settings, c.context));
  EXPECT_EQ(log.unacked(c.names.input(0), c.names.group()), 0u);
}

// A dead letter's reason shows the bad bytes escaped and capped: no NUL, no
// invalid UTF-8, however hostile the message.
TEST(ServeWorker, DeadLetterReasonsArePrintable) {
  MemoryLog log;
  WorkerConfig c = config_for("w", 1);
  c.context = LearnerContext{Task::kRegression, 0, 2, 1};
  const std::string in = c.names.input(0);
  log.append(in, {{"id", "s0"}, {"key", "a"}, {"x", std::string("1,\0\xff\xc3(", 6)}});
  log.append(in, {{"id", "s1"}, {"key", "a"}, {"x", "1,2"}, {"y", std::string(5000, '\x01')}});
  log.append(in, {{"key", std::string("k\0\xfe", 3)}, {"label_for", std::string("id\0", 3)}, {"y", "0"}});
  auto w = Worker::make(log, c);
  ASSERT_TRUE(w.is_ok());
  drain(**w);
  ASSERT_TRUE((*w)->shutdown().is_ok());
  const auto dead = *log.range(c.names.dead(), 100);
  ASSERT_EQ(dead.size(), 3u);
  const char* shown[] = {"'\\x00\\xff\\xc3('", "\\x01\\x01", "sample 'id\\x00' of key 'k\\x00\\xfe'"};
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string& reason = dead[i].fields[2].second;
    EXPECT_NE(reason.find(shown[i]), std::string::npos) << reason;
    EXPECT_EQ(reason.find('\0'), std::string::npos) << i;
    EXPECT_LT(reason.size(), 400u) << i;
    for (const char ch : reason) EXPECT_TRUE(ch >= 0x20 && ch < 0x7f) << i << ": " << reason;
  }
  EXPECT_NE(dead[1].fields[2].second.find("more bytes"), std::string::npos);
  EXPECT_EQ(dead[0].fields[5].second, std::string("1,\0\xff\xc3(", 6));  // the message itself stays raw
}

// Records of the first layout (count, then the model) decode, without a position.
TEST(ServeWorker, KeyRecordLayouts) {
  const std::vector<std::uint8_t> model = {'I', 'R', 'C', 'K', 1, 2, 3};
  const std::string v2 = encode_key_record(9, EntryId{5, 6}, model);
  auto rec = decode_key_record(v2);
  ASSERT_TRUE(rec.is_ok()) << rec.status().to_string();
  EXPECT_EQ(rec->learned, 9u);
  ASSERT_TRUE(rec->position.has_value());
  EXPECT_EQ(*rec->position, (EntryId{5, 6}));
  EXPECT_EQ(rec->model, model);
  std::string v1(8, '\0');
  v1[0] = 4;
  v1.append(model.begin(), model.end());
  rec = decode_key_record(v1);
  ASSERT_TRUE(rec.is_ok());
  EXPECT_EQ(rec->learned, 4u);
  EXPECT_FALSE(rec->position.has_value());
  EXPECT_EQ(rec->model, model);
  EXPECT_FALSE(decode_key_record("garbage").is_ok());
}

TEST(ServeWorker, RefusesBadConfiguration) {
  MemoryLog log;
  WorkerConfig c = config_for("w");
  c.model = "no-such-model";
  EXPECT_FALSE(Worker::make(log, c).is_ok());
  c = config_for("w");
  c.settings = ModelSettings{{"n-steps", "0"}};
  EXPECT_FALSE(Worker::make(log, c).is_ok());
  c = config_for("w");
  c.context.n_features = 0;
  EXPECT_FALSE(Worker::make(log, c).is_ok());
}

}  // namespace
}  // namespace irithyll::serve
