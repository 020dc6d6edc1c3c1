// The GradientTree paths taken only when the configuration lists
// categorical features (cat_): routing that tests category masks, and
// histogram accumulation that bins category codes directly. Kept apart so
// the plain paths in the header and hoeffding_tree.cpp stay as they were.
#include "tree/gradient_tree.hpp"
#include "tree/category_split.hpp"

namespace irithyll {

std::uint32_t GradientTree::leaf_index_categorical(std::span<const double> x) const noexcept {
  const RouteNode* nodes = route_.data();
  std::uint32_t n = 0;
  while (nodes[n].left != 0) {
    const RouteNode& r = nodes[n];
    const double v = x[r.feature];
    const bool right = is_cat_[r.feature] != 0 ? !category_goes_left(cat_mask_[n], v) : v > r.threshold;
    n = r.left + static_cast<std::uint32_t>(right);
  }
  return n;
}

void GradientTree::accumulate_categorical(std::uint32_t slab, std::span<const double> x, double g,
                                           double h) noexcept {
  double m = 1.0;
  if (config_.leaf_decay_alpha > 0.0) m = pool_.decay_step(slab, config_.leaf_decay_alpha);
  const double gs = g * m, hs = h * m;
  GradBin* bins = pool_.bins(slab);
  for (std::size_t f = 0; f < n_features_; ++f) {
    const double v = x[f];
    std::uint32_t b;
    if (is_cat_[f] != 0) {
      const int c = category_code(v);
      if (c < 0) continue;  // missing or out of range: only in the total, credited right
      b = static_cast<std::uint32_t>(c);
    } else {
      if (v != v) continue;
      b = edges_[f].find_bin(v);
    }
    GradBin& bin = bins[offset_[f] + b];
    bin.g += gs;
    bin.h += hs;
    ++bin.count;
  }
  GradBin& t = pool_.total(slab);
  t.g += gs;
  t.h += hs;
  ++t.count;
}

bool GradientTree::has_categorical_splits() const {
  for (std::uint32_t n = 0; n < route_.size(); ++n)
    if (is_categorical_split(n)) return true;
  return false;
}

}  // namespace irithyll
