// Vfdt nominal attributes (see vfdt.hpp): the per-value observer's split
// candidates, multiway or one value against the rest (as MOA's
// NominalAttributeClassObserver offers both), its naive Bayes term and the
// multiway split itself.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "irithyll/tree/split_merit.hpp"
#include "irithyll/tree/vfdt.hpp"
#include "tree/vfdt_merit.hpp"
#include "tree/category_split.hpp"

namespace irithyll {

double Vfdt::multiway_merit(const double* rows, std::size_t n_branches) const {
  const bool cls = task_ == Task::kClassification;
  const std::size_t stride = bin_stride_;
  auto weight = [&](const double* r) {
    if (!cls) return r[0];
    double w = 0.0;
    for (std::size_t c = 0; c < n_classes_; ++c) w += r[c];
    return w;
  };
  double total = 0.0;
  for (std::size_t i = 0; i < n_branches; ++i) total += weight(rows + i * stride);
  if (!(total > 0.0)) return vfdt_detail::kNoSplit;
  // MOA's rule for every criterion: at least two branches must each hold
  // min_branch_fraction of the weight.
  std::size_t heavy = 0;
  for (std::size_t i = 0; i < n_branches; ++i) heavy += weight(rows + i * stride) / total >= config_.min_branch_fraction;
  if (heavy < 2) return vfdt_detail::kNoSplit;
  double merit = 0.0;
  std::size_t filled = 0;  // non-empty branches: the test's degrees of freedom
  for (std::size_t i = 0; i < n_branches; ++i) filled += weight(rows + i * stride) > 0.0;
  for (std::size_t i = 0; i < n_branches; ++i) {
    const double* r = rows + i * stride;
    const double f = weight(r) / total;
    if (!(f > 0.0)) continue;
    const std::span<const double> row(r, cls ? n_classes_ : 3);
    merit -= f * (!cls ? vfdt_detail::variance(r) : config_.criterion == SplitCriterion::kGini ? gini_impurity(row) : entropy_bits(row));
  }
  return merit + pre_impurity_ - noise_gain(rows, n_branches, total) * static_cast<double>(filled - 1);
}

// Per extra branch, what a nominal split of this total weight gains on
// noise, times config.nominal_penalty (HoeffdingTreeConfig explains it): the
// G-test's (K - 1) / (2 n ln 2) bits for information gain, G / n for Gini,
// K the classes present among the attribute's values and G their impurity
// (pre_impurity_ is the leaf's, which also counts the missing values).
// Regression: 0.
double Vfdt::noise_gain(const double* rows, std::size_t n_values, double total) const {
  if (task_ != Task::kClassification || config_.nominal_penalty == 0.0 || !(total > 0.0)) return 0.0;
  if (config_.criterion == SplitCriterion::kGini) return config_.nominal_penalty * pre_impurity_ / total;
  std::size_t present = 0;
  for (std::size_t c = 0; c < n_classes_; ++c) {
    bool any = false;
    for (std::size_t v = 0; v < n_values && !any; ++v) any = rows[v * bin_stride_ + c] > 0.0;
    present += any;
  }
  if (present < 2) return 0.0;
  return config_.nominal_penalty * static_cast<double>(present - 1) / (2.0 * std::numbers::ln2 * total);
}

Vfdt::Candidate Vfdt::best_nominal(const Leaf& leaf, std::size_t j, std::span<double> left, std::span<double> right,
                                   std::vector<double>& branches) {
  const double* rows = leaf.stats.data() + obs_offset(leaf, j);
  const std::span<const double> pre(leaf.stats.data(), head_size_);
  const bool cls = task_ == Task::kClassification;
  const std::size_t stride = bin_stride_;
  Candidate best{vfdt_detail::kNoSplit, 0.0, static_cast<std::int32_t>(leaf.features[j])};
  // Branches: every code up to the largest seen at this leaf.
  std::size_t k = 0;
  for (std::size_t v = 0; v < kCategoryBins; ++v) {
    const double* r = rows + v * stride;
    bool seen = !cls ? r[0] > 0.0 : false;
    for (std::size_t c = 0; cls && c < n_classes_; ++c) seen = seen || r[c] > 0.0;
    if (seen) k = v + 1;
  }
  if (k < 2) return best;
  // Regression: the variance reduction's "pre" is the leaf's; classification
  // uses pre_impurity_ (set by attempt_split), so fold it in for both.
  const double saved = pre_impurity_;
  if (!cls) pre_impurity_ = vfdt_detail::variance(pre.data());
  const double m = config_.binary_nominal ? vfdt_detail::kNoSplit : multiway_merit(rows, k);
  pre_impurity_ = saved;
  if (m > best.merit) {
    best = Candidate{m, static_cast<double>(k), best.feature, kMultiway};
    std::copy(rows, rows + k * stride, branches.begin());
  }
  // One value against the rest: totals over the values (missing excluded,
  // as in the observer), then each value's complement.
  std::vector<double>& all = tmp_total_;
  std::fill(all.begin(), all.end(), 0.0);
  for (std::size_t v = 0; v < k; ++v) {
    const double* r = rows + v * stride;
    if (cls) {
      for (std::size_t c = 0; c < n_classes_; ++c) all[c] += r[c];
    } else if (r[0] > 0.0) {
      const double n = all[0] + r[0], d = r[1] - all[1];
      all[1] += d * r[0] / n;
      all[2] += r[2] + d * d * all[0] * r[0] / n;
      all[0] = n;
    }
  }
  // Each one-vs-rest split has two branches: one branch's worth of noise.
  const double noise = noise_gain(rows, k, cls ? [&] {
    double w = 0.0;
    for (std::size_t c = 0; c < n_classes_; ++c) w += all[c];
    return w;
  }() : 0.0);
  for (std::size_t v = 0; v < k; ++v) {
    const double* r = rows + v * stride;
    std::vector<double>& in = tmp_left_;
    std::vector<double>& out = tmp_right_;
    if (cls) {
      for (std::size_t c = 0; c < n_classes_; ++c) {
        in[c] = r[c];
        out[c] = std::max(all[c] - r[c], 0.0);
      }
    } else {
      if (!(r[0] > 0.0)) continue;
      std::copy(r, r + 3, in.begin());
      // The rest = all minus this value (inverse of Chan's merge).
      out[0] = all[0] - r[0];
      if (out[0] <= 1e-12 * all[0]) continue;
      out[1] = (all[0] * all[1] - r[0] * r[1]) / out[0];
      const double d = out[1] - r[1];
      out[2] = std::max(all[2] - r[2] - d * d * r[0] * out[0] / all[0], 0.0);
    }
    const double mv = merit(pre, in, out) - noise;
    if (mv > best.merit) {
      best = Candidate{mv, static_cast<double>(v), best.feature, kEqual};
      std::copy(in.begin(), in.end(), left.begin());
      std::copy(out.begin(), out.end(), right.begin());
    }
  }
  return best;
}

void Vfdt::add_nominal_log_likelihood(const double* rows, double v) const {
  const int code = category_code(v);
  if (code < 0) return;
  const std::size_t stride = bin_stride_;
  // config.nominal_nb_prior > 0: Cestnik's m-estimate, (n(value, c) + m p) /
  // (n(c) + m), p the value's frequency over all classes (add-one smoothed)
  // and m the prior times the values seen. An attribute unrelated to the
  // class then gives nearly equal terms for every class, so its noise stays
  // out of the vote (HoeffdingTreeConfig explains the figures).
  double m = 0.0, mp = 0.0;  // prior strength and its share for this value
  if (config_.nominal_nb_prior > 0.0) {
    double all = 0.0, at = 0.0;
    std::size_t values = 0;
    for (std::size_t u = 0; u < kCategoryBins; ++u) {
      double w = 0.0;
      for (std::size_t c = 0; c < n_classes_; ++c) w += rows[u * stride + c];
      all += w;
      if (w > 0.0) values = u + 1;
      if (u == static_cast<std::size_t>(code)) at = w;
    }
    if (values > 0) {
      m = config_.nominal_nb_prior * static_cast<double>(values);
      mp = m * (at + 1.0) / (all + static_cast<double>(values));
    }
  }
  for (std::size_t c = 0; c < n_classes_; ++c) {
    if (log_scores_[c] == -std::numeric_limits<double>::infinity()) continue;
    double sum = 0.0;
    std::size_t values = 0;
    for (std::size_t u = 0; u < kCategoryBins; ++u) {
      const double n = rows[u * stride + c];
      sum += n;
      if (n > 0.0) values = u + 1;
    }
    if (!(sum > 0.0)) {
      log_scores_[c] = -std::numeric_limits<double>::infinity();
      continue;
    }
    const double n = rows[static_cast<std::size_t>(code) * stride + c];
    // MOA's estimate without the prior: (n(value, c) + 1) / (n(c) + values
    // seen for c), the latter one more than the largest code seen with c.
    log_scores_[c] += std::log(m > 0.0 ? (n + mp) / (sum + m) : (n + 1.0) / (sum + static_cast<double>(values)));
  }
}

void Vfdt::split_multiway(std::size_t node, const Candidate& best, std::uint32_t first_slot, std::uint32_t depth) {
  const auto k = static_cast<std::size_t>(best.threshold);
  const std::size_t stride = bin_stride_;
  const bool cls = task_ == Task::kClassification;
  // Missing and unseen values follow the branch that held the most weight.
  std::size_t heaviest = 0;
  double top = -1.0;
  for (std::size_t i = 0; i < k; ++i) {
    const double* r = best_branches_.data() + i * stride;
    double w = cls ? 0.0 : r[0];
    for (std::size_t c = 0; cls && c < n_classes_; ++c) w += r[c];
    if (w > top) top = w, heaviest = i;
  }
  const double* parent_linear = inherit_linear_from(node);  // read before new_leaf_slot moves leaves_
  const auto first = static_cast<std::uint32_t>(nodes_.size());
  for (std::size_t i = 0; i < k; ++i) {
    const std::uint32_t s = i == 0 ? first_slot : new_leaf_slot();  // may move leaves_
    nodes_.push_back(Node{0.0, -1, s, 0});
  }
  nodes_[node] = Node{best.threshold, best.feature, first, first + static_cast<std::uint32_t>(heaviest), kMultiway};
  for (std::size_t i = 0; i < k; ++i)
    init_leaf(leaves_[nodes_[first + i].a], depth, std::span<const double>(best_branches_.data() + i * stride, head_size_),
              parent_linear);
}

}  // namespace irithyll
