#include "nn/kan/kan_layer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll::nn {
namespace {

struct Fixture {
  KanLayer layer;
  KanLayerScratch scratch;
  Fixture(std::size_t n_in, std::size_t n_out, std::size_t k, std::size_t g, std::uint64_t seed) {
    Xorshift64 rng(seed);
    layer = KanLayer(n_in, n_out, k, g, rng);
    scratch.resize(n_in, k);
  }
};

TEST(KanLayer, ShapeAndParameterCount) {
  Fixture f(4, 3, 3, 8, 1);
  EXPECT_EQ(f.layer.n_in(), 4u);
  EXPECT_EQ(f.layer.n_out(), 3u);
  EXPECT_EQ(f.layer.n_basis(), 11u);
  EXPECT_EQ(f.layer.n_params(), 3u * 4u * (8u + 3u + 2u));
  EXPECT_EQ(f.layer.coefficients().size(), 3u * 4u * 11u);
  for (double w : f.layer.base_weights()) EXPECT_DOUBLE_EQ(w, 0.25);
  for (double w : f.layer.spline_weights()) EXPECT_DOUBLE_EQ(w, 1.0);
}

TEST(KanLayer, ForwardIsFiniteAndBounded) {
  Fixture f(3, 2, 3, 5, 2);
  std::vector<double> out(2);
  for (double v : {-1e300, -3.0, -1.0, 0.0, 0.4, 1.0, 7.0, 1e300}) {
    const std::vector<double> h = {v, -v, 0.5};
    f.layer.forward(h, out, f.scratch, true);
    for (double o : out) EXPECT_TRUE(std::isfinite(o)) << v;
  }
}

// The forward sum equals the edge functions written out by hand.
TEST(KanLayer, ForwardIsTheSumOfEdgeFunctions) {
  Fixture f(2, 1, 2, 4, 3);
  const BSplineBasis basis(2, 4);
  const std::vector<double> h = {0.3, -0.8};
  std::vector<double> out(1);
  f.layer.forward(h, out, f.scratch, false);
  double want = 0.0;
  for (std::size_t i = 0; i < 2; ++i) {
    double v[3];
    const std::size_t span = basis.evaluate(h[i], v, nullptr);
    double s = 0.0;
    for (std::size_t q = 0; q < 3; ++q) s += f.layer.coefficients()[i * 6 + span - 2 + q] * v[q];
    const double silu = h[i] / (1.0 + std::exp(-h[i]));
    want += 0.5 * silu + s;
  }
  EXPECT_NEAR(out[0], want, 1e-14);
}

// Only the k + 1 coefficients active at x change on each edge per step.
TEST(KanLayer, UpdatesAreSparse) {
  for (std::size_t k : {1u, 2u, 3u, 5u}) {
    Fixture f(3, 2, k, 8, 4);
    const std::vector<double> h = {-0.33, 0.12, 0.71};
    std::vector<double> out(2), grad(3);
    const std::vector<double> before(f.layer.coefficients().begin(), f.layer.coefficients().end());
    f.layer.forward(h, out, f.scratch, true);
    const std::vector<double> delta = {0.7, -1.3};
    f.layer.backward(delta, 0.05, 0.0, f.scratch, grad);
    const std::size_t nb = f.layer.n_basis();
    for (std::size_t e = 0; e < 6; ++e) {
      std::size_t changed = 0;
      for (std::size_t b = 0; b < nb; ++b) changed += f.layer.coefficients()[e * nb + b] != before[e * nb + b];
      EXPECT_LE(changed, k + 1) << "k=" << k << " edge " << e;
      EXPECT_GE(changed, 1u) << "k=" << k << " edge " << e;
    }
  }
}

// The input gradient matches a finite difference of the output taken with
// the edge weights the step leaves (backward uses the updated weights); a
// step with lr = 0 moves nothing, so the two agree exactly up to rounding.
TEST(KanLayer, InputGradientMatchesFiniteDifferences) {
  Fixture f(3, 2, 3, 8, 5);
  const std::vector<double> h = {-0.41, 0.27, 0.66};
  const std::vector<double> delta = {1.0, 0.5};
  std::vector<double> out(2), grad(3);
  f.layer.forward(h, out, f.scratch, true);
  f.layer.backward(delta, 0.0, 0.0, f.scratch, grad);
  const double eps = 1e-6;
  for (std::size_t i = 0; i < 3; ++i) {
    std::vector<double> hp = h, hm = h, op(2), om(2);
    hp[i] += eps;
    hm[i] -= eps;
    f.layer.forward(hp, op, f.scratch, false);
    f.layer.forward(hm, om, f.scratch, false);
    const double fd = (delta[0] * (op[0] - om[0]) + delta[1] * (op[1] - om[1])) / (2 * eps);
    EXPECT_NEAR(grad[i], fd, 1e-6) << i;
  }
}

// One layer [1 -> 1] learns y = x^2 on [-1, 1]: the mean squared error of the
// last 1,000 of 20,000 steps is far below the variance of x^2 (4/45 = 0.089).
TEST(KanLayer, LearnsASquare) {
  Fixture f(1, 1, 3, 8, 6);
  Xorshift64 rng(99);
  std::vector<double> out(1), grad(1), h(1), delta(1);
  double late = 0.0;
  for (int t = 0; t < 20000; ++t) {
    h[0] = rng.uniform(-1.0, 1.0);
    f.layer.forward(h, out, f.scratch, true);
    const double e = out[0] - h[0] * h[0];
    if (t >= 19000) late += e * e / 1000.0;
    delta[0] = 2.0 * e;
    f.layer.backward(delta, 0.05, 0.0, f.scratch, grad);
  }
  EXPECT_LT(late, 0.002);
}

TEST(KanLayer, SameSeedSameLayer) {
  Fixture a(3, 2, 3, 8, 11), b(3, 2, 3, 8, 11), c(3, 2, 3, 8, 12);
  EXPECT_TRUE(std::equal(a.layer.coefficients().begin(), a.layer.coefficients().end(),
                         b.layer.coefficients().begin()));
  EXPECT_FALSE(std::equal(a.layer.coefficients().begin(), a.layer.coefficients().end(),
                          c.layer.coefficients().begin()));
}

TEST(KanLayer, MovesAndGradientsAreBounded) {
  Fixture f(2, 1, 3, 8, 7);
  const std::vector<double> h = {0.2, -0.9};
  std::vector<double> out(1), grad(2);
  const std::vector<double> before(f.layer.coefficients().begin(), f.layer.coefficients().end());
  f.layer.forward(h, out, f.scratch, true);
  const std::vector<double> delta = {1e12};
  f.layer.backward(delta, 1e6, 0.0, f.scratch, grad);
  for (std::size_t q = 0; q < before.size(); ++q)
    EXPECT_LE(std::fabs(f.layer.coefficients()[q] - before[q]), 0.5 + 1e-15);
  for (double g : grad) EXPECT_LE(std::fabs(g), 10.0);
  const std::vector<double> bad = {std::nan("")};
  const std::vector<double> snapshot(f.layer.coefficients().begin(), f.layer.coefficients().end());
  f.layer.backward(bad, 0.1, 0.0, f.scratch, grad);  // a non-finite gradient moves nothing
  EXPECT_TRUE(std::equal(snapshot.begin(), snapshot.end(), f.layer.coefficients().begin()));
}

TEST(KanLayer, RepairZeroesNonFiniteAndHalvesTheRest) {
  Fixture f(1, 1, 1, 2, 8);
  ByteWriter w;
  f.layer.encode(w);
  // Rebuild with chosen coefficients through the codec.
  ByteWriter chosen;
  chosen.f64s(std::vector<double>{4.0, -2.0, 1e6});
  chosen.f64s(std::vector<double>{0.0, 0.0, 0.0});
  chosen.f64s(std::vector<double>{1.0});
  chosen.f64s(std::vector<double>{1.0});
  ByteReader r(chosen.data());
  ASSERT_TRUE(f.layer.decode(r, 1, 1, 1, 2).is_ok());
  EXPECT_TRUE(f.layer.coefficients_in_range());
  f.layer.repair_coefficients();
  EXPECT_EQ(std::vector<double>(f.layer.coefficients().begin(), f.layer.coefficients().end()),
            (std::vector<double>{2.0, -1.0, 5e5}));
}

TEST(KanLayer, DecodeRefusesWrongShapesAndValues) {
  Fixture f(2, 2, 3, 4, 9);
  ByteWriter w;
  f.layer.encode(w);
  KanLayer other;
  {
    ByteReader r(w.data());
    EXPECT_TRUE(other.decode(r, 2, 2, 3, 4).is_ok());
  }
  {
    ByteReader r(w.data());
    EXPECT_FALSE(other.decode(r, 2, 2, 3, 5).is_ok());
  }
  ByteWriter bad;
  bad.f64s(std::vector<double>(4 * 7, std::nan("")));
  bad.f64s(std::vector<double>(4 * 7, 0.0));
  bad.f64s(std::vector<double>(4, 1.0));
  bad.f64s(std::vector<double>(4, 1.0));
  ByteReader r(bad.data());
  EXPECT_FALSE(other.decode(r, 2, 2, 3, 4).is_ok());
}

}  // namespace
}  // namespace irithyll::nn
