#include "histogram/quantile_sketch.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace irithyll {

QuantileSketch::QuantileSketch(double epsilon) : eps_(std::clamp(epsilon, 1e-6, 0.5)) {}

Result<QuantileSketch> QuantileSketch::make(double epsilon) {
  if (!(epsilon > 0.0 && epsilon < 1.0))
    return Status::invalid_argument("quantile sketch epsilon must be in (0, 1), got " + std::to_string(epsilon));
  return QuantileSketch(epsilon);
}

void QuantileSketch::reset() {
  n_ = 0;
  tuples_.clear();
}

void QuantileSketch::insert(double v) {
  if (std::isnan(v)) return;
  const auto it = std::upper_bound(tuples_.begin(), tuples_.end(), v, [](double a, const Tuple& t) { return a < t.v; });
  // A new minimum or maximum is known exactly (delta 0); inside, the rank is
  // uncertain by the current band width floor(2 eps n).
  const bool at_edge = it == tuples_.begin() || it == tuples_.end();
  const auto band = static_cast<std::uint64_t>(std::floor(2.0 * eps_ * static_cast<double>(n_)));
  tuples_.insert(it, Tuple{v, 1, at_edge ? 0 : band});
  ++n_;
  const auto period = static_cast<std::uint64_t>(std::max(1.0, std::floor(1.0 / (2.0 * eps_))));
  if (n_ % period == 0) compress();
}

void QuantileSketch::compress() {
  if (tuples_.size() < 3) return;
  const auto cap = static_cast<std::uint64_t>(std::floor(2.0 * eps_ * static_cast<double>(n_)));
  // Merge tuple i into its successor when the merged band still fits; keep the
  // first and last tuples (exact min and max).
  std::vector<Tuple> out;
  out.reserve(tuples_.size());
  out.push_back(tuples_.back());
  for (std::size_t k = tuples_.size() - 1; k-- > 1;) {
    Tuple& next = out.back();
    const Tuple& t = tuples_[k];
    if (t.g + next.g + next.delta <= cap) {
      next.g += t.g;
    } else {
      out.push_back(t);
    }
  }
  out.push_back(tuples_.front());
  std::reverse(out.begin(), out.end());
  tuples_.swap(out);
}

double QuantileSketch::quantile(double phi) const {
  if (tuples_.empty()) return 0.0;
  phi = std::clamp(phi, 0.0, 1.0);
  const double r = std::ceil(phi * static_cast<double>(n_));
  const double slack = eps_ * static_cast<double>(n_);
  double rmin = 0.0;
  for (std::size_t i = 0; i < tuples_.size(); ++i) {
    rmin += static_cast<double>(tuples_[i].g);
    const double rmax = rmin + static_cast<double>(tuples_[i].delta);
    if (r - rmin <= slack && rmax - r <= slack) return tuples_[i].v;
  }
  return tuples_.back().v;
}

void QuantileSketch::encode(ByteWriter& out) const {
  out.f64(eps_);
  out.u64(n_);
  out.u64(tuples_.size());
  for (const Tuple& t : tuples_) {
    out.f64(t.v);
    out.u64(t.g);
    out.u64(t.delta);
  }
}

Status QuantileSketch::decode(ByteReader& in) {
  const double eps = in.f64("sketch epsilon");
  const std::uint64_t n = in.u64("sketch count");
  const std::size_t s = in.read_count(24, "sketch tuples");
  std::vector<Tuple> t(s);
  for (auto& x : t) {
    x.v = in.f64("tuple value");
    x.g = in.u64("tuple g");
    x.delta = in.u64("tuple delta");
  }
  if (!in.ok()) return in.status();
  if (!(eps > 0.0 && eps < 1.0)) return Status::corruption("sketch epsilon out of range");
  eps_ = eps;
  n_ = n;
  tuples_ = std::move(t);
  return Status::ok();
}

}  // namespace irithyll
