// Soft routing of a GradientTree: the tree's output as a smooth function of
// x. At a split on feature f with threshold t, x goes left with weight
//   a = sigmoid((t - x_f) / b_f) = 1 / (1 + exp((x_f - t) / b_f))
// and right with 1 - a; the prediction is the sum over leaves of the product
// of the weights on the path times the leaf value (the soft decision trees of
// Irsoy, Yildiz & Alpaydin 2012, applied at prediction time only). As b -> 0
// this is the hard rule (x > t goes right). The linear kernel (sibling
// interpolation) is the hard rule outside a margin of b either side of t and
// a straight line inside it: d = x_f - t, weight right (d + b) / 2b, so at
// the threshold x is half in each sibling and the output is continuous in
// x_f, while a point farther than b from every threshold on its path gets
// exactly the hard prediction. A bandwidth that is missing
// (f beyond the span), not finite or not positive routes that split hard;
// NaN (missing) goes left, as in training.
//
// Cost: every node whose path weight is non-zero is visited, so up to the
// whole tree (2^depth leaves) instead of one path. No allocation (fixed
// stack: depth <= 30 needs at most 31 entries). Thread safety: const.
#pragma once

#include <span>

#include "tree/gradient_tree.hpp"

namespace irithyll {

double soft_predict(const GradientTree& tree, std::span<const double> x, std::span<const double> bandwidth,
                    SoftKernel kernel = SoftKernel::kSigmoid) noexcept;

}  // namespace irithyll
