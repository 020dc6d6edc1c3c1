// Running mean and sample variance (Welford 1962), for standardising the KAN's
// inputs and target. The sum of squares starts at 0: a prior on it would hold
// the scale estimate near the prior for a stream with a small spread.
// Internal.
#pragma once

#include <algorithm>
#include <cmath>

#include "irithyll/core/bytes.hpp"

namespace irithyll::nn {

struct Welford {
  double count = 0.0;
  double mean = 0.0;
  double m2 = 0.0;

  void add(double x) noexcept {
    count += 1.0;
    const double d = x - mean;
    mean += d / count;
    m2 += d * (x - mean);
  }
  // Sample standard deviation floored at `floor`; 1 before two samples.
  double stddev(double floor) const noexcept {
    return count >= 2.0 ? std::max(std::sqrt(std::max(m2, 0.0) / (count - 1.0)), floor) : 1.0;
  }
  void encode(ByteWriter& out) const {
    out.f64(count);
    out.f64(mean);
    out.f64(m2);
  }
  // True if the values read are a possible state: no NaN, m2 >= 0, count a
  // whole number. An infinite mean or m2 is possible (a stream of values
  // near the double range), so it is accepted.
  bool decode(ByteReader& in) {
    count = in.f64("kan welford count");
    mean = in.f64("kan welford mean");
    m2 = in.f64("kan welford m2");
    return count >= 0.0 && count <= 9.007199254740992e15 && count == std::floor(count) && mean == mean &&
           m2 >= 0.0;
  }
};

}  // namespace irithyll::nn
