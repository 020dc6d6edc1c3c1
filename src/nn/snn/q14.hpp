// Q1.14 fixed-point arithmetic for the integer spiking network: 16384 is 1.0,
// an int16_t spans [-2, 2). Products are formed in 32 or 64 bits and shifted
// back with round-half-up, (a*b + 2^13) >> 14.
//
// The Rust library shifts with a plain arithmetic >> 14, which floors:
// every product of a negative value rounds away from zero, so tiny negative
// updates (-1 units) survive while tiny positive ones vanish. Summed over
// thousands of e-prop steps that bias drags weights and membranes down, one
// cause of the Rust library's silenced hidden layer (rate 0.02 -> 0.0001 in
// 10,000 steps on a sine target).
// Rounding to nearest removes the bias.
//
// Also here: the leaky integrate-and-fire step with subtract reset and the
// piecewise-linear surrogate derivative used by e-prop (Bellec et al. 2020,
// "A solution to the learning dilemma for recurrent networks of spiking
// neurons", Nat. Commun. 11:3625). Everything is integer-only and constexpr;
// the float conversions used at the learner boundary live in to_q14/from_q14.
// Thread-safe (pure functions).
#pragma once

#include <cmath>
#include <cstdint>

namespace irithyll::nn::q14 {

inline constexpr std::int32_t kOne = 16384;
inline constexpr std::int32_t kHalf = 8192;

constexpr std::int16_t sat16(std::int64_t x) noexcept {
  return static_cast<std::int16_t>(x > 32767 ? 32767 : (x < -32768 ? -32768 : x));
}
constexpr std::int32_t sat32(std::int64_t x) noexcept {
  return static_cast<std::int32_t>(x > INT32_MAX ? INT32_MAX : (x < INT32_MIN ? INT32_MIN : x));
}
// a*b in Q14, rounded to nearest (ties up), unsaturated. |a|,|b| < 2^17 fit in 32 bits.
constexpr std::int32_t mul(std::int32_t a, std::int32_t b) noexcept { return (a * b + kHalf) >> 14; }
constexpr std::int64_t mul64(std::int64_t a, std::int64_t b) noexcept { return (a * b + kHalf) >> 14; }

// Leaky integrate-and-fire with subtract reset:
// v' = v*alpha + current; spike when v' >= threshold, then v' -= threshold;
// the membrane saturates to int16. `pre` receives v' before the reset (what
// the surrogate derivative is evaluated at).
struct LifResult {
  std::int16_t v;
  std::int16_t pre;
  bool spike;
};
constexpr LifResult lif_step(std::int16_t v, std::int32_t alpha, std::int32_t current, std::int32_t threshold) noexcept {
  const std::int64_t vp = static_cast<std::int64_t>(mul(v, alpha)) + current;
  const bool spike = vp >= threshold;
  return LifResult{sat16(spike ? vp - threshold : vp), sat16(vp), spike};
}

// Triangular surrogate: gamma * (thr - |v - thr|) / thr inside |v - thr| < thr, else 0.
// REQUIRES: threshold > 0, 0 <= gamma <= 32767.
constexpr std::int16_t surrogate(std::int16_t v, std::int32_t threshold, std::int32_t gamma) noexcept {
  const std::int32_t dist = v >= threshold ? v - threshold : threshold - v;
  if (dist >= threshold) return 0;
  return static_cast<std::int16_t>(static_cast<std::int64_t>(gamma) * (threshold - dist) / threshold);
}

// The same surrogate with the division by the threshold replaced by Lemire's
// exact 32-bit division by multiplication (Lemire, Kaser & Kurz 2019, "Faster
// remainder by direct computation"): floor(a / d) = (M * a) >> 64 with
// M = floor((2^64 - 1) / d) + 1, exact for every 32-bit a and d >= 2.
// `magic` comes from surrogate_magic(threshold); threshold 1 is handled apart.
constexpr std::uint64_t surrogate_magic(std::int32_t threshold) noexcept {
  return threshold <= 1 ? 0 : UINT64_MAX / static_cast<std::uint64_t>(threshold) + 1;
}
constexpr std::int16_t surrogate_fast(std::int16_t v, std::int32_t threshold, std::int32_t gamma,
                                      std::uint64_t magic) noexcept {
  const std::int32_t dist = v >= threshold ? v - threshold : threshold - v;
  if (dist >= threshold) return 0;
  const auto a = static_cast<std::uint32_t>(gamma * (threshold - dist));  // < 2^29 by the config bounds
  if (threshold <= 1) return static_cast<std::int16_t>(a);
  __extension__ using U128 = unsigned __int128;
  return static_cast<std::int16_t>(static_cast<std::uint64_t>((static_cast<U128>(magic) * a) >> 64));
}

// Boundary conversions (not used inside the step): clamp, then round to nearest.
inline std::int16_t to_q14(double x) noexcept {
  if (!(x == x)) return 0;  // NaN
  const double s = x * kOne;
  if (s >= 32767.0) return 32767;
  if (s <= -32768.0) return -32768;
  return static_cast<std::int16_t>(std::lround(s));
}
inline double from_q14(std::int32_t q) noexcept { return static_cast<double>(q) / kOne; }

}  // namespace irithyll::nn::q14
