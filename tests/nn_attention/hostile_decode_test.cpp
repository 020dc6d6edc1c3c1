// Corrupted checkpoints never crash the decoders: random byte flips of valid
// encodings either decode to a usable model or fail with a Status.
#include <gtest/gtest.h>

#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/nn/attention/attention_learner.hpp"
#include "irithyll/nn/attention/log_linear_learner.hpp"

namespace irithyll::nn {
namespace {

template <class T>
void flip_and_decode(const T& model, std::size_t n_features) {
  ByteWriter w;
  model.encode(w);
  Xorshift64 rng(77);
  std::vector<double> x(n_features, 0.5);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::uint8_t> bytes = w.data();
    const int flips = 1 + static_cast<int>(rng.below(4));
    for (int f = 0; f < flips; ++f) bytes[rng.below(bytes.size())] ^= static_cast<std::uint8_t>(1u << rng.below(8));
    T d;
    ByteReader r(bytes);
    if (d.decode(r).is_ok()) {
      // Whatever decoded must run without crashing.
      (void)d.predict_one(x);
      d.learn_one(x, 0.0);
    }
  }
}

TEST(HostileDecode, AttentionAndLogLinearLearnersSurviveBitFlips) {
  const LearnerContext three{Task::kRegression, 0, 3};
  AttentionLearnerConfig ac;
  ac.attention.d_model = 8;
  ac.attention.n_heads = 2;
  ac.attention.d_key = 2;
  ac.attention.d_value = 2;
  ac.attention.mode.kind = AttentionKind::kLogLinear;
  ac.attention.mode.max_levels = 4;
  AttentionLearner a(ac, three);
  LogLinearLearnerConfig lc;
  lc.layer.d_model = 4;
  lc.layer.d_key = 2;
  lc.layer.d_value = 2;
  lc.layer.max_levels = 4;
  LogLinearLearner l(lc, three);
  std::vector<double> x{0.1, -0.2, 0.3};
  for (int t = 0; t < 10; ++t) {
    a.learn_one(x, 1.0);
    l.learn_one(x, 1.0);
  }
  flip_and_decode(a, 3);
  flip_and_decode(l, 3);
}

}  // namespace
}  // namespace irithyll::nn
