#include "histogram/feature_binner.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace irithyll {

namespace {
constexpr std::array<BinStrategyRow, 3> kStrategies = {{
    {BinStrategy::kUniform, "uniform"},
    {BinStrategy::kQuantile, "quantile"},
    {BinStrategy::kCategorical, "categorical"},
}};
}  // namespace

std::span<const BinStrategyRow> bin_strategy_table() { return kStrategies; }

Result<BinStrategy> parse_bin_strategy(std::string_view name) {
  for (const auto& r : kStrategies)
    if (r.name == name) return r.strategy;
  return Status::invalid_argument("unknown bin strategy '" + std::string(name) + "' (uniform|quantile|categorical)");
}

std::string_view bin_strategy_name(BinStrategy s) {
  for (const auto& r : kStrategies)
    if (r.strategy == s) return r.name;
  return "?";
}

FeatureBinner::FeatureBinner(BinStrategy strategy, std::uint32_t n_bins)
    : strategy_(strategy), n_bins_(std::max<std::uint32_t>(n_bins, 2)), sketch_(1.0 / (4.0 * n_bins_)) {}

void FeatureBinner::observe(double v) {
  if (!std::isfinite(v)) return;
  if (count_ == 0) {
    min_ = max_ = v;
  } else {
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
  }
  ++count_;
  if (strategy_ == BinStrategy::kQuantile) {
    sketch_.insert(v);
  } else if (strategy_ == BinStrategy::kCategorical) {
    const double c = std::trunc(v);
    const auto it = std::lower_bound(categories_.begin(), categories_.end(), c);
    if ((it == categories_.end() || *it != c) && categories_.size() < kMaxCategories) categories_.insert(it, c);
  }
}

BinEdges FeatureBinner::compute_edges() const {
  if (count_ == 0) return BinEdges();
  switch (strategy_) {
    case BinStrategy::kUniform:
      return BinEdges::uniform(min_, max_, n_bins_);
    case BinStrategy::kQuantile: {
      std::vector<double> edges;
      for (std::uint32_t i = 1; i < n_bins_; ++i) {
        const double q = sketch_.quantile(static_cast<double>(i) / n_bins_);
        // An edge at the maximum would leave an empty top bin.
        if (q < max_ && (edges.empty() || q > edges.back())) edges.push_back(q);
      }
      if (edges.empty()) edges.push_back(min_);
      return BinEdges::from_edges(edges);
    }
    case BinStrategy::kCategorical: {
      std::vector<double> edges;
      for (std::size_t i = 1; i < categories_.size(); ++i) edges.push_back(0.5 * (categories_[i - 1] + categories_[i]));
      if (edges.empty()) edges.push_back(categories_.empty() ? min_ : categories_[0]);
      return BinEdges::from_edges(edges);
    }
  }
  return BinEdges();
}

void FeatureBinner::reset() {
  count_ = 0;
  min_ = max_ = 0.0;
  sketch_.reset();
  categories_.clear();
}

std::size_t FeatureBinner::memory_bytes() const {
  return sizeof(*this) + sketch_.memory_bytes() - sizeof(sketch_) + categories_.capacity() * sizeof(double);
}

void FeatureBinner::encode(ByteWriter& out) const {
  out.u8(static_cast<std::uint8_t>(strategy_));
  out.u32(n_bins_);
  out.u64(count_);
  out.f64(min_);
  out.f64(max_);
  sketch_.encode(out);
  out.f64s(categories_);
}

Status FeatureBinner::decode(ByteReader& in) {
  const std::uint8_t s = in.u8("bin strategy");
  const std::uint32_t nb = in.u32("n_bins");
  const std::uint64_t c = in.u64("binner count");
  const double mn = in.f64("binner min");
  const double mx = in.f64("binner max");
  QuantileSketch sk;
  IRITHYLL_RETURN_IF_ERROR(sk.decode(in));
  std::vector<double> cats = in.f64s("categories");
  if (!in.ok()) return in.status();
  bool cats_ok = cats.size() <= kMaxCategories;
  for (std::size_t i = 0; i < cats.size() && cats_ok; ++i)
    cats_ok = std::isfinite(cats[i]) && (i == 0 || cats[i] > cats[i - 1]);
  if (s > 2 || nb < 2 || nb > 65536 || !cats_ok) return Status::corruption("bad feature binner state");
  if (c > 0 && !(std::isfinite(mn) && std::isfinite(mx) && mn <= mx)) return Status::corruption("bad binner range");
  strategy_ = static_cast<BinStrategy>(s);
  n_bins_ = nb;
  count_ = c;
  min_ = mn;
  max_ = mx;
  sketch_ = std::move(sk);
  categories_ = std::move(cats);
  return Status::ok();
}

}  // namespace irithyll
