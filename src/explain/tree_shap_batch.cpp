// TreeExplainer::explain_batch: the table form of path-dependent TreeSHAP
// over many rows, tree-major. One row touches a table row of every leaf of
// every tree (for a 50-tree depth-6 model several megabytes in all), so
// row-major explaining is bound by cache misses; taking one tree at a time
// over a block of rows keeps that tree's tables (tens of kilobytes) and the
// block's contributions in cache.
#include <algorithm>
#include <cmath>
#include <limits>

#include "irithyll/explain/tree_shap.hpp"

namespace irithyll {

Status TreeExplainer::explain_batch(std::span<const double> rows, std::size_t n_rows, std::size_t output,
                                    std::span<double> phi, std::span<double> raw) const {
  const std::size_t nf = n_features_;
  if (rows.size() != n_rows * nf)
    return Status::invalid_argument("explain: rows must hold " + std::to_string(n_rows) + " x " + std::to_string(nf) + " values");
  if (phi.size() != n_rows * nf || raw.size() != n_rows)
    return Status::invalid_argument("explain: phi must hold rows x features values and raw one per row");
  if (output >= bias_.size())
    return Status::invalid_argument("explain: output " + std::to_string(output) + " of " + std::to_string(bias_.size()));
  if (!tables_ && !groups_built_) {
    for (std::size_t r = 0; r < n_rows; ++r) {
      auto v = explain_one_ref(rows.subspan(r * nf, nf), output, phi.subspan(r * nf, nf));
      if (!v) return v.status();
      raw[r] = *v;
    }
    return Status::ok();
  }
  if (batch_lanes(rows.data(), n_rows, output, phi.data(), raw.data())) return Status::ok();
  block_x_.resize(kBatchBlock * nf);
  const std::vector<std::uint32_t>& roots = roots_[output];
  const std::vector<std::uint32_t>& ends = ends_[output];
  for (std::size_t first = 0; first < n_rows; first += kBatchBlock) {
    const std::size_t m = std::min(kBatchBlock, n_rows - first);
    const double* in = rows.data() + first * nf;
    double* x = block_x_.data();
    for (std::size_t i = 0; i < m * nf; ++i)
      x[i] = !nonfinite_is_missing_ || std::isfinite(in[i]) ? in[i] : std::numeric_limits<double>::quiet_NaN();
    std::fill(phi.begin() + static_cast<std::ptrdiff_t>(first * nf),
              phi.begin() + static_cast<std::ptrdiff_t>((first + m) * nf), 0.0);
    std::fill(raw.begin() + static_cast<std::ptrdiff_t>(first), raw.begin() + static_cast<std::ptrdiff_t>(first + m),
              bias_[output]);
    if (groups_built_) {
      for (std::size_t t = 0; t < roots.size(); ++t)
        for (std::size_t r = 0; r < m; ++r) raw[first + r] += group_shap(output, t, x + r * nf, phi.data() + (first + r) * nf);
      continue;
    }
    for (std::size_t t = 0; t < roots.size(); ++t)
      for (std::size_t r = 0; r < m; ++r) {
        const std::span<const double> xr(x + r * nf, nf);
        raw[first + r] += nodes_[leaf_of(roots[t], xr)].value;
        table_shap(roots[t], ends[t], xr, phi.subspan((first + r) * nf, nf));
      }
  }
  return Status::ok();
}

}  // namespace irithyll
