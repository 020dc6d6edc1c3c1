#include "tree/category_split.hpp"

#include <algorithm>
#include <array>

namespace irithyll {

bool best_category_split(const GradBin* bins, double g_total, double h_total, const GainParams& p,
                         SplitCandidate& out, std::uint64_t& mask, std::uint64_t n_total,
                         double penalty) noexcept {
  std::array<std::uint8_t, kCategoryBins> order;
  std::array<double, kCategoryBins> ratio;
  std::uint32_t k = 0;
  for (std::uint32_t c = 0; c < kCategoryBins; ++c) {
    if (bins[c].count == 0) continue;  // never seen at this leaf: no evidence to place it
    order[k++] = static_cast<std::uint8_t>(c);
    ratio[c] = bins[c].g / (bins[c].h + p.lambda);
  }
  if (k < 2) return false;
  std::sort(order.begin(), order.begin() + k, [&](std::uint8_t a, std::uint8_t b) {
    return ratio[a] < ratio[b] || (ratio[a] == ratio[b] && a < b);
  });
  std::array<GradBin, kCategoryBins> sorted;
  for (std::uint32_t i = 0; i < k; ++i) sorted[i] = bins[order[i]];
  GainParams q = p;
  q.monotone = 0;
  // No missing mass on the left: what the bins do not hold stays right.
  if (!best_split(sorted.data(), k, g_total, h_total, 0.0, 0.0, q, out, n_total, 0)) return false;
  if (penalty > 0.0 && k > 2) {
    out.gain -= 0.5 * penalty * static_cast<double>(k - 2);
    if (!(out.gain > 0.0)) return false;
  }
  mask = 0;
  for (std::uint32_t i = 0; i <= out.bin; ++i) mask |= std::uint64_t{1} << order[i];
  return true;
}

}  // namespace irithyll
