// The vectorised exp / sigmoid / tanh / softplus / SiLU agree with their scalar references
// (std::exp, nn::sigmoid, std::tanh, nn::softplus, x * nn::sigmoid(x)) to a few ulps, including the tails,
// subnormal exp results, signed zeros, +-inf and NaN. Every check runs twice: through
// the dispatched entry points (AVX-512 on CPUs that have it) and through the AVX2
// kernels called directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/primitives.hpp"
#include "nn/vmath.hpp"

namespace irithyll::nn {
namespace {

// Relative error budget: 4 machine epsilons (eps = 2^-52). Measured worst
// case on 1.4*10^7 random points per map (spreads 1e-12 .. 800), in eps:
// AVX-512 exp 1.0, sigmoid 1.5, tanh 2.3, softplus 2.9;
// AVX2 exp 1.0, sigmoid 1.5, tanh 2.3, softplus 2.9.
constexpr double kVmathRelTol = 4.0 * std::numeric_limits<double>::epsilon();

using Fn = void (*)(const double*, double*, std::size_t) noexcept;

struct Path {
  const char* name;
  Fn exp, sigmoid, tanh, softplus;
};

const Path kPaths[] = {
    {"dispatch", vexp, vsigmoid, vtanh, vsoftplus},
    {"avx2", vexp_avx2_kernel, vsigmoid_avx2_kernel, vtanh_avx2_kernel, vsoftplus_avx2_kernel},
};

// Worst relative error of fast against ref over xs (exact agreement required
// for non-finite and zero reference values; subnormal results are compared in
// absolute terms against the smallest normal).
double worst_rel(Fn fast, Fn ref, const std::vector<double>& xs) {
  std::vector<double> a(xs.size()), b(xs.size());
  fast(xs.data(), a.data(), xs.size());
  ref(xs.data(), b.data(), xs.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (std::isnan(b[i])) {
      if (!std::isnan(a[i])) return std::numeric_limits<double>::infinity();
      continue;
    }
    if (!std::isfinite(b[i]) || b[i] == 0.0) {
      if (a[i] != b[i] || std::signbit(a[i]) != std::signbit(b[i])) return std::numeric_limits<double>::infinity();
      continue;
    }
    const double denom = std::max(std::fabs(b[i]), std::numeric_limits<double>::min());
    worst = std::max(worst, std::fabs(a[i] - b[i]) / denom);
  }
  return worst;
}

std::vector<double> draws(std::uint64_t seed, std::size_t n, double spread) {
  Xorshift64 rng(seed);
  std::vector<double> xs(n);
  for (double& x : xs) x = (2.0 * rng.uniform() - 1.0) * spread;
  return xs;
}

TEST(Vmath, BackendNamed) {
  const std::string b = vmath_backend();
  EXPECT_TRUE(b == "avx512" || b == "avx2" || b == "scalar");
}

TEST(Vmath, ExpMatchesReferenceAcrossTheRange) {
  for (const Path& p : kPaths) {
    for (double spread : {1e-8, 0.3, 1.0, 20.0, 700.0}) {
      EXPECT_LE(worst_rel(p.exp, vexp_ref, draws(11, 200001, spread)), kVmathRelTol) << p.name << " " << spread;
    }
  }
}

TEST(Vmath, SigmoidTanhSoftplusMatchReference) {
  for (const Path& p : kPaths) {
    for (double spread : {1e-12, 1e-3, 0.5, 3.0, 25.0, 800.0}) {
      const auto xs = draws(12, 200003, spread);
      EXPECT_LE(worst_rel(p.sigmoid, vsigmoid_ref, xs), kVmathRelTol) << p.name << " " << spread;
      EXPECT_LE(worst_rel(p.tanh, vtanh_ref, xs), kVmathRelTol) << p.name << " " << spread;
      EXPECT_LE(worst_rel(p.softplus, vsoftplus_ref, xs), kVmathRelTol) << p.name << " " << spread;
    }
  }
}

// The table index of the AVX-512 exp is k mod 8 with k = round(8 x / ln2):
// points just either side of every multiple of ln2/16 cross from one entry
// (and one power of two) to the next.
TEST(Vmath, ExpAcrossTableBoundaries) {
  std::vector<double> xs;
  for (int k = -16 * 1075; k <= 16 * 1025; ++k) {
    const double b = k * (std::log(2.0) / 16.0);
    xs.push_back(std::nextafter(b, -1e300));
    xs.push_back(b);
    xs.push_back(std::nextafter(b, 1e300));
  }
  for (const Path& p : kPaths) {
    std::vector<double> a(xs.size()), b(xs.size());
    p.exp(xs.data(), a.data(), xs.size());
    vexp_ref(xs.data(), b.data(), xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (std::isinf(b[i]) || b[i] == 0.0) {
        ASSERT_EQ(a[i], b[i]) << p.name << " " << xs[i];
      } else {
        ASSERT_LE(std::fabs(a[i] - b[i]), kVmathRelTol * std::fabs(b[i]) + std::numeric_limits<double>::denorm_min())
            << p.name << " " << xs[i];
      }
    }
  }
}

TEST(Vmath, EdgeValues) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> xs = {0.0,    -0.0,   1e-310, -1e-310, 709.7,  709.79, 710.0, 1e300, -708.0, -740.0,
                                  -745.0, -746.0, -1e300, inf,     -inf,   nan,    19.0,  19.5,  -20.0,  40.0,
                                  0.5 * std::log(2.0), -0.5 * std::log(2.0), 1e-20, -1e-20, 20.0, -20.0,
                                  20.000001, -20.000001, 19.9999, 0.34657, 0.3466, -nan, 5e-324, -5e-324,
                                  -744.44, -745.13, 709.782712893384, 709.782712893385, -708.3964185322641};
  for (const Path& p : kPaths) {
    // Subnormal exp results round once, so allow one unit of the smallest
    // subnormal on top of the relative budget there.
    std::vector<double> a(xs.size()), b(xs.size());
    p.exp(xs.data(), a.data(), xs.size());
    vexp_ref(xs.data(), b.data(), xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (std::isnan(b[i])) {
        EXPECT_TRUE(std::isnan(a[i])) << p.name << " " << xs[i];
      } else if (std::isinf(b[i]) || b[i] == 0.0) {
        EXPECT_EQ(a[i], b[i]) << p.name << " " << xs[i];
      } else {
        EXPECT_LE(std::fabs(a[i] - b[i]),
                  kVmathRelTol * std::fabs(b[i]) + std::numeric_limits<double>::denorm_min())
            << p.name << " " << xs[i];
      }
    }
    EXPECT_LE(worst_rel(p.sigmoid, vsigmoid_ref, xs), kVmathRelTol) << p.name;
    EXPECT_LE(worst_rel(p.tanh, vtanh_ref, xs), kVmathRelTol) << p.name;
    EXPECT_LE(worst_rel(p.softplus, vsoftplus_ref, xs), kVmathRelTol) << p.name;
  }
}

// Typical accuracy, not just the worst case: the mean distance to the
// reference in units in the last place of the reference, per kernel, over 8
// seeds x 100000 draws. Budgets are ~1.5x the measured maximum over the
// seeds (in parentheses, AVX-512 / AVX2); the worst-case tests above would
// not notice, e.g., a table entry off by an ulp or a doubly rounded step.
double mean_ulps(Fn fast, Fn ref, const std::vector<double>& xs) {
  std::vector<double> a(xs.size()), b(xs.size());
  fast(xs.data(), a.data(), xs.size());
  ref(xs.data(), b.data(), xs.size());
  double sum = 0.0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double mag = std::fabs(b[i]);
    if (!std::isfinite(mag)) continue;  // the exact-match tests cover these
    const double ulp = std::nextafter(mag, std::numeric_limits<double>::infinity()) - mag;
    sum += std::fabs(a[i] - b[i]) / ulp;
  }
  return sum / static_cast<double>(xs.size());
}

TEST(Vmath, MeanUlpDistanceWithinBudget) {
  struct Budget {
    int map;  // 0 exp, 1 sigmoid, 2 tanh, 3 softplus
    double spread, avx512, avx2;
  };
  const Budget budgets[] = {
      {0, 1.0, 0.02, 0.15},   {0, 20.0, 0.02, 0.15},  // (0.011 / 0.096)
      {1, 1.0, 0.012, 0.075}, {1, 20.0, 0.012, 0.075},  // (0.006 / 0.048)
      {2, 1.0, 0.26, 0.22},   {2, 3.0, 0.8, 0.8},     // (0.177 / 0.146), (0.53 / 0.51)
      {2, 20.0, 1.0, 1.0},                            // (0.69 / 0.70)
      {3, 1.0, 0.3, 0.35},    {3, 20.0, 0.42, 0.45},  // (0.185 / 0.23), (0.27 / 0.30)
  };
  const Fn refs[] = {vexp_ref, vsigmoid_ref, vtanh_ref, vsoftplus_ref};
  const std::string backend = vmath_backend();
  for (const Path& p : kPaths) {
    const Fn fast[] = {p.exp, p.sigmoid, p.tanh, p.softplus};
    // Which kernel this path runs here decides its budget; the reference
    // itself must agree exactly.
    const std::string kernel = std::string(p.name) == "dispatch" ? backend : "avx2";
    for (const Budget& bud : budgets) {
      const double budget = kernel == "avx512" ? bud.avx512 : kernel == "avx2" ? bud.avx2 : 0.0;
      for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        const double m = mean_ulps(fast[bud.map], refs[bud.map], draws(100 + seed, 100000, bud.spread));
        EXPECT_LE(m, budget) << p.name << " map " << bud.map << " spread " << bud.spread << " seed " << seed;
      }
    }
  }
}

TEST(Vmath, InPlaceAndEveryTailLength) {
  const Fn refs[] = {vexp_ref, vsigmoid_ref, vtanh_ref, vsoftplus_ref};
  for (const Path& p : kPaths) {
    const Fn fast[] = {p.exp, p.sigmoid, p.tanh, p.softplus};
    for (int f = 0; f < 4; ++f) {
      for (std::size_t n = 0; n <= 35; ++n) {
        auto xs = draws(13 + n, n, 4.0);
        std::vector<double> ref(n), guard(n + 1, 7.0);
        refs[f](xs.data(), ref.data(), n);
        // Writing n elements must not touch element n.
        fast[f](xs.data(), guard.data(), n);
        EXPECT_EQ(guard[n], 7.0) << p.name << " " << f << " " << n;
        fast[f](xs.data(), xs.data(), n);
        for (std::size_t i = 0; i < n; ++i) {
          EXPECT_NEAR(xs[i], ref[i], kVmathRelTol * std::fabs(ref[i])) << p.name << " " << f << " " << n;
        }
      }
    }
  }
}

// SiLU, x * sigmoid(x), agrees with its scalar reference to 1e-12 relative.
// Measured on AVX2 over 6e6 draws: 2.0 eps worst for x > -708; where
// sigmoid(x) is subnormal (-750 < x < -708) its absolute error, scaled by |x|,
// reaches 1.6e-13 of the smallest normal, which the budget covers. The limits
// at +-inf are +inf and -0.
constexpr double kSiluRelTol = 1e-12;
const Fn kSiluPaths[] = {vsilu, vsilu_avx2_kernel};

TEST(VmathSilu, ReferenceIsXTimesSigmoidWithItsLimits) {
  const double inf = std::numeric_limits<double>::infinity();
  double in[] = {0.0, 1.0, -1.0, 3.5, -800.0, -inf, inf, std::numeric_limits<double>::quiet_NaN()};
  double out[std::size(in)];
  vsilu_ref(in, out, std::size(in));
  EXPECT_EQ(out[0], 0.0);
  EXPECT_DOUBLE_EQ(out[1], 1.0 / (1.0 + std::exp(-1.0)));
  EXPECT_DOUBLE_EQ(out[2], -std::exp(-1.0) / (1.0 + std::exp(-1.0)));
  EXPECT_DOUBLE_EQ(out[3], 3.5 * sigmoid(3.5));
  EXPECT_EQ(out[4], 0.0);
  EXPECT_TRUE(std::signbit(out[4]));
  EXPECT_EQ(out[5], 0.0);  // limit of x sigmoid(x) as x -> -inf, not inf * 0 = NaN
  EXPECT_TRUE(std::signbit(out[5]));
  EXPECT_EQ(out[6], inf);
  EXPECT_TRUE(std::isnan(out[7]));
}

TEST(VmathSilu, FastMatchesReferenceAcrossScales) {
  for (Fn f : kSiluPaths) {
    for (double spread : {1e-12, 1e-3, 0.5, 3.0, 25.0, 800.0, 1e300}) {
      Xorshift64 rng(31);
      std::vector<double> xs(100003);
      for (double& x : xs) x = (2.0 * rng.uniform() - 1.0) * spread;
      EXPECT_LE(worst_rel(f, vsilu_ref, xs), kSiluRelTol) << spread;
    }
  }
}

TEST(VmathSilu, FastMatchesReferenceOnEdges) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> xs = {0.0,    -0.0,   1e-310, -1e-310, 5e-324, -5e-324, 709.7,  710.0, 1e300, -1e300,
                                  -708.0, -708.4, -720.0, -740.0,  -744.4, -745.13, -746.0, -749.9, -750.0, -750.1,
                                  -1e4,   inf,    -inf,   nan,     -nan,   20.0,    -20.0,  36.0,  -36.0,  1e-20};
  for (Fn f : kSiluPaths) EXPECT_LE(worst_rel(f, vsilu_ref, xs), kSiluRelTol);
}

TEST(VmathSilu, InPlaceAndEveryTailLength) {
  for (Fn f : kSiluPaths) {
    for (std::size_t n = 0; n <= 19; ++n) {
      std::vector<double> xs(n);
      for (std::size_t i = 0; i < n; ++i) xs[i] = 0.7 * static_cast<double>(i) - 5.0;
      std::vector<double> want(n);
      vsilu_ref(xs.data(), want.data(), n);
      f(xs.data(), xs.data(), n);  // in place
      for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(xs[i], want[i], kSiluRelTol * std::fabs(want[i])) << n << " " << i;
    }
  }
}

}  // namespace
}  // namespace irithyll::nn
