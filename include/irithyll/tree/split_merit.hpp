// Split merits and the Hoeffding bound used by the streaming decision trees
// (irithyll/tree/vfdt.hpp).
//
//   entropy_bits(w)   Shannon entropy of a weight vector, in bits (or
//                     entropy_bits(w, sum of w) when the sum is at hand)
//   gini_impurity(w)  1 - sum p_c^2
//   hoeffding_bound(R, delta, n) = sqrt(R^2 ln(1/delta) / (2 n)): with
//     probability 1 - delta the mean of n observations of a variable with
//     range R is within this of its expectation (Hoeffding 1963; Domingos &
//     Hulten 2000, eq. 1).
//
// Cost: O(len). Pure functions; thread-safe.
#pragma once

#include <cmath>
#include <span>

namespace irithyll {

// Entropy of w whose sum the caller already has (total == the sum of w in
// index order, as entropy_bits computes it).
inline double entropy_bits(std::span<const double> w, double total) {
  if (!(total > 0.0)) return 0.0;
  double h = 0.0;
  for (double x : w)
    if (x > 0.0) h -= x / total * std::log2(x / total);
  return h;
}

inline double entropy_bits(std::span<const double> w) {
  double total = 0.0;
  for (double x : w) total += x;
  return entropy_bits(w, total);
}

inline double gini_impurity(std::span<const double> w) {
  double total = 0.0;
  for (double x : w) total += x;
  if (!(total > 0.0)) return 0.0;
  double g = 1.0;
  for (double x : w) g -= (x / total) * (x / total);
  return g;
}

inline double hoeffding_bound(double range, double delta, double n) {
  return std::sqrt(range * range * std::log(1.0 / delta) / (2.0 * n));
}

}  // namespace irithyll
