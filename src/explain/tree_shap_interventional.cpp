// Interventional TreeSHAP: exact Shapley values of v(S) = mean over
// background rows r of f(x_S, r_rest). For one r and one tree, a leaf is
// reached by the hybrid row iff every feature in A (splits where x and r
// part and the leaf lies on x's side) is in S and none in B (r's side) is.
// That unanimity game on A u B gives each feature of A (a-1)! b! / (a+b)!
// of the leaf value and each of B -a! (b-1)! / (a+b)! (a = |A|, b = |B|);
// a feature met again on the path follows the side it already took.
#include <algorithm>

#include "irithyll/explain/tree_shap.hpp"
#include "tree/category_split.hpp"

namespace irithyll {

namespace {
enum : std::uint8_t { kFree = 0, kFromX = 1, kFromR = 2 };
}

void TreeExplainer::interventional(std::uint32_t n, std::span<const double> x, std::span<const double> r,
                                   std::span<double> phi, std::size_t nx, std::size_t nr) const {
  const Node& node = nodes_[n];
  if (node.feature < 0) {
    if (nx == 0 && nr == 0) return;  // reached by x and r alike: only the base
    const double to_x = nx > 0 ? node.value * weight(nx - 1, nr) : 0.0;
    const double to_r = nr > 0 ? node.value * weight(nx, nr - 1) : 0.0;
    for (const std::int32_t f : on_path_) {
      const auto fi = static_cast<std::size_t>(f);
      phi[fi] += origin_[fi] == kFromX ? to_x : -to_r;
    }
    return;
  }
  const auto f = static_cast<std::size_t>(node.feature);
  const auto goes_right = [&node](double v) {
    return node.categorical ? !category_goes_left(node.mask, v) : v > node.threshold;
  };
  const bool xr = goes_right(x[f]), rr = goes_right(r[f]);
  const std::uint32_t x_child = xr ? node.right : node.left, r_child = rr ? node.right : node.left;
  if (origin_[f] == kFromX || (origin_[f] == kFree && xr == rr)) return interventional(x_child, x, r, phi, nx, nr);
  if (origin_[f] == kFromR) return interventional(r_child, x, r, phi, nx, nr);
  on_path_.push_back(node.feature);
  origin_[f] = kFromX;
  interventional(x_child, x, r, phi, nx + 1, nr);
  origin_[f] = kFromR;
  interventional(r_child, x, r, phi, nx, nr + 1);
  origin_[f] = kFree;
  on_path_.pop_back();
}

Result<double> TreeExplainer::explain_one_interventional(std::span<const double> x, std::size_t output,
                                                         std::span<double> phi) const {
  if (Status s = check_args(x, output, phi); !s) return s;
  if (n_background_ == 0) return Status::invalid_argument("explain: interventional SHAP needs a background (set_background)");
  const std::span<const double> xs = clean(x);
  std::fill(phi.begin(), phi.end(), 0.0);
  double raw = bias_[output];
  for (std::uint32_t root : roots_[output]) raw += nodes_[leaf_of(root, xs)].value;
  for (std::size_t b = 0; b < n_background_; ++b) {
    const std::span<const double> r(background_.data() + b * n_features_, n_features_);
    for (std::uint32_t root : roots_[output]) interventional(root, xs, r, phi, 0, 0);
  }
  const double inv = 1.0 / static_cast<double>(n_background_);
  for (double& p : phi) p *= inv;
  return raw;
}

}  // namespace irithyll
