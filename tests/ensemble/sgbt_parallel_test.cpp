// SGBT's two-thread mode (threads = 2; any N: sgbt_stages_test.cpp)
// pipelines the boosting steps over two threads and must be
// indistinguishable from threads = 1 with the same seed:
// every prediction, every tree, every checkpoint byte, on classification,
// regression, multi-class, drifting streams and every variant.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "ensemble/parallel_stream.hpp"

namespace irithyll {
namespace {

using test::bytes;
using test::model;
using test::Stream;

SGBTConfig config(std::uint32_t threads, const char* variant, const char* drift) {
  SGBTConfig c;
  EXPECT_TRUE(set_sgbt_config_field(c, "variant", variant).is_ok());
  EXPECT_TRUE(set_sgbt_config_field(c, "drift", drift).is_ok());
  c.n_steps = 21;  // odd: the two groups differ in size
  c.tree.grace_period = 30;
  c.threads = threads;
  return c;
}

// Prequential: predict (which waits for the worker) then learn, every sample.
// A prediction before every sample.
std::vector<std::uint64_t> prequential(SGBTLearner& m, Stream& s, int n) { return bursts(m, s, n, 1); }

TEST(SGBTParallel, PrequentialPredictionsEqualSequential) {
  for (std::size_t classes : {0u, 2u, 3u})
    for (const char* variant : {"standard", "skip", "mi"})
      for (std::uint64_t seed : {1u, 2u}) {
        SCOPED_TRACE("classes " + std::to_string(classes) + " variant " + variant + " seed " + std::to_string(seed));
        const char* drift = seed == 1 ? "pht" : "adwin";
        auto seq = model(config(1, variant, drift), classes);
        auto par = model(config(2, variant, drift), classes);
        Stream a(classes, seed), b(classes, seed);
        const auto expected = prequential(*seq, a, 5000);
        EXPECT_EQ(prequential(*par, b, 5000), expected);
        EXPECT_EQ(bytes(*par), bytes(*seq));
        EXPECT_GT(seq->committee(0).n_replacements(), 0u);  // the drift reached the trees
        EXPECT_TRUE(par->committee(0).pipelined());         // the second thread really ran
        EXPECT_FALSE(seq->committee(0).pipelined());
      }
}

TEST(SGBTParallel, TrainOnlyRunsAheadAndEndsEqual) {
  // Learning only: the pipeline never drains until the checkpoint is taken.
  for (std::size_t classes : {0u, 2u})
    for (std::uint64_t seed : {3u, 4u, 5u}) {
      auto seq = model(config(1, "standard", "pht"), classes);
      auto par = model(config(2, "standard", "pht"), classes);
      Stream a(classes, seed), b(classes, seed);
      for (int i = 0; i < 8000; ++i) {
        seq->learn_one(a.x, a.next());
        const double y = b.next();
        par->learn_one(b.x, y);
      }
      ASSERT_EQ(bytes(*par), bytes(*seq)) << "classes " << classes << " seed " << seed;
    }
}

TEST(SGBTParallel, CheckpointResumesIdentically) {
  // A two-thread model's checkpoint is its sequential twin's; resumed (as a
  // sequential model, or switched back to two threads) it continues alike.
  auto seq = model(config(1, "standard", "pht"), 2);
  auto par = model(config(2, "standard", "pht"), 2);
  Stream a(2, 9), b(2, 9);
  for (int i = 0; i < 3000; ++i) {
    seq->learn_one(a.x, a.next());
    const double y = b.next();
    par->learn_one(b.x, y);
  }
  const auto snapshot = bytes(*par);
  ASSERT_EQ(snapshot, bytes(*seq));
  SGBTLearner resumed;
  ByteReader r(snapshot);
  ASSERT_TRUE(resumed.decode(r).is_ok());
  EXPECT_EQ(resumed.config().threads, 1u);
  Stream c = b;
  EXPECT_EQ(prequential(resumed, c, 3000), prequential(*par, b, 3000));
  EXPECT_EQ(bytes(resumed), bytes(*par));
}

TEST(SGBTParallel, CommitteeOptionsTrainSequentiallyAndStillEqual) {
  // Pruning couples every step after each sample: such a committee ignores
  // threads = 2 and gives the sequential results.
  SGBTConfig c1 = config(1, "standard", "pht"), c2 = config(2, "standard", "pht");
  for (SGBTConfig* c : {&c1, &c2}) {
    c->quality_prune_alpha = 0.1;
    c->quality_prune_threshold = 1e-3;
    c->quality_prune_patience = 50;
  }
  auto seq = model(c1, 0);
  auto par = model(c2, 0);
  Stream a(0, 7), b(0, 7);
  EXPECT_EQ(prequential(*par, b, 5000), prequential(*seq, a, 5000));
  EXPECT_FALSE(par->committee(0).pipelined());
}

TEST(SGBTParallel, MovedAndResetModelsKeepWorking) {
  // The worker trains slots in the committee's heap buffer, which survives
  // moves of the learner; reset drains it first.
  auto seq = model(config(1, "skip", "pht"), 0);
  auto par = model(config(2, "skip", "pht"), 0);
  Stream a(0, 11), b(0, 11);
  for (int i = 0; i < 2000; ++i) {
    seq->learn_one(a.x, a.next());
    const double y = b.next();
    par->learn_one(b.x, y);
  }
  std::unique_ptr<SGBTLearner> moved = std::move(par);
  SGBTLearner moved_again = std::move(*moved);
  EXPECT_EQ(prequential(moved_again, b, 2000), prequential(*seq, a, 2000));
  moved_again.reset();
  seq->reset();
  Stream a2(0, 12), b2(0, 12);
  EXPECT_EQ(prequential(moved_again, b2, 2000), prequential(*seq, a2, 2000));
}

TEST(SGBTParallel, ResetThenAnotherWidthRestartsThePipeline) {
  SGBTConfig c1 = config(1, "standard", "pht"), c2 = config(2, "standard", "pht");
  SGBT seq(c1, c1.make_loss()), par(c2, c2.make_loss());
  Stream a(0, 21), b(0, 21);
  for (int i = 0; i < 500; ++i) {
    seq.train_one(a.x, a.next());
    const double y = b.next();
    par.train_one(b.x, y);
  }
  seq.reset();
  par.reset();
  EXPECT_FALSE(par.pipelined());
  // Now 2 features (the stream's first two) instead of 5.
  for (int i = 0; i < 500; ++i) {
    seq.train_one(std::span<const double>(a.x, 2), a.next());
    const double y = b.next();
    par.train_one(std::span<const double>(b.x, 2), y);
  }
  EXPECT_TRUE(par.pipelined());
  EXPECT_EQ(std::bit_cast<std::uint64_t>(par.predict_raw(std::span<const double>(b.x, 2))),
            std::bit_cast<std::uint64_t>(seq.predict_raw(std::span<const double>(a.x, 2))));
  ByteWriter wa, wb;
  seq.encode_state(wa);
  par.encode_state(wb);
  EXPECT_EQ(wb.data(), wa.data());
}

TEST(SGBTParallel, LearningRateMovedEverySampleEqualsSequential) {
  // AdaptiveSGBT sets the rate before every sample: queued samples keep the
  // rate they were pushed with.
  SGBTConfig c1 = config(1, "standard", "pht"), c2 = config(2, "standard", "pht");
  SGBT seq(c1, c1.make_loss()), par(c2, c2.make_loss());
  Stream a(0, 13), b(0, 13);
  for (int i = 0; i < 4000; ++i) {
    const double lr = 0.02 + 0.1 * (i % 7) / 7.0;
    seq.set_learning_rate(lr);
    par.set_learning_rate(lr);
    seq.train_one(a.x, a.next());
    const double y = b.next();
    par.train_one(b.x, y);
    if (i % 500 == 499) {
      ASSERT_EQ(std::bit_cast<std::uint64_t>(par.predict_raw(b.x)), std::bit_cast<std::uint64_t>(seq.predict_raw(a.x)));
    }
  }
  ByteWriter wa, wb;
  seq.encode_state(wa);
  par.encode_state(wb);
  EXPECT_EQ(wb.data(), wa.data());
}

// The tree options of the other branches run on the pipelined path too:
// soft routing (prediction reads every tree, and the automatic bandwidth
// reads their thresholds, both after the worker drains), linear leaves and
// category-set splits (per tree, so either thread trains them). A graduated
// handoff couples the steps and keeps the committee sequential.
TEST(SGBTParallel, TreeAndRoutingOptionsMatchOneThread) {
  for (const char* option : {"soft-routing=on", "leaf-model=linear", "categorical-features=4", "handoff-window=50"}) {
    const std::string kv(option);
    const auto eq = kv.find('=');
    SGBTConfig one = config(1, "standard", "pht");
    ASSERT_TRUE(set_sgbt_config_field(one, kv.substr(0, eq), kv.substr(eq + 1)).is_ok()) << option;
    SGBTConfig two = one;
    two.threads = 2;
    auto a = model(one, 0), b = model(two, 0);
    Stream sa(0, 9), sb(0, 9);
    EXPECT_EQ(prequential(*a, sa, 3000), prequential(*b, sb, 3000)) << option;
    EXPECT_EQ(bytes(*a), bytes(*b)) << option;
  }
}

}  // namespace
}  // namespace irithyll
