#include "tree/soft_routing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "tree/category_split.hpp"

namespace irithyll {

double soft_predict(const GradientTree& tree, std::span<const double> x, std::span<const double> bandwidth,
                    SoftKernel kernel) noexcept {
  struct Pending {
    std::uint32_t node;
    double weight;
  };
  // Depth-first: each pop pushes at most two children, so the stack never
  // holds more than depth + 1 entries (max_depth is at most 30).
  Pending stack[64];
  int top = 0;
  stack[top++] = Pending{0, 1.0};
  double sum = 0.0;
  while (top > 0) {
    const Pending p = stack[--top];
    const GradientTree::RouteNode& r = tree.node(p.node);
    if (r.left == 0) {
      sum += p.weight * tree.leaf_predict(p.node, x);  // linear leaves included
      continue;
    }
    const double v = x[r.feature];
    double left = 1.0;  // NaN (missing) goes left
    if (tree.is_categorical_split(p.node)) {
      // Category sets have no order to be soft along: hard, as in training.
      left = category_goes_left(tree.category_mask(p.node), v) ? 1.0 : 0.0;
    } else if (v == v) {
      const double b = r.feature < bandwidth.size() ? bandwidth[r.feature] : 0.0;
      if (!(b > 0.0 && std::isfinite(b)))
        left = v > r.threshold ? 0.0 : 1.0;
      else if (kernel == SoftKernel::kSigmoid)
        left = 1.0 / (1.0 + std::exp((v - r.threshold) / b));
      else
        left = std::clamp((b - (v - r.threshold)) / (2.0 * b), 0.0, 1.0);
    }
    if (left < 1.0 && top < 64) stack[top++] = Pending{r.left + 1, p.weight * (1.0 - left)};
    if (left > 0.0 && top < 64) stack[top++] = Pending{r.left, p.weight * left};
  }
  return sum;
}

}  // namespace irithyll
