// k nearest neighbours over a sliding window (irithyll/neighbors/knn.hpp).
#include "irithyll/neighbors/knn.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>

#include "irithyll/core/config_codec.hpp"
#include "core/finite.hpp"

namespace irithyll {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The window holds at most 2^27 values (1 GiB of doubles).
constexpr std::size_t kMaxCells = std::size_t{1} << 27;
}  // namespace

Result<std::unique_ptr<KnnLearner>> KnnLearner::make(const Config& config, const LearnerContext& context) {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  if (context.task == Task::kClassification && context.n_classes < 2)
    return Status::invalid_argument("knn: classification needs at least 2 classes");
  if (context.n_features > (1u << 24) || context.n_features * config.window_size > kMaxCells)
    return Status::invalid_argument("knn: window-size * features = " +
                                    std::to_string(context.n_features * config.window_size) +
                                    " values, more than the 2^27 allowed (lower window-size)");
  auto out = std::make_unique<KnnLearner>();
  out->config_ = config;
  out->context_ = context;
  out->reset();
  return out;
}

void KnnLearner::allocate(std::size_t width) {
  const std::size_t w = config_.window_size;
  width_ = width;
  columns_.assign(w * width, kNaN);
  targets_.assign(w, 0.0);
  weights_.assign(w, 0.0);
  order_.assign(w, 0);
  count_.assign(width, 0.0);
  mean_.assign(width, 0.0);
  m2_.assign(width, 0.0);
  dist_.assign(w, 0.0);
}

void KnnLearner::reset() {
  // A fresh vector each time, so a reset model owns what a new one owns.
  for (auto* v : {&columns_, &targets_, &weights_, &count_, &mean_, &m2_, &dist_}) std::vector<double>().swap(*v);
  std::vector<std::uint64_t>().swap(order_);
  width_ = 0;
  if (context_.n_features > 0) allocate(context_.n_features);
  neighbours_.assign(config_.n_neighbors, Neighbour{0.0, 0, 0});
  votes_.assign(context_.task == Task::kClassification ? context_.n_classes : 0, 0.0);
  head_ = size_ = 0;
  admitted_ = seen_ = skipped_ = 0;
}

void KnnLearner::learn_one(std::span<const double> x, double y, double weight) {
  ++seen_;
  if (!sample_admissible(x, y, weight, width_, context_.task, context_.n_classes) ||
      x.size() * config_.window_size > kMaxCells) {
    ++skipped_;
    return;
  }
  if (width_ == 0) allocate(x.size());
  const std::size_t w = config_.window_size;
  for (std::size_t j = 0; j < width_; ++j) {
    const double v = x[j];
    if (!finite_value(v)) {
      columns_[j * w + head_] = kNaN;  // missing: left out of every distance
      continue;
    }
    columns_[j * w + head_] = v;
    // Welford (1962): running mean and sum of squared deviations.
    count_[j] += 1.0;
    const double delta = v - mean_[j];
    mean_[j] += delta / count_[j];
    m2_[j] += delta * (v - mean_[j]);
  }
  targets_[head_] = y;
  weights_[head_] = weight;
  order_[head_] = admitted_++;
  head_ = head_ + 1 == w ? 0 : head_ + 1;
  size_ = std::min<std::size_t>(size_ + 1, w);
}

std::size_t KnnLearner::search(std::span<const double> x) const {
  const std::size_t n = size_;
  const std::size_t w = config_.window_size;
  const double p = config_.p;
  double* dist = dist_.data();
  std::fill(dist, dist + n, 0.0);
  for (std::size_t j = 0; j < width_; ++j) {
    const double q = x[j];
    if (!finite_value(q)) continue;  // a missing query feature drops out of every distance
    double inv = 1.0;
    if (config_.standardize && count_[j] >= 2.0 && m2_[j] > 0.0) inv = 1.0 / std::sqrt(m2_[j] / count_[j]);
    const double* col = columns_.data() + j * w;
    // One column over all stored samples: independent sums, so the loop
    // vectorises; a stored NaN (missing) adds nothing.
    if (p == 2.0) {
      for (std::size_t i = 0; i < n; ++i) {
        const double d = (col[i] - q) * inv;
        const double sq = d * d;  // the test on sq, not d, keeps the loop branch-free
        dist[i] += sq == sq ? sq : 0.0;
      }
    } else if (p == 1.0) {
      for (std::size_t i = 0; i < n; ++i) {
        const double d = std::fabs((col[i] - q) * inv);
        dist[i] += d == d ? d : 0.0;
      }
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        const double d = std::fabs((col[i] - q) * inv);
        dist[i] += d == d ? std::pow(d, p) : 0.0;
      }
    }
  }
  // Partial selection: the k smallest by insertion into a sorted k-slot
  // array (k is small); ties by admission order, older first.
  const std::size_t k = config_.n_neighbors;
  Neighbour* nb = neighbours_.data();
  std::size_t m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = dist[i];
    const std::uint64_t o = order_[i];
    if (m == k && !(d < nb[k - 1].dist || (d == nb[k - 1].dist && o < nb[k - 1].order))) continue;
    std::size_t pos = m < k ? m++ : k - 1;
    while (pos > 0 && (nb[pos - 1].dist > d || (nb[pos - 1].dist == d && nb[pos - 1].order > o))) {
      nb[pos] = nb[pos - 1];
      --pos;
    }
    nb[pos] = Neighbour{d, o, i};
  }
  // Distances proper (the root only for the k chosen; it keeps the order).
  for (std::size_t i = 0; i < m; ++i) {
    if (p == 2.0) nb[i].dist = std::sqrt(nb[i].dist);
    else if (p != 1.0) nb[i].dist = std::pow(nb[i].dist, 1.0 / p);
  }
  return m;
}

double KnnLearner::vote_weight(std::size_t n, bool any_zero) const {
  const Neighbour& nb = neighbours_[n];
  const double w = weights_[nb.slot];
  if (config_.weighting == KnnWeighting::kUniform) return w;
  const double inv = 1.0 / nb.dist;
  // Distance 0 (or so small that 1/d overflows): only such neighbours vote.
  if (any_zero) return std::isinf(inv) ? w : 0.0;
  return w * inv;
}

double KnnLearner::predict_one(std::span<const double> x) const {
  if (context_.task == Task::kClassification) {
    if (votes_.empty()) return 0.0;
    predict_proba_one(x, votes_);
    return static_cast<double>(std::max_element(votes_.begin(), votes_.end()) - votes_.begin());
  }
  if (size_ == 0 || x.size() != width_) return 0.0;
  const std::size_t m = search(x);
  bool any_zero = false;
  for (std::size_t i = 0; i < m; ++i) any_zero |= std::isinf(1.0 / neighbours_[i].dist);
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    const double v = vote_weight(i, any_zero);
    num += v * targets_[neighbours_[i].slot];
    den += v;
  }
  const double out = den > 0.0 ? num / den : 0.0;
  return finite_value(out) ? out : 0.0;
}

void KnnLearner::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (context_.task != Task::kClassification || proba.size() != context_.n_classes) return;
  const double uniform = 1.0 / static_cast<double>(proba.size());
  if (size_ == 0 || x.size() != width_) {
    std::fill(proba.begin(), proba.end(), uniform);
    return;
  }
  const std::size_t m = search(x);
  bool any_zero = false;
  for (std::size_t i = 0; i < m; ++i) any_zero |= std::isinf(1.0 / neighbours_[i].dist);
  std::fill(proba.begin(), proba.end(), 0.0);
  double total = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    const double v = vote_weight(i, any_zero);
    proba[static_cast<std::size_t>(targets_[neighbours_[i].slot])] += v;
    total += v;
  }
  if (!(total > 0.0) || !finite_value(total)) {
    std::fill(proba.begin(), proba.end(), uniform);
    return;
  }
  for (double& v : proba) v /= total;
}

std::size_t KnnLearner::memory_bytes() const {
  std::size_t bytes = sizeof(*this);
  for (const std::vector<double>* v : std::initializer_list<const std::vector<double>*>{
           &columns_, &targets_, &weights_, &count_, &mean_, &m2_, &dist_, &votes_})
    bytes += v->capacity() * sizeof(double);
  return bytes + order_.capacity() * sizeof(std::uint64_t) + neighbours_.capacity() * sizeof(Neighbour);
}

void KnnLearner::encode(ByteWriter& out) const {
  out.u8(1);  // record version
  encode_config(config_fields(), config_, out);
  encode_context(context_, out);
  out.u64(width_);
  out.u64(head_);
  out.u64(size_);
  out.u64(admitted_);
  out.f64s(columns_);
  out.f64s(targets_);
  out.f64s(weights_);
  out.u64s(order_);
  out.f64s(count_);
  out.f64s(mean_);
  out.f64s(m2_);
  out.u64(seen_);
  out.u64(skipped_);
}

Status KnnLearner::decode(ByteReader& in) {
  const std::uint8_t version = in.u8("knn version");
  if (in.ok() && version != 1) return Status::corruption("knn: unknown record version " + std::to_string(version));
  Config config;
  IRITHYLL_RETURN_IF_ERROR(decode_config(kName, config_fields(), in, config));
  IRITHYLL_RETURN_IF_ERROR(validate_fields<Config>(kName, config_fields(), config));
  LearnerContext context;
  IRITHYLL_RETURN_IF_ERROR(decode_context(in, context));
  const std::uint64_t width = in.u64("knn width");
  const std::uint64_t head = in.u64("knn head");
  const std::uint64_t size = in.u64("knn size");
  const std::uint64_t admitted = in.u64("knn admitted");
  std::vector<double> columns = in.f64s("knn window");
  std::vector<double> targets = in.f64s("knn targets");
  std::vector<double> weights = in.f64s("knn weights");
  std::vector<std::uint64_t> order = in.u64s("knn order");
  std::vector<double> count = in.f64s("knn counts");
  std::vector<double> mean = in.f64s("knn means");
  std::vector<double> m2 = in.f64s("knn m2");
  const std::uint64_t seen = in.u64("knn seen");
  const std::uint64_t skipped = in.u64("knn skipped");
  if (!in.ok()) return in.status();
  const std::size_t w = config.window_size;
  const bool cls = context.task == Task::kClassification;
  bool good = width <= (1u << 24) && (context.n_features == 0 || width == context.n_features) && size <= w &&
              admitted >= size && (size == w ? head < w : head == size);
  const std::size_t rows = width == 0 ? 0 : w;
  good = good && columns.size() == rows * width && targets.size() == rows && weights.size() == rows &&
         order.size() == rows && count.size() == width && mean.size() == width && m2.size() == width;
  for (std::size_t s = 0; good && s < size; ++s)
    good = finite_value(targets[s]) && weights[s] > 0.0 && finite_value(weights[s]) && order[s] < admitted &&
           (!cls || (targets[s] >= 0.0 && targets[s] < static_cast<double>(context.n_classes) &&
                     targets[s] == std::floor(targets[s])));
  for (std::size_t j = 0; good && j < width; ++j)
    good = count[j] >= 0.0 && finite_value(count[j]) && finite_value(mean[j]) && m2[j] >= 0.0 && finite_value(m2[j]);
  for (std::size_t i = 0; good && i < columns.size(); ++i) good = !std::isinf(columns[i]);
  if (!good) return Status::corruption("knn: state out of range");
  config_ = config;
  context_ = std::move(context);
  reset();
  if (width > 0) allocate(width);
  columns_ = std::move(columns), targets_ = std::move(targets), weights_ = std::move(weights);
  order_ = std::move(order), count_ = std::move(count), mean_ = std::move(mean), m2_ = std::move(m2);
  head_ = head, size_ = size, admitted_ = admitted, seen_ = seen, skipped_ = skipped;
  return Status::ok();
}

}  // namespace irithyll
