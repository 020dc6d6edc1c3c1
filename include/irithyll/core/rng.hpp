// Xorshift64: the library's one pseudo-random generator (Marsaglia 2003,
// shifts 13/7/17). Tiny, fast, and bit-reproducible across platforms, which is
// what seed-determinism tests need. Not cryptographic. One instance per owner;
// never shared between threads.
//
// Seed 0 is the generator's fixed point, so it is replaced by a fixed non-zero
// constant (the Rust library keeps 0 and then emits zeros forever; we don't).
#pragma once

#include <cmath>
#include <cstdint>

namespace irithyll {

class Xorshift64 {
 public:
  static constexpr std::uint64_t kZeroSeedReplacement = 0x9E3779B97F4A7C15ull;

  explicit constexpr Xorshift64(std::uint64_t seed = 42) noexcept
      : state_(seed == 0 ? kZeroSeedReplacement : seed) {}

  constexpr std::uint64_t next_u64() noexcept {
    std::uint64_t x = state_;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    state_ = x;
    return x;
  }

  // Uniform in [0, 1) with 53 random bits.
  constexpr double uniform() noexcept {
    return static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0);
  }

  // Uniform in [lo, hi).
  constexpr double uniform(double lo, double hi) noexcept { return lo + (hi - lo) * uniform(); }

  // Uniform integer in [0, n); n > 0. Lemire's multiply-shift (bias < 2^-64 * n).
  std::uint64_t below(std::uint64_t n) noexcept {
    __extension__ using U128 = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<U128>(next_u64()) * n) >> 64);
  }

  // Standard normal by Box-Muller; one draw per call (u1 redrawn while 0).
  double normal() noexcept {
    double u1 = uniform();
    while (u1 <= 0.0) u1 = uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

  double normal(double mean, double stddev) noexcept { return mean + stddev * normal(); }

  constexpr std::uint64_t state() const noexcept { return state_; }
  constexpr void set_state(std::uint64_t s) noexcept { state_ = s == 0 ? kZeroSeedReplacement : s; }

 private:
  std::uint64_t state_;
};

// The seed of sub-model `stream` of a model seeded `seed` (bags, experts,
// gates): a SplitMix64 finaliser of (seed, stream), so siblings differ and
// neighbouring model seeds share nothing.
constexpr std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) noexcept {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (stream + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace irithyll
