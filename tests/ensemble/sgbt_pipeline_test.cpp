// SGBTPipeline alone: a chain of worker stages over one ring must hand every
// sample to every stage in order, each stage starting from the score the
// previous one left, with the caller's draws sliced per stage; wait_idle
// returns only after the last stage. Stages here are arithmetic, so the
// exact expected score of every sample is known.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ensemble/sgbt_pipeline.hpp"

namespace irithyll {
namespace {

// Stage i maps c to 3 c + i + x[0] + draw i. The expected scores run the
// same operations in the same order, so they compare exactly.
double stage_value(double c, std::size_t i, double x0, std::uint32_t draw) {
  return 3.0 * c + static_cast<double>(i) + x0 + static_cast<double>(draw);
}

TEST(SGBTPipeline, EveryStageSeesEverySampleInOrder) {
  for (std::size_t workers : {1u, 2u, 3u, 7u, 63u}) {
    SCOPED_TRACE("workers " + std::to_string(workers));
    constexpr std::size_t kSamples = 1000;  // wraps the ring many times
    std::vector<std::uint64_t> next(workers, 0);  // per stage: the sample it expects (its own thread only)
    std::vector<int> out_of_order(workers, 0);
    std::vector<double> result(kSamples, 0.0);  // written by the last stage
    std::vector<SGBTPipeline::Stage> stages;
    for (std::size_t i = 0; i < workers; ++i)
      stages.emplace_back([&, i, last = i + 1 == workers](const SGBTPipeline::Sample& s) {
        const auto id = static_cast<std::uint64_t>(s.y);
        if (id != next[i]++) ++out_of_order[i];
        const double c = stage_value(s.current, i, s.x[0], s.counts.empty() ? 0u : s.counts[i]);
        if (last) result[id] = c;
        return c;
      });
    auto p = SGBTPipeline::make(2, workers, std::move(stages));
    ASSERT_NE(p, nullptr);
    std::vector<double> expected(kSamples);
    std::vector<std::uint32_t> draws(workers);
    for (std::size_t t = 0; t < kSamples; ++t) {
      const double x[2] = {static_cast<double>(t % 5), 0.0};
      for (std::size_t i = 0; i < workers; ++i) draws[i] = static_cast<std::uint32_t>((t + i) % 3);
      const bool with_draws = t % 2 == 0;
      const double start = static_cast<double>(t % 11);
      double c = start;
      for (std::size_t i = 0; i < workers; ++i) c = stage_value(c, i, x[0], with_draws ? draws[i] : 0u);
      expected[t] = c;
      p->push(x, static_cast<double>(t), 1.0, 0.0, 0.1, start, 1.0,
              with_draws ? std::span<const std::uint32_t>(draws) : std::span<const std::uint32_t>());
      if (t == kSamples / 2) {
        p->wait_idle();
        EXPECT_TRUE(p->idle());
        EXPECT_EQ(result[t], expected[t]);  // the last stage has finished it
      }
    }
    p->wait_idle();
    EXPECT_TRUE(p->idle());
    EXPECT_EQ(result, expected);
    for (std::size_t i = 0; i < workers; ++i) {
      EXPECT_EQ(out_of_order[i], 0) << "stage " << i;
      EXPECT_EQ(next[i], kSamples) << "stage " << i;
    }
  }
}

TEST(SGBTPipeline, ManyWorkersStartAndStop) {
  // threads = 256 on a committee of at least 256 steps: 255 workers start,
  // drain and stop, also when destroyed with samples still queued.
  std::vector<SGBTPipeline::Stage> stages(255, [](const SGBTPipeline::Sample& s) { return s.current + 1.0; });
  auto p = SGBTPipeline::make(1, 0, std::move(stages));
  ASSERT_NE(p, nullptr);
  const double x[1] = {0.0};
  for (int t = 0; t < 100; ++t) p->push(x, 0.0, 1.0, 0.0, 0.1, 0.0, 1.0, {});
  p.reset();  // the destructor drains first
}

}  // namespace
}  // namespace irithyll
