// Shared check for ensembles that train their members on a worker pool
// (config.threads): the same seed gives the same predictions before every
// sample and the same checkpoint bytes at the end whatever the thread count.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"
#include "support/encoded.hpp"

namespace irithyll::test {

// One sample of a stream: fills x, returns y. `i` is the sample's index, so a
// stream can drift at a fixed point.
using SampleFn = std::function<double(std::size_t i, std::vector<double>& x)>;

struct ThreadsRun {
  std::vector<double> preds;  // predict_one (then proba, classification) before each learn_one
  std::vector<std::uint8_t> bytes;
  std::uint64_t drifts = 0;
};

// `make(threads)` builds the learner; `drifts(learner)` reads its drift counter.
template <class L>
ThreadsRun run_threads(const std::function<std::unique_ptr<L>(std::uint32_t)>& make, std::uint32_t threads,
                       std::size_t n, std::size_t width, const SampleFn& sample,
                       const std::function<std::uint64_t(const L&)>& drifts) {
  ThreadsRun r;
  auto m = make(threads);
  std::vector<double> x(width), proba(m->n_classes());
  for (std::size_t i = 0; i < n; ++i) {
    const double y = sample(i, x);
    r.preds.push_back(m->predict_one(x));
    if (!proba.empty()) {
      m->predict_proba_one(x, proba);
      r.preds.insert(r.preds.end(), proba.begin(), proba.end());
    }
    m->learn_one(x, y);
  }
  r.bytes = testing::encoded(*m);
  r.drifts = drifts(*m);
  return r;
}

// threads 2, 3, 4 and 7 against 1: bit-identical predictions and bytes.
template <class L>
void expect_same_for_every_thread_count(const std::function<std::unique_ptr<L>(std::uint32_t)>& make, std::size_t n,
                                        std::size_t width, const SampleFn& sample,
                                        const std::function<std::uint64_t(const L&)>& drifts) {
  const ThreadsRun one = run_threads<L>(make, 1, n, width, sample, drifts);
  EXPECT_GT(one.drifts, 0u) << "the stream should make members drift";
  for (std::uint32_t t : {2u, 3u, 4u, 7u}) {
    const ThreadsRun many = run_threads<L>(make, t, n, width, sample, drifts);
    ASSERT_EQ(many.preds.size(), one.preds.size());
    for (std::size_t i = 0; i < one.preds.size(); ++i)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(many.preds[i]), std::bit_cast<std::uint64_t>(one.preds[i]))
          << "threads " << t << ", value " << i;
    EXPECT_EQ(many.bytes, one.bytes) << "threads " << t;
    EXPECT_EQ(many.drifts, one.drifts) << "threads " << t;
  }
}

// Streams for the checks: four features, the concept flips at n / 2.
inline double line_sample(Xorshift64& rng, std::size_t i, std::size_t n, std::vector<double>& x) {
  for (double& v : x) v = rng.uniform();
  bool c = x[0] + x[1] > 1.0;
  if (i >= n / 2) c = !c;
  if (rng.uniform() < 0.05) c = !c;
  return c ? 1.0 : 0.0;
}

inline double drifting_regression_sample(Xorshift64& rng, std::size_t i, std::size_t n, std::vector<double>& x) {
  for (double& v : x) v = rng.uniform();
  const double y = 10.0 * x[0] + 5.0 * x[1] * x[2] + rng.normal();
  return i >= n / 2 ? 20.0 - 2.0 * y : y;
}

// The `threads` row of L's settings table: 4 is taken; 0, 257, a negative
// and a word are refused naming it; make() refuses 0; a forest trained on 3
// threads decodes to threads = 1 and re-encodes to the same bytes (the
// setting is not stored).
template <class L, class Config>
void expect_threads_setting_checked(const char* name) {
  const auto fields = L::config_fields();
  Config c;
  ASSERT_TRUE(apply_settings<Config>(name, fields, ModelSettings{{"threads", "4"}}, c).is_ok());
  EXPECT_EQ(c.threads, 4u);
  for (const char* bad : {"0", "257", "-1", "two"}) {
    Config d;
    const Status s = apply_settings<Config>(name, fields, ModelSettings{{"threads", bad}}, d);
    EXPECT_FALSE(s.is_ok()) << bad;
    EXPECT_NE(s.message().find("threads"), std::string::npos) << s.message();
  }
  c.threads = 0;
  EXPECT_FALSE(L::make(c, {Task::kClassification, 2, 4, 1}).is_ok());
  c.threads = 3;
  auto m = std::move(L::make(c, {Task::kClassification, 2, 4, 1})).value();
  std::vector<double> x{0.1, 0.9, 0.3, 0.4};
  for (int i = 0; i < 200; ++i) m->learn_one(x, static_cast<double>(i % 2));
  const auto bytes = testing::encoded(*m);
  L d;
  ByteReader in(bytes);
  ASSERT_TRUE(d.decode(in).is_ok());
  EXPECT_EQ(d.config().threads, 1u);
  EXPECT_EQ(testing::encoded(d), bytes);
}

}  // namespace irithyll::test
