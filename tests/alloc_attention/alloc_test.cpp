// Zero heap allocations per token: global operator new is replaced by a
// counting version, and the per-token paths of the attention layer (forward,
// peek, query_state, every mode), the log-linear layer's forward/train_one and
// the attention learner's predict/learn are run after warm-up with the count
// checked to stay at zero.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/aligned.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/nn/attention/attention_learner.hpp"
#include "irithyll/nn/attention/log_linear.hpp"
#include "nn/attention/multi_head.hpp"

#include "support/alloc_counter.hpp"

namespace irithyll::nn {
namespace {

TEST(AllocAttention, CounterSeesAllocations) {
  const long before = test::allocation_count();
  // Direct calls, not new-expressions: a compiler may elide a new/delete pair.
  void* one = ::operator new(16);
  ::operator delete(one);
  void* many = ::operator new[](16);
  ::operator delete[](many);
  EXPECT_GE(test::allocation_count() - before, 2);
  // The layer's packed weights live in over-aligned storage: counted too.
  const long aligned_before = test::allocation_count();
  AlignedVector<std::uint32_t> words(100);
  EXPECT_EQ(test::allocation_count() - aligned_before, 1);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(words.data()) % 64, 0u);
}

TEST(AllocAttention, EveryModeStepsWithoutAllocating) {
  for (std::size_t k = 0; k < kAttentionKindCount; ++k) {
    AttentionConfig c;
    c.d_model = 64;
    c.n_heads = 4;
    c.d_key = 16;
    c.d_value = 16;
    c.mode.kind = static_cast<AttentionKind>(k);
    MultiHeadAttention layer(c);
    Xorshift64 rng(3);
    std::vector<double> x(64), out(64);
    for (double& e : x) e = rng.normal();
    layer.forward(x, out);  // warm-up
    const long before = test::allocation_count();
    for (int t = 0; t < 200; ++t) {
      x[t % 64] = rng.normal();
      layer.forward(x, out);
      layer.peek(x, out);
      layer.query_state(x, out);
    }
    EXPECT_EQ(test::allocation_count() - before, 0) << attention_mode_name(c.mode);
  }
}

TEST(AllocAttention, LogLinearTrainAndLearnerStepWithoutAllocating) {
  LogLinearConfig lc;
  lc.d_model = 16;
  LogLinearAttention ll(lc);
  AttentionLearnerConfig ac;
  ac.attention.mode.kind = AttentionKind::kLogLinear;
  AttentionLearner learner(ac, LearnerContext{Task::kClassification, 3, 6});
  Xorshift64 rng(4);
  std::vector<double> x(16), y(4), out(4), f(6), proba(3);
  for (double& e : x) e = rng.normal();
  ll.train_one(x, y, out);
  learner.learn_one(f, 1.0);
  const long before = test::allocation_count();
  for (int t = 0; t < 200; ++t) {
    for (double& e : x) e = rng.normal();
    for (double& e : f) e = rng.normal();
    ll.train_one(x, y, out);
    ll.query_readonly(x, out);
    learner.predict_proba_one(f, proba);
    (void)learner.predict_one(f);
    learner.learn_one(f, static_cast<double>(t % 3));
  }
  EXPECT_EQ(test::allocation_count() - before, 0);
}

// The paper's log-linear forms train without allocating either.
TEST(AllocAttention, LogLinearPaperFormsTrainWithoutAllocating) {
  for (LogLinearForm form : {LogLinearForm::kMamba2, LogLinearForm::kGatedDeltaNet}) {
    LogLinearConfig lc;
    lc.d_model = 16;
    lc.form = form;
    lc.max_levels = 6;
    LogLinearAttention ll(lc);
    Xorshift64 rng(5);
    std::vector<double> x(16), y(4), out(4);
    for (double& e : x) e = rng.normal();
    ll.train_one(x, y, out);
    const long before = test::allocation_count();
    for (int t = 0; t < 200; ++t) {
      for (double& e : x) e = rng.normal();
      ll.train_one(x, y, out);
      ll.peek(x, out);
      ll.query_readonly(x, out);
    }
    EXPECT_EQ(test::allocation_count() - before, 0);
  }
}

}  // namespace
}  // namespace irithyll::nn
