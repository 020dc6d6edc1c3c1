// Seeded Gaussian mixtures for the clustering tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "irithyll/core/rng.hpp"

namespace irithyll::cluster_test {

struct Mixture {
  std::size_t d = 2;
  std::vector<double> means;  // k x d
  double sigma = 1.0;
  std::size_t k() const { return means.size() / d; }
};

// k means on a circle of `radius` in the first two features (other features
// 0), rotated by `angle` radians.
inline Mixture ring(std::size_t k, std::size_t d, double radius, double angle, double sigma) {
  Mixture m;
  m.d = d;
  m.sigma = sigma;
  m.means.assign(k * d, 0.0);
  for (std::size_t j = 0; j < k; ++j) {
    const double a = angle + 6.283185307179586 * static_cast<double>(j) / static_cast<double>(k);
    m.means[j * d] = radius * std::cos(a);
    m.means[j * d + 1] = radius * std::sin(a);
  }
  return m;
}

// One draw: writes x, returns the component.
inline std::size_t draw(const Mixture& m, Xorshift64& rng, std::vector<double>& x) {
  const std::size_t j = static_cast<std::size_t>(rng.below(m.k()));
  x.resize(m.d);
  for (std::size_t f = 0; f < m.d; ++f) x[f] = m.means[j * m.d + f] + m.sigma * rng.normal();
  return j;
}

}  // namespace irithyll::cluster_test
