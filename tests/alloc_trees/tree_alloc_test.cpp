// Heap-allocation audit of hoeffding_tree and arf. Global operator new is
// replaced by a counting version (own binary: the replacement is global).
// After a warm-up, prequential steps (predict_proba + predict + learn) that
// change no structure (no split, no background tree started or swapped in)
// must allocate nothing; structural events may allocate (a split adds
// nodes and a leaf slot, a background tree is a new tree). SGBT's training
// pipeline (threads >= 2) hands samples between its stages without
// allocating.
#include <gtest/gtest.h>

#include "ensemble/sgbt_pipeline.hpp"
#include "irithyll/ensemble/arf.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"
#include "support/alloc_counter.hpp"
#include "tree/streams.hpp"

namespace irithyll {
namespace {

template <class Model, class Fingerprint>
void audit(Model& m, Fingerprint structure, int warmup, int steps, int min_steady) {
  test::LineStream s;
  for (int i = 0; i < warmup; ++i) {
    const double y = s.next();
    m.learn_one(s.x, y);
  }
  double proba[2];
  long steady_allocs = 0, steady_steps = 0;
  for (int i = 0; i < steps; ++i) {
    const double y = s.next();
    const auto before = structure(m);
    const long a0 = test::allocation_count();
    m.predict_proba_one(s.x, proba);
    (void)m.predict_one(s.x);
    m.learn_one(s.x, y);
    const long used = test::allocation_count() - a0;
    if (structure(m) == before) steady_allocs += used, ++steady_steps;
  }
  EXPECT_EQ(steady_allocs, 0) << "over " << steady_steps << " steps without structural change";
  EXPECT_GT(steady_steps, min_steady);
}

TEST(TreeAlloc, HoeffdingTreeSteadyStepsAllocateNothing) {
  for (NumericEstimator e : {NumericEstimator::kGaussian, NumericEstimator::kHistogram}) {
    HoeffdingTreeConfig c;
    c.numeric = e;
    auto m = HoeffdingTreeLearner::make(c, {Task::kClassification, 2, 4, 1}).value();
    audit(*m, [](const HoeffdingTreeLearner& t) { return t.tree()->n_nodes(); }, 5000, 5000, 4000);
  }
}

TEST(TreeAlloc, ArfSteadyStepsAllocateNothing) {
  auto m = AdaptiveRandomForest::make(ARFConfig{}, {Task::kClassification, 2, 4, 1}).value();
  auto fingerprint = [](const AdaptiveRandomForest& f) {
    return f.n_nodes() * 1000003u + f.n_warnings() * 1009u + f.n_drifts();
  };
  audit(*m, fingerprint, 5000, 5000, 1000);
}

TEST(TreeAlloc, SgbtPipelineHandOversAllocateNothing) {
  // The count covers the workers too (the counter is global): no stage and
  // no hand-over allocates, however many stages.
  for (std::size_t workers : {1u, 3u, 7u}) {
    std::vector<SGBTPipeline::Stage> stages(workers, [](const SGBTPipeline::Sample& s) {
      return s.current + s.x[0] + (s.counts.empty() ? 0.0 : 1.0);
    });
    auto p = SGBTPipeline::make(3, workers, std::move(stages));
    ASSERT_NE(p, nullptr);
    const double x[3] = {1.0, 2.0, 3.0};
    std::vector<std::uint32_t> draws(workers, 1);
    for (int t = 0; t < 200; ++t) p->push(x, 0.0, 1.0, 0.0, 0.1, 0.0, 1.0, draws);
    p->wait_idle();
    const long a0 = test::allocation_count();
    for (int t = 0; t < 5000; ++t) {
      p->push(x, 1.0, 1.0, 0.0, 0.1, 0.5, 1.0, t % 2 ? std::span<const std::uint32_t>(draws) : std::span<const std::uint32_t>());
      if (t % 1000 == 999) p->wait_idle();
    }
    p->wait_idle();
    EXPECT_EQ(test::allocation_count() - a0, 0) << workers << " workers";
  }
}

// On a worker pool: handing a sample to the workers allocates nothing, and
// the counter (atomic, every thread) sees the workers' allocations too.
TEST(TreeAlloc, ArfOnThreeThreadsSteadyStepsAllocateNothing) {
  ARFConfig c;
  c.threads = 3;
  auto m = AdaptiveRandomForest::make(c, {Task::kClassification, 2, 4, 1}).value();
  auto fingerprint = [](const AdaptiveRandomForest& f) {
    return f.n_nodes() * 1000003u + f.n_warnings() * 1009u + f.n_drifts();
  };
  audit(*m, fingerprint, 5000, 5000, 1000);
}

}  // namespace
}  // namespace irithyll
