#include "cluster/weighted_kmeans.hpp"

#include <algorithm>
#include <limits>

namespace irithyll::cluster_detail {
namespace {

// Index drawn with probability proportional to mass[i]; uniform when the
// total is zero (every point already a centre).
std::size_t draw(std::span<const double> mass, Xorshift64& rng) {
  double total = 0.0;
  for (const double m : mass) total += m;
  if (!(total > 0.0)) return static_cast<std::size_t>(rng.below(mass.size()));
  double u = rng.uniform() * total;
  for (std::size_t i = 0; i < mass.size(); ++i) {
    u -= mass[i];
    if (u < 0.0) return i;
  }
  return mass.size() - 1;
}

WeightedKMeansResult one_run(std::span<const double> pts, std::span<const double> w, std::size_t d, std::size_t k,
                             Xorshift64& rng, int max_iterations) {
  const std::size_t n = w.size();
  WeightedKMeansResult r;
  r.centres.assign(k * d, 0.0);
  std::vector<double> best_d2(n, std::numeric_limits<double>::infinity()), mass(n);
  std::size_t first = draw(w, rng);
  std::copy_n(&pts[first * d], d, r.centres.begin());
  for (std::size_t c = 1; c < k; ++c) {
    for (std::size_t i = 0; i < n; ++i) {
      best_d2[i] = std::min(best_d2[i], squared_distance(&pts[i * d], &r.centres[(c - 1) * d], d));
      mass[i] = w[i] * best_d2[i];
    }
    const std::size_t next = draw(mass, rng);
    std::copy_n(&pts[next * d], d, r.centres.begin() + static_cast<std::ptrdiff_t>(c * d));
  }

  std::vector<std::size_t> assign(n, k);
  std::vector<double> sums(k * d);
  r.weights.assign(k, 0.0);
  for (int it = 0; it < max_iterations; ++it) {
    bool changed = false;
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t best = 0;
      double bd = std::numeric_limits<double>::infinity();
      for (std::size_t c = 0; c < k; ++c) {
        const double dd = squared_distance(&pts[i * d], &r.centres[c * d], d);
        if (dd < bd) bd = dd, best = c;
      }
      changed = changed || assign[i] != best;
      assign[i] = best;
    }
    if (!changed && it > 0) break;
    std::fill(sums.begin(), sums.end(), 0.0);
    std::fill(r.weights.begin(), r.weights.end(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      r.weights[assign[i]] += w[i];
      for (std::size_t f = 0; f < d; ++f) sums[assign[i] * d + f] += w[i] * pts[i * d + f];
    }
    // An empty cluster keeps its centre.
    for (std::size_t c = 0; c < k; ++c)
      if (r.weights[c] > 0.0)
        for (std::size_t f = 0; f < d; ++f) r.centres[c * d + f] = sums[c * d + f] / r.weights[c];
  }
  r.inertia = 0.0;
  std::fill(r.weights.begin(), r.weights.end(), 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t best = 0;
    double bd = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < k; ++c) {
      const double dd = squared_distance(&pts[i * d], &r.centres[c * d], d);
      if (dd < bd) bd = dd, best = c;
    }
    r.weights[best] += w[i];
    r.inertia += w[i] * bd;
  }
  return r;
}

}  // namespace

WeightedKMeansResult weighted_kmeans(std::span<const double> points, std::span<const double> weights, std::size_t d,
                                     std::size_t k, Xorshift64& rng, int restarts, int max_iterations) {
  const std::size_t n = weights.size();
  k = std::min(k, n);
  if (k == 0 || d == 0) return {};
  WeightedKMeansResult best;
  best.inertia = std::numeric_limits<double>::infinity();
  for (int r = 0; r < std::max(1, restarts); ++r) {
    WeightedKMeansResult run = one_run(points, weights, d, k, rng, max_iterations);
    if (run.inertia < best.inertia || best.centres.empty()) best = std::move(run);
  }
  return best;
}

}  // namespace irithyll::cluster_detail
