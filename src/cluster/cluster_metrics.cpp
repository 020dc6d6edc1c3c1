#include "irithyll/cluster/cluster_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace irithyll {
namespace {

// Dense codes 0..m-1 for the distinct values, in sorted order.
std::vector<std::size_t> codes(std::span<const std::int64_t> v, std::size_t& m) {
  std::vector<std::int64_t> sorted(v.begin(), v.end());
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  m = sorted.size();
  std::vector<std::size_t> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    out[i] = static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), v[i]) - sorted.begin());
  return out;
}

double choose2(double n) { return n * (n - 1.0) / 2.0; }

}  // namespace

double cluster_purity(std::span<const std::int64_t> clusters, std::span<const std::int64_t> labels) {
  const std::size_t n = std::min(clusters.size(), labels.size());
  if (n == 0) return 1.0;
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> table;
  for (std::size_t i = 0; i < n; ++i) ++table[{clusters[i], labels[i]}];
  std::map<std::int64_t, std::size_t> best;
  for (const auto& [key, count] : table) best[key.first] = std::max(best[key.first], count);
  std::size_t hit = 0;
  for (const auto& [cluster, count] : best) hit += count;
  return static_cast<double>(hit) / static_cast<double>(n);
}

double adjusted_rand_index(std::span<const std::int64_t> clusters, std::span<const std::int64_t> labels) {
  const std::size_t n = std::min(clusters.size(), labels.size());
  if (n < 2) return 1.0;
  std::size_t kc = 0, kl = 0;
  const std::vector<std::size_t> c = codes(clusters.first(n), kc), l = codes(labels.first(n), kl);
  std::map<std::pair<std::size_t, std::size_t>, double> table;
  std::vector<double> rows(kc, 0.0), cols(kl, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    table[{c[i], l[i]}] += 1.0;
    rows[c[i]] += 1.0;
    cols[l[i]] += 1.0;
  }
  double index = 0.0, a = 0.0, b = 0.0;
  for (const auto& [key, v] : table) index += choose2(v);
  for (const double v : rows) a += choose2(v);
  for (const double v : cols) b += choose2(v);
  const double expected = a * b / choose2(static_cast<double>(n));
  const double max_index = (a + b) / 2.0;
  if (max_index == expected) return 1.0;  // both partitions trivial
  return (index - expected) / (max_index - expected);
}

double silhouette_score(std::span<const double> points, std::size_t d, std::span<const std::int64_t> clusters) {
  if (d == 0) return 0.0;
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < clusters.size() && (i + 1) * d <= points.size(); ++i)
    if (clusters[i] != -1) idx.push_back(i);
  std::vector<std::int64_t> kept(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) kept[i] = clusters[idx[i]];
  std::size_t k = 0;
  const std::vector<std::size_t> code = codes(kept, k);
  if (k < 2) return 0.0;
  std::vector<double> size(k, 0.0);
  for (const std::size_t c : code) size[c] += 1.0;
  std::vector<double> sum(k);
  double total = 0.0;
  for (std::size_t i = 0; i < idx.size(); ++i) {
    std::fill(sum.begin(), sum.end(), 0.0);
    const double* p = &points[idx[i] * d];
    for (std::size_t j = 0; j < idx.size(); ++j) {
      if (j == i) continue;
      const double* q = &points[idx[j] * d];
      double s = 0.0;
      for (std::size_t f = 0; f < d; ++f) s += (p[f] - q[f]) * (p[f] - q[f]);
      sum[code[j]] += std::sqrt(s);
    }
    const std::size_t own = code[i];
    if (size[own] < 2.0) continue;  // a singleton scores 0
    const double a = sum[own] / (size[own] - 1.0);
    double b = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < k; ++c)
      if (c != own && size[c] > 0.0) b = std::min(b, sum[c] / size[c]);
    const double m = std::max(a, b);
    total += m > 0.0 ? (b - a) / m : 0.0;
  }
  return total / static_cast<double>(idx.size());
}

}  // namespace irithyll
