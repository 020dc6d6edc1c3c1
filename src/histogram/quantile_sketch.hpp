// QuantileSketch: Greenwald-Khanna epsilon-approximate quantile summary
// (Greenwald & Khanna, SIGMOD 2001). After n insertions, quantile(phi) returns
// a value whose rank is within epsilon*n of phi*n.
//
// Cost: insert O(s) worst case for the sorted insert, where the summary size
// s = O((1/eps) log(eps n)); a compress pass every floor(1/(2 eps)) inserts.
// Memory: 3 numbers per stored tuple. Used by the quantile bin strategy only
// during a tree's grace period, so its allocations are structural, not per
// sample in steady state. Thread safety: one owner.
#pragma once

#include <cstdint>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

class QuantileSketch {
 public:
  // REQUIRES: 0 < epsilon < 1 (checked by make(); the constructor clamps).
  explicit QuantileSketch(double epsilon = 0.01);
  static Result<QuantileSketch> make(double epsilon);

  // NaN is ignored.
  void insert(double v);
  // Approximate phi-quantile, phi in [0,1]; 0 when empty.
  double quantile(double phi) const;
  std::uint64_t count() const { return n_; }
  std::size_t size() const { return tuples_.size(); }
  double epsilon() const { return eps_; }
  void reset();
  std::size_t memory_bytes() const { return sizeof(*this) + tuples_.capacity() * sizeof(Tuple); }
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  struct Tuple {
    double v;
    std::uint64_t g;      // rmin(i) - rmin(i-1)
    std::uint64_t delta;  // rmax(i) - rmin(i)
  };
  void compress();

  double eps_;
  std::uint64_t n_ = 0;
  std::vector<Tuple> tuples_;
};

}  // namespace irithyll
