#include "irithyll/ensemble/pava.hpp"

namespace irithyll {

void pava_non_decreasing(std::span<double> values, std::span<const double> weights) {
  const std::size_t n = values.size();
  if (n < 2) return;
  // Blocks on a stack: (weighted mean, total weight, first index). The
  // handful of quantiles a model keeps fits the fixed array; longer inputs
  // fall back to a vector.
  struct Block {
    double mean, weight;
    std::size_t start;
  };
  Block fixed[32];
  std::vector<Block> heap;
  Block* blocks = fixed;
  if (n > 32) {
    heap.resize(n);
    blocks = heap.data();
  }
  std::size_t top = 0;
  for (std::size_t i = 0; i < n; ++i) {
    blocks[top] = Block{values[i], weights.empty() ? 1.0 : weights[i], i};
    ++top;
    // Merge while the last two blocks violate the order.
    while (top >= 2 && blocks[top - 2].mean > blocks[top - 1].mean) {
      Block& a = blocks[top - 2];
      const Block& b = blocks[top - 1];
      const double w = a.weight + b.weight;
      a.mean = (a.mean * a.weight + b.mean * b.weight) / w;
      a.weight = w;
      --top;
    }
  }
  for (std::size_t b = 0; b < top; ++b) {
    const std::size_t end = b + 1 < top ? blocks[b + 1].start : n;
    for (std::size_t i = blocks[b].start; i < end; ++i) values[i] = blocks[b].mean;
  }
}

}  // namespace irithyll
