// Shared checks for learners with a continual-learning guard (nn/continual):
// a stream with an abrupt change, the prequential error after the change,
// and bit-identical resume through encode/decode with every truncation of
// the record rejected. Header-only; include from any test binary.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/learner.hpp"
#include "support/encoded.hpp"

namespace irithyll::testing {

// One-step prediction of a noisy sine from its last `lags` values; the
// frequency switches from 0.3 to 1.1 rad/sample at `switch_at` and the sign
// of the target flips too, so the regime after the change shares nothing
// useful with the one before it.
struct SwitchStream {
  std::size_t lags = 4;
  std::size_t switch_at = 3000;
  std::vector<std::vector<double>> x;
  std::vector<double> y;

  SwitchStream(std::uint64_t seed, std::size_t n, std::size_t lags_ = 4, std::size_t switch_at_ = 3000)
      : lags(lags_), switch_at(switch_at_) {
    Xorshift64 rng(seed);
    std::vector<double> s(n + lags + 1);
    double phase = rng.uniform(0.0, 6.28);
    for (std::size_t t = 0; t < s.size(); ++t) {
      const bool after = t >= switch_at + lags;
      phase += after ? 1.1 : 0.3;
      s[t] = (after ? -1.0 : 1.0) * std::sin(phase) + 0.05 * rng.normal();
    }
    for (std::size_t t = 0; t < n; ++t) {
      x.emplace_back(s.begin() + static_cast<std::ptrdiff_t>(t), s.begin() + static_cast<std::ptrdiff_t>(t + lags));
      y.push_back(s[t + lags]);
    }
  }
};

// Prequential RMSE over [from, to) while learning the whole stream.
template <class M>
double prequential_rmse(M& m, const SwitchStream& s, std::size_t from, std::size_t to) {
  double se = 0.0;
  for (std::size_t t = 0; t < s.y.size(); ++t) {
    if (t >= from && t < to) {
      const double e = m.predict_one(s.x[t]) - s.y[t];
      se += e * e;
    }
    m.learn_one(s.x[t], s.y[t]);
  }
  return std::sqrt(se / static_cast<double>(to - from));
}

// a has learned s[0, k); a fresh learner decoded from a's bytes must then
// predict and encode bit-identically to a on s[k, end). Every truncated
// prefix of the bytes must be refused and leave the target unchanged.
template <class L>
void check_bit_identical_resume(L& a, const SwitchStream& s, std::size_t k) {
  const auto bytes = encoded(a);
  L b;
  const auto empty = encoded(b);
  for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + bytes.size() / 211) {
    ByteReader in(std::span<const std::uint8_t>(bytes).first(cut));
    EXPECT_FALSE(b.decode(in).is_ok()) << "truncated at " << cut << " of " << bytes.size();
    ASSERT_EQ(encoded(b), empty) << "a refused record changed the learner (cut " << cut << ")";
  }
  ByteReader in(bytes);
  const Status st = b.decode(in);
  ASSERT_TRUE(st.is_ok()) << st.message();
  ASSERT_EQ(encoded(b), bytes);
  for (std::size_t t = k; t < s.y.size(); ++t) {
    const double pa = a.predict_one(s.x[t]), pb = b.predict_one(s.x[t]);
    ASSERT_EQ(std::bit_cast<std::uint64_t>(pa), std::bit_cast<std::uint64_t>(pb)) << "sample " << t;
    a.learn_one(s.x[t], s.y[t]);
    b.learn_one(s.x[t], s.y[t]);
  }
  EXPECT_EQ(encoded(a), encoded(b));
}

}  // namespace irithyll::testing
