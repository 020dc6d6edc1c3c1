#include "histogram/feature_binner.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace irithyll {

namespace {
constexpr std::array<BinStrategyRow, 4> kStrategies = {{
    {BinStrategy::kUniform, "uniform"},
    {BinStrategy::kQuantile, "quantile"},
    {BinStrategy::kCategorical, "categorical"},
    {BinStrategy::kKMeans, "kmeans"},
}};
constexpr int kMaxLloydIterations = 100;
}  // namespace

std::vector<double> kmeans_edges(std::vector<double>& values, std::uint32_t k) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  if (n < 2 || values.front() == values.back() || k < 2) return {};
  // prefix[i] = sum of the i smallest values: a cell's mean in O(1).
  std::vector<double> prefix(n + 1, 0.0);
  for (std::size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + values[i];
  std::vector<double> centres;
  for (std::uint32_t j = 0; j < k; ++j) {
    const double c = values[std::min(n - 1, static_cast<std::size_t>((j + 0.5) * static_cast<double>(n) / k))];
    if (centres.empty() || c > centres.back()) centres.push_back(c);
  }
  std::vector<double> next;
  for (int it = 0; it < kMaxLloydIterations && centres.size() > 1; ++it) {
    // In one dimension each centre's cell is the run of sorted values between
    // the midpoints to its neighbours (ties go to the lower centre).
    next.clear();
    std::size_t begin = 0;
    for (std::size_t j = 0; j < centres.size(); ++j) {
      const std::size_t end =
          j + 1 == centres.size()
              ? n
              : static_cast<std::size_t>(std::upper_bound(values.begin(), values.end(),
                                                          0.5 * (centres[j] + centres[j + 1])) -
                                         values.begin());
      const double c = end > begin ? (prefix[end] - prefix[begin]) / static_cast<double>(end - begin) : centres[j];
      if (next.empty() || c > next.back()) next.push_back(c);  // an emptied cell's centre merges
      begin = std::max(begin, end);
    }
    const bool moved = next != centres;
    centres.swap(next);
    if (!moved) break;
  }
  std::vector<double> edges;
  for (std::size_t j = 1; j < centres.size(); ++j) {
    const double e = 0.5 * (centres[j - 1] + centres[j]);
    if (e < values.back() && (edges.empty() || e > edges.back())) edges.push_back(e);
  }
  return edges;
}

std::span<const BinStrategyRow> bin_strategy_table() { return kStrategies; }

Result<BinStrategy> parse_bin_strategy(std::string_view name) {
  for (const auto& r : kStrategies)
    if (r.name == name) return r.strategy;
  std::string known;
  for (const auto& r : kStrategies) known += (known.empty() ? "" : "|") + std::string(r.name);
  return Status::invalid_argument("unknown bin strategy '" + std::string(name) + "' (" + known + ")");
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
  } else if (strategy_ == BinStrategy::kKMeans) {
    if (values_.size() < kMaxKMeansValues) values_.push_back(v);
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
    case BinStrategy::kKMeans: {
      std::vector<double> values = values_;
      std::vector<double> edges = kmeans_edges(values, n_bins_);
      if (edges.empty()) edges.push_back(min_);
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
  values_.clear();
}

std::size_t FeatureBinner::memory_bytes() const {
  return sizeof(*this) + sketch_.memory_bytes() - sizeof(sketch_) +
         (categories_.capacity() + values_.capacity()) * sizeof(double);
}

void FeatureBinner::encode(ByteWriter& out) const {
  out.u8(static_cast<std::uint8_t>(strategy_));
  out.u32(n_bins_);
  out.u64(count_);
  out.f64(min_);
  out.f64(max_);
  sketch_.encode(out);
  out.f64s(categories_);
  // Only the k-means strategy keeps values: the other strategies' records
  // are as they were before it existed.
  if (strategy_ == BinStrategy::kKMeans) out.f64s(values_);
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
  std::vector<double> values;
  if (s == static_cast<std::uint8_t>(BinStrategy::kKMeans)) values = in.f64s("k-means values");
  if (!in.ok()) return in.status();
  bool values_ok = values.size() <= kMaxKMeansValues && values.size() <= c;
  for (double v : values) values_ok = values_ok && std::isfinite(v) && v >= mn && v <= mx;
  bool cats_ok = cats.size() <= kMaxCategories;
  for (std::size_t i = 0; i < cats.size() && cats_ok; ++i)
    cats_ok = std::isfinite(cats[i]) && (i == 0 || cats[i] > cats[i - 1]);
  if (s >= kStrategies.size() || nb < 2 || nb > 65536 || !cats_ok || !values_ok)
    return Status::corruption("bad feature binner state");
  if (c > 0 && !(std::isfinite(mn) && std::isfinite(mx) && mn <= mx)) return Status::corruption("bad binner range");
  strategy_ = static_cast<BinStrategy>(s);
  n_bins_ = nb;
  count_ = c;
  min_ = mn;
  max_ = mx;
  sketch_ = std::move(sk);
  categories_ = std::move(cats);
  values_ = std::move(values);
  return Status::ok();
}

}  // namespace irithyll
