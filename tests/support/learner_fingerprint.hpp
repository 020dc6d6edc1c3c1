// Behaviour fingerprint of a streaming learner: one 64-bit FNV-1a hash of
// everything it outputs on a fixed stream, so that a refactor that must not
// change behaviour can be pinned to the exact bits it had before.
//
// The stream is Friedman #1 (ten U[0, 1) features, y = 10 sin(pi x1 x2) +
// 20 (x3 - 0.5)^2 + 10 x4 + 5 x5 + N(0, 1)), for classification cut into three
// classes by the noise-free target, with hostile samples mixed in on fixed
// schedules: a NaN or infinite feature, a NaN target, a zero or negative
// weight, a sample of the wrong width. Hashed, in order: every predict_one
// (and, for classification, every predict_proba_one) before learn_one, the
// checkpoint bytes at the end, predictions of a learner decoded from those
// bytes on more samples, its final checkpoint, n_samples_seen, and the
// predictions after reset() on a short stream; then the messages that refuse
// each truncation of the checkpoint's first bytes.
//
// The pinned hashes hold for one toolchain and instruction set (GCC, x86-64
// with AVX-512F/DQ/VL, where the dense and hi32 matrix kernels dispatch to
// their 8-lane paths) in an optimised, uninstrumented build. An AVX2-only CPU
// runs the 4-lane paths, whose sums associate differently and so end in other
// last bits (an AMD EPYC without AVX-512 differs from the pins by one ulp
// from the first prediction on). GCC contracts a*b+c into FMA inside the
// avx2,fma kernels only when it optimises, and the sanitizers'
// instrumentation changes which expressions it contracts (the RelWithDebInfo
// ASan+UBSan build of scripts/test-all computed other last bits for the mamba
// learner). Elsewhere fingerprint_pinned() says to compare only two runs of
// one build, and golden checkpoints compare predictions to 1e-12.
// Header-only; include from any test binary.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/learner.hpp"

namespace irithyll::testing {

struct Fnv1a {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void byte(std::uint8_t b) noexcept { h = (h ^ b) * 0x100000001b3ull; }
  void u64(std::uint64_t v) noexcept {
    for (int i = 0; i < 8; ++i) byte(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void f64(double v) noexcept { u64(std::bit_cast<std::uint64_t>(v)); }
  void bytes(std::span<const std::uint8_t> b) noexcept {
    u64(b.size());
    for (const std::uint8_t v : b) byte(v);
  }
};

// True where the hashes pinned in the tests were recorded (see the banner).
inline bool fingerprint_pinned() {
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__OPTIMIZE__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_UNDEFINED__)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
  return false;
#endif
}

struct FingerprintStream {
  std::vector<std::vector<double>> x;
  std::vector<double> y, w;

  FingerprintStream(Task task, std::size_t n, std::uint64_t seed) {
    Xorshift64 rng(seed);
    for (std::size_t t = 0; t < n; ++t) {
      std::vector<double> v(10);
      for (double& e : v) e = rng.uniform();
      const double d = v[2] - 0.5;
      const double clean = 10.0 * std::sin(std::numbers::pi * v[0] * v[1]) + 20.0 * d * d + 10.0 * v[3] + 5.0 * v[4];
      double target = clean + rng.normal();
      if (task == Task::kClassification) target = clean < 12.0 ? 0.0 : (clean < 17.0 ? 1.0 : 2.0);
      double weight = 1.0;
      if (t % 97 == 41) v[t % 10] = std::numeric_limits<double>::quiet_NaN();
      if (t % 131 == 7) v[(t + 3) % 10] = -std::numeric_limits<double>::infinity();
      if (t % 89 == 13) target = std::numeric_limits<double>::quiet_NaN();
      if (t % 71 == 5) weight = 0.0;
      if (t % 173 == 11) weight = -2.0;
      if (t % 113 == 17) v.resize(7);
      x.push_back(std::move(v));
      y.push_back(target);
      w.push_back(weight);
    }
  }
};

namespace detail {
inline void hash_predictions(Learner& m, const FingerprintStream& s, std::size_t from, std::size_t to, Fnv1a& h) {
  std::vector<double> proba(m.task() == Task::kClassification ? m.n_classes() : 0);
  for (std::size_t t = from; t < to; ++t) {
    h.f64(m.predict_one(s.x[t]));
    if (!proba.empty()) {
      m.predict_proba_one(s.x[t], proba);
      for (const double p : proba) h.f64(p);
    }
    m.learn_one(s.x[t], s.y[t], s.w[t]);
  }
}
inline std::vector<std::uint8_t> checkpoint(const Learner& m) {
  ByteWriter out;
  m.encode(out);
  return out.take();
}
}  // namespace detail

// `fresh` and `blank` are two learners of the same kind: `fresh` as
// configured, `blank` default-constructed (it receives the checkpoint).
// Returns 0 when the checkpoint does not decode.
inline std::uint64_t learner_fingerprint(Learner& fresh, Learner& blank, std::size_t n = 2000, std::uint64_t seed = 7) {
  const FingerprintStream s(fresh.task(), n + 300, seed);
  Fnv1a h;
  detail::hash_predictions(fresh, s, 0, n, h);
  const auto bytes = detail::checkpoint(fresh);
  h.bytes(bytes);
  ByteReader in(bytes);
  if (!blank.decode(in).is_ok()) return 0;
  detail::hash_predictions(blank, s, n, n + 300, h);
  h.bytes(detail::checkpoint(blank));
  h.u64(blank.n_samples_seen());
  blank.reset();
  detail::hash_predictions(blank, s, 0, 150, h);
  return h.h;
}

// Hash of the messages with which a blank learner refuses each truncation of
// the first `head` bytes of `m`'s checkpoint (they name the field that was cut).
template <class L>
std::uint64_t truncation_messages(const Learner& m, std::size_t head = 160) {
  const auto bytes = detail::checkpoint(m);
  Fnv1a h;
  for (std::size_t cut = 0; cut < head && cut < bytes.size(); ++cut) {
    L blank;
    ByteReader in(std::span<const std::uint8_t>(bytes).first(cut));
    const Status st = blank.decode(in);
    h.u64(st.is_ok() ? 1 : 0);
    for (const char ch : st.message()) h.byte(static_cast<std::uint8_t>(ch));
  }
  return h.h;
}

// The context of the stream's three classes.
inline LearnerContext three_classes() {
  LearnerContext c;
  c.task = Task::kClassification;
  c.n_classes = 3;
  return c;
}

// The fingerprint of a learner of type L built from `config` and `context`,
// run twice to show it is deterministic; compared with `pinned` where pins
// hold. Prints the value, so that a deliberate behaviour change can re-pin it.
template <class L>
void expect_fingerprint(const char* label, const typename L::Config& config, const LearnerContext& context,
                        std::uint64_t pinned) {
  L a(config, context), a_blank, b(config, context), b_blank;
  std::uint64_t got = learner_fingerprint(a, a_blank);
  const std::uint64_t messages = truncation_messages<L>(a);
  got ^= messages * 0x9E3779B97F4A7C15ull;
  std::printf("fingerprint %-24s 0x%016llxull\n", label, static_cast<unsigned long long>(got));
  ASSERT_NE(got, 0u) << label << ": the checkpoint did not decode";
  EXPECT_EQ(got, learner_fingerprint(b, b_blank) ^ (truncation_messages<L>(b) * 0x9E3779B97F4A7C15ull))
      << label << ": not deterministic";
  if (fingerprint_pinned()) {
    EXPECT_EQ(got, pinned) << label << ": behaviour changed";
  }
}

}  // namespace irithyll::testing
