// Vfdt leaf predictions: majority class, naive Bayes, adaptive choice, mean
// and linear leaves.
#include <algorithm>
#include <cmath>
#include <limits>

#include "irithyll/tree/vfdt.hpp"

namespace irithyll {

namespace {
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// One attribute's Gaussian term for one class: log_score += log p(v | c)
// up to the class-independent constant, where g = [w, mean, M2, min, max].
// The density follows MOA's estimator: sample variance M2 / (w - 1); a
// class with zero spread has density 1 at its mean and 0 elsewhere. The
// -log(sd) terms are gathered as one product of variances per class (one
// log per class instead of one per attribute), flushed into the score
// before the product can under- or overflow.
inline void add_gaussian_term(const double* g, double v, double& log_score, double& var_product) {
  if (log_score == kNegInf) return;
  if (g[0] <= 0.0) {
    log_score = kNegInf;
    return;
  }
  const double var = g[0] > 1.0 ? g[2] / (g[0] - 1.0) : 0.0;
  if (var > 0.0) {
    const double d = v - g[1];
    log_score -= 0.5 * d * d / var;
    var_product *= var;
    if (!(var_product > 1e-150 && var_product < 1e150)) {
      log_score -= 0.5 * std::log(var_product);
      var_product = 1.0;
    }
  } else if (v != g[1]) {
    log_score = kNegInf;
  }
}

}  // namespace

std::size_t Vfdt::majority_class(const Leaf& leaf) const {
  return static_cast<std::size_t>(std::max_element(leaf.stats.begin(), leaf.stats.begin() + static_cast<std::ptrdiff_t>(n_classes_)) -
                                  leaf.stats.begin());
}

bool Vfdt::use_naive_bayes(const Leaf& leaf) const {
  switch (config_.leaf_model) {
    case LeafModel::kNaiveBayes: return leaf_weight(leaf) >= config_.nb_threshold;
    case LeafModel::kNaiveBayesAdaptive:
    case LeafModel::kAdaptive: return !(leaf.mc_correct > leaf.nb_correct);  // ties go to NB (as MOA)
    default: return false;
  }
}

// log P(c) + sum over observed attributes of log p(x_f | c); the constant
// -log(sqrt(2 pi)) is common to all classes and dropped.
std::size_t Vfdt::naive_bayes_class(const Leaf& leaf, std::span<const double> x) const {
  const double* s = leaf.stats.data();
  double* const ls = log_scores_.data();
  double* const vp = var_product_.data();
  for (std::size_t c = 0; c < n_classes_; ++c) {
    ls[c] = s[c] > 0.0 ? std::log(s[c]) : kNegInf;
    vp[c] = 1.0;
  }
  const double* obs = s + head_size_ + linear_size_;
  if (gaussian_ && !any_nominal_ && n_classes_ == 2) {
    // The common case (two classes, every attribute numeric), with the
    // scores in registers; the same arithmetic as the general loop below.
    double l0 = ls[0], l1 = ls[1], v0 = 1.0, v1 = 1.0;
    const std::size_t width = obs_width(0);
    for (std::size_t j = 0; j < subspace_; obs += width, ++j) {
      const double v = x[leaf.features[j]];
      if (!std::isfinite(v)) continue;
      add_gaussian_term(obs, v, l0, v0);
      add_gaussian_term(obs + 5, v, l1, v1);
    }
    ls[0] = l0, ls[1] = l1, vp[0] = v0, vp[1] = v1;
  } else {
    const std::size_t bins = config_.n_bins;
    for (std::size_t j = 0; j < subspace_; obs += obs_width(leaf.features[j]), ++j) {
      const double v = x[leaf.features[j]];
      if (!std::isfinite(v)) continue;
      if (any_nominal_ && nominal_[leaf.features[j]]) {
        add_nominal_log_likelihood(obs, v);
      } else if (gaussian_) {
        for (std::size_t c = 0; c < n_classes_; ++c) add_gaussian_term(obs + 5 * c, v, ls[c], vp[c]);
      } else if (obs[2] != 0.0) {
        // Histogram: Laplace-smoothed bin frequency.
        double bf = std::floor((v - obs[0]) / obs[1]);
        bf = bf >= 0.0 ? std::min(bf, static_cast<double>(bins - 1)) : 0.0;
        const double* row = obs + 3 + static_cast<std::size_t>(bf) * bin_stride_;
        for (std::size_t c = 0; c < n_classes_; ++c)
          if (ls[c] != kNegInf) ls[c] += std::log((row[c] + 1.0) / (s[c] + static_cast<double>(bins)));
      }
    }
  }
  for (std::size_t c = 0; c < n_classes_; ++c)
    if (ls[c] != kNegInf && vp[c] != 1.0) ls[c] -= 0.5 * std::log(vp[c]);
  const auto best = std::max_element(log_scores_.begin(), log_scores_.end());
  const std::size_t cls = *best == kNegInf ? majority_class(leaf) : static_cast<std::size_t>(best - log_scores_.begin());
  // Remember the answer for this x until the tree next learns: the
  // prequential loop predicts x, then learns x, and both need it.
  nb_cache_.valid = true;
  nb_cache_.slot = static_cast<std::size_t>(&leaf - leaves_.data());
  nb_cache_.cls = cls;
  std::copy(x.begin(), x.end(), nb_cache_.x.begin());
  return cls;
}

std::size_t Vfdt::naive_bayes_class_cached(const Leaf& leaf, std::span<const double> x) const {
  if (nb_cache_.valid && nb_cache_.slot == static_cast<std::size_t>(&leaf - leaves_.data()) && std::equal(x.begin(), x.end(), nb_cache_.x.begin())) return nb_cache_.cls;
  return naive_bayes_class(leaf, x);
}

std::size_t Vfdt::leaf_class(const Leaf& leaf, std::span<const double> x) const {
  if (!(leaf_weight(leaf) > 0.0)) return 0;
  return use_naive_bayes(leaf) ? naive_bayes_class_cached(leaf, x) : majority_class(leaf);
}

void Vfdt::leaf_proba(const Leaf& leaf, std::span<const double> x, std::span<double> proba) const {
  const double total = leaf_weight(leaf);
  if (!(total > 0.0)) {
    std::fill(proba.begin(), proba.end(), 1.0 / static_cast<double>(n_classes_));
    return;
  }
  if (use_naive_bayes(leaf)) {
    const std::size_t best = naive_bayes_class(leaf, x);
    const double top = log_scores_[best];
    if (top != kNegInf) {
      double sum = 0.0;
      for (std::size_t c = 0; c < n_classes_; ++c) sum += proba[c] = std::exp(log_scores_[c] - top);
      // Scores from degenerate observer statistics (an infinite variance
      // read from a record) fall back to the class weights below.
      if (sum > 0.0 && std::isfinite(sum)) {
        for (std::size_t c = 0; c < n_classes_; ++c) proba[c] /= sum;
        return;
      }
    }
  }
  for (std::size_t c = 0; c < n_classes_; ++c) proba[c] = leaf.stats[c] / total;
}

double Vfdt::standardised(std::size_t f, double v) const {
  // FIMT-DD scales inputs to about [-1, 1] with (x - mean) / (3 sd).
  // Clamped to +-kMaxStandardised, far beyond any value a sample of real
  // spread gives, so that one extreme input (or a spread that underflows)
  // cannot carry a leaf's prediction or weights past the doubles.
  const double* m = &feat_moments_[3 * f];
  if (!std::isfinite(v) || !(m[0] > 0.0) || !(m[2] > 0.0)) return 0.0;
  const double sd = std::sqrt(m[2] / m[0]);
  if (!(sd > 0.0)) return 0.0;
  return std::clamp((v - m[1]) / (3.0 * sd), -kMaxStandardised, kMaxStandardised);
}

double Vfdt::leaf_value(const Leaf& leaf, std::span<const double> x) const {
  return use_mean(leaf) ? leaf.stats[1] : linear_value(leaf, x);
}

double Vfdt::linear_value(const Leaf& leaf, std::span<const double> x) const {
  double value = leaf.stats[1];  // leaf mean
  if (linear_) {
    const double* wts = leaf.stats.data() + head_size_;
    double dot = wts[n_features_];
    for (std::size_t j = 0; j < n_features_; ++j) dot += wts[j] * (lin_z_[j] = standardised(j, x[j]));
    value += dot;
  }
  return value;
}

}  // namespace irithyll
