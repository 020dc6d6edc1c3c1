#include "histogram/bin_edges.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace irithyll {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

BinEdges::BinEdges() : padded_{-kInf, kInf} {}

BinEdges BinEdges::from_edges(std::span<const double> edges) {
  BinEdges e;
  e.padded_.clear();
  e.padded_.reserve(edges.size() + 2);
  e.padded_.push_back(-kInf);
  e.padded_.insert(e.padded_.end(), edges.begin(), edges.end());
  e.padded_.push_back(kInf);
  return e;
}

BinEdges BinEdges::uniform(double lo, double hi, std::uint32_t n_bins) {
  if (!(hi - lo >= std::numeric_limits<double>::epsilon()) || n_bins < 2) {
    const double single[1] = {lo};
    return from_edges(single);
  }
  const double width = (hi - lo) / static_cast<double>(n_bins);
  std::vector<double> edges;
  edges.reserve(n_bins - 1);
  for (std::uint32_t i = 1; i < n_bins; ++i) {
    const double v = lo + static_cast<double>(i) * width;
    if (edges.empty() || v > edges.back()) edges.push_back(v);
  }
  BinEdges e = from_edges(edges);
  if (edges.size() + 1 == n_bins) {
    e.uniform_ = true;
    e.lo_ = lo;
    e.inv_width_ = 1.0 / width;
  }
  return e;
}

std::uint32_t BinEdges::find_bin_ref(double v) const noexcept {
  // First interior edge >= v; its index (1-based in padded_) minus one is the bin.
  const auto first = padded_.begin() + 1;
  const auto last = padded_.end() - 1;
  return static_cast<std::uint32_t>(std::lower_bound(first, last, v) - first);
}

void BinEdges::encode(ByteWriter& out) const {
  out.f64s(edges());
  out.boolean(uniform_);
  out.f64(lo_);
  out.f64(inv_width_);
}

Status BinEdges::decode(ByteReader& in) {
  const std::vector<double> e = in.f64s("bin edges");
  const bool uniform = in.boolean("uniform flag");
  const double lo = in.f64("uniform lo");
  const double inv = in.f64("uniform inverse width");
  if (!in.ok()) return in.status();
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (!std::isfinite(e[i]) || (i > 0 && !(e[i] > e[i - 1]))) return Status::corruption("bin edges not finite and increasing");
  }
  if (uniform && (!std::isfinite(lo) || !std::isfinite(inv) || !(inv > 0.0) || e.empty()))
    return Status::corruption("bad uniform bin parameters");
  *this = from_edges(e);
  uniform_ = uniform;
  lo_ = lo;
  inv_width_ = inv;
  return Status::ok();
}

}  // namespace irithyll
