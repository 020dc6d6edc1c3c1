#include "irithyll/cluster/kmeans.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "irithyll/core/config_codec.hpp"
#include "cluster/weighted_kmeans.hpp"
#include "core/field_rows.hpp"

namespace irithyll {
namespace {

Result<KMeansInit> parse_init(std::string_view s) {
  if (s == "kmeans++") return KMeansInit::kPlusPlus;
  if (s == "gaussian") return KMeansInit::kGaussian;
  return Status::invalid_argument("unknown init '" + std::string(s) + "' (kmeans++|gaussian)");
}
std::string_view init_name(KMeansInit i) { return i == KMeansInit::kGaussian ? "gaussian" : "kmeans++"; }
Result<KMeansUpdate> parse_update(std::string_view s) {
  if (s == "mean") return KMeansUpdate::kMean;
  if (s == "halflife") return KMeansUpdate::kHalflife;
  return Status::invalid_argument("unknown update '" + std::string(s) + "' (mean|halflife)");
}
std::string_view update_name(KMeansUpdate u) { return u == KMeansUpdate::kHalflife ? "halflife" : "mean"; }

using KmeansRow = ConfigField<KMeansConfig>;
const std::array kKmeansFields = {
    KmeansRow{FieldInfo::integer("n-clusters", "5", "number of centres k").in(1, 4096),
        IRITHYLL_FIELD_UINT(KMeansConfig, n_clusters)},
    KmeansRow{FieldInfo::real("halflife", "0.5", "update = halflife: fraction of the error a centre moves per sample").in(0, 1, true),
        IRITHYLL_FIELD_REAL(KMeansConfig, halflife)},
    KmeansRow{FieldInfo::real("mu", "0", "init = gaussian: mean of the random start coordinates"),
        IRITHYLL_FIELD_REAL(KMeansConfig, mu)},
    KmeansRow{FieldInfo::real("sigma", "1", "init = gaussian: standard deviation of the random start coordinates").at_least(0),
        IRITHYLL_FIELD_REAL(KMeansConfig, sigma)},
    KmeansRow{FieldInfo::real("p", "2", "power of the Minkowski distance (2 = Euclidean)").in(1, 64),
        IRITHYLL_FIELD_REAL(KMeansConfig, p)},
    KmeansRow{FieldInfo::choice("init", "kmeans++", "kmeans++|gaussian",
                          "start: k-means++ over the first init-samples rows, or River's N(mu, sigma) coordinates"),
        IRITHYLL_FIELD_ENUM(KMeansConfig, init, parse_init, init_name)},
    KmeansRow{FieldInfo::integer("init-samples", "256", "init = kmeans++: rows kept for the start (at least k are used)").in(1, 1e6),
        IRITHYLL_FIELD_UINT(KMeansConfig, init_samples)},
    KmeansRow{FieldInfo::choice("update", "mean", "mean|halflife",
                          "step: w / (centre weight), a running mean; or River's constant halflife"),
        IRITHYLL_FIELD_ENUM(KMeansConfig, update, parse_update, update_name)},
    KmeansRow{FieldInfo::real("window", "1000", "update = mean: cap on a centre's weight, so it keeps following drift").at_least(1).or_off(),
        IRITHYLL_FIELD_REAL(KMeansConfig, window)},
};

constexpr int kStartRestarts = 10;
constexpr int kStartIterations = 100;

}  // namespace

std::span<const ConfigField<KMeansConfig>> kmeans_config_fields() { return kKmeansFields; }

Status KMeansConfig::validate() const {
  IRITHYLL_RETURN_IF_ERROR(validate_fields<KMeansConfig>("kmeans", kKmeansFields, *this));
  if (static_cast<unsigned>(init) > 1 || static_cast<unsigned>(update) > 1)
    return Status::invalid_argument("kmeans: enum setting out of range");
  return Status::ok();
}

KMeans::KMeans(KMeansConfig config, std::uint64_t seed) : config_(config), seed_(seed), rng_(seed) { reset(); }

Result<std::unique_ptr<KMeans>> KMeans::make(const KMeansConfig& config, std::uint64_t seed) {
  IRITHYLL_RETURN_IF_ERROR(config.validate());
  return std::make_unique<KMeans>(config, seed);
}

void KMeans::reset() {
  rng_ = Xorshift64(seed_);
  gate_ = {};
  initialised_ = false;
  n_centres_ = 0;
  centres_.clear();
  weights_.assign(config_.n_clusters, 0.0);
  buffer_.clear();
  buffer_w_.clear();
  buffer_.shrink_to_fit();
  buffer_w_.shrink_to_fit();
}

std::size_t KMeans::nearest(std::span<const double> x) const {
  const std::size_t d = x.size();
  std::size_t best = 0;
  double bd = std::numeric_limits<double>::infinity();
  if (config_.p == 2.0) {
    for (std::size_t c = 0; c < n_centres_; ++c) {
      const double dd = cluster_detail::squared_distance(x.data(), &centres_[c * d], d);
      if (dd < bd) bd = dd, best = c;
    }
    return best;
  }
  for (std::size_t c = 0; c < n_centres_; ++c) {
    double s = 0.0;  // sum |diff|^p: monotone in the Minkowski distance
    for (std::size_t f = 0; f < d; ++f) s += std::pow(std::fabs(x[f] - centres_[c * d + f]), config_.p);
    if (s < bd) bd = s, best = c;
  }
  return best;
}

Status KMeans::learn_one(std::span<const double> x, double weight) {
  bool learn = false;
  IRITHYLL_RETURN_IF_ERROR(gate_.admit("kmeans", x, weight, learn));
  if (!learn) return Status::ok();
  const std::size_t d = x.size(), k = config_.n_clusters;
  if (!initialised_ && config_.init == KMeansInit::kGaussian) {
    centres_.resize(k * d);
    for (double& c : centres_) c = rng_.normal(config_.mu, config_.sigma);
    n_centres_ = k;
    initialised_ = true;
  }
  if (!initialised_) {
    // Start-up: the first k rows are provisional centres; the buffer feeds
    // the k-means++ start once it is full.
    if (n_centres_ < k) {
      centres_.insert(centres_.end(), x.begin(), x.end());
      weights_[n_centres_] = weight;
      ++n_centres_;
    } else {
      const std::size_t j = nearest(x);
      weights_[j] += weight;
      for (std::size_t f = 0; f < d; ++f) centres_[j * d + f] += weight / weights_[j] * (x[f] - centres_[j * d + f]);
    }
    buffer_.insert(buffer_.end(), x.begin(), x.end());
    buffer_w_.push_back(weight);
    if (buffer_w_.size() >= std::max<std::size_t>(config_.init_samples, k)) start_from_buffer();
    return Status::ok();
  }
  const std::size_t j = nearest(x);
  double step;
  if (config_.update == KMeansUpdate::kMean) {
    weights_[j] += weight;
    if (config_.window > 0.0) weights_[j] = std::min(weights_[j], config_.window);
    step = std::min(1.0, weight / weights_[j]);
  } else {
    // A weight-w sample moves the centre as w unit samples would.
    weights_[j] += weight;
    step = weight == 1.0 ? config_.halflife : 1.0 - std::pow(1.0 - config_.halflife, weight);
  }
  double* c = &centres_[j * d];
  for (std::size_t f = 0; f < d; ++f) c[f] += step * (x[f] - c[f]);
  return Status::ok();
}

void KMeans::start_from_buffer() {
  const std::size_t d = gate_.n_features;
  cluster_detail::WeightedKMeansResult r = cluster_detail::weighted_kmeans(
      buffer_, buffer_w_, d, config_.n_clusters, rng_, kStartRestarts, kStartIterations);
  n_centres_ = r.weights.size();
  centres_ = std::move(r.centres);
  weights_.assign(config_.n_clusters, 0.0);
  for (std::size_t c = 0; c < n_centres_; ++c)
    weights_[c] = config_.window > 0.0 ? std::min(r.weights[c], config_.window) : r.weights[c];
  // The buffer holds at least k rows, so k centres come back (some may
  // coincide when rows repeat; they split as the stream brings new points).
  initialised_ = true;
  buffer_ = {};
  buffer_w_ = {};
}

std::int64_t KMeans::predict_one(std::span<const double> x) const {
  if (n_centres_ == 0 || !gate_.can_predict(x)) return -1;
  return static_cast<std::int64_t>(nearest(x));
}

std::vector<double> KMeans::centers() const {
  return {centres_.begin(), centres_.begin() + static_cast<std::ptrdiff_t>(n_centres_ * gate_.n_features)};
}

std::size_t KMeans::memory_bytes() const {
  return sizeof(*this) + (centres_.capacity() + weights_.capacity() + buffer_.capacity() + buffer_w_.capacity()) *
                             sizeof(double);
}

ModelSettings KMeans::settings() const { return settings_of<KMeansConfig>(kKmeansFields, config_); }

void KMeans::encode(ByteWriter& out) const {
  encode_config(std::span<const ConfigField<KMeansConfig>>(kKmeansFields), config_, out, ConfigLengths::kVarint);
  out.u64(seed_);
  out.u64(rng_.state());
  gate_.encode(out);
  out.boolean(initialised_);
  out.u64(n_centres_);
  out.f64s(centres_);
  out.f64s(weights_);
  out.f64s(buffer_);
  out.f64s(buffer_w_);
}

Status KMeans::decode(ByteReader& in) { return decode_record(in, false); }

Status KMeans::decode_v1(ByteReader& in) { return decode_record(in, true); }

Status KMeans::decode_record(ByteReader& in, bool binary_settings) {
  KMeansConfig c;
  if (binary_settings) {
    c.n_clusters = in.u32("n_clusters");
    c.halflife = in.f64("halflife");
    c.mu = in.f64("mu");
    c.sigma = in.f64("sigma");
    c.p = in.f64("p");
    c.init = static_cast<KMeansInit>(in.u8("init"));
    c.init_samples = in.u32("init_samples");
    c.update = static_cast<KMeansUpdate>(in.u8("update"));
    c.window = in.f64("window");
  } else {
    IRITHYLL_RETURN_IF_ERROR(decode_config("kmeans", std::span<const ConfigField<KMeansConfig>>(kKmeansFields), in, c));
  }
  const std::uint64_t seed = in.u64("seed");
  const std::uint64_t state = in.u64("rng");
  if (!in.ok()) return in.status();
  if (Status s = c.validate(); !s) return Status::corruption("kmeans checkpoint: " + s.message());
  config_ = c;
  seed_ = seed;
  reset();
  rng_.set_state(state);
  gate_.decode(in);
  initialised_ = in.boolean("initialised");
  const std::uint64_t n_centres = in.u64("n_centres");
  centres_ = in.f64s("centres");
  weights_ = in.f64s("weights");
  buffer_ = in.f64s("buffer");
  buffer_w_ = in.f64s("buffer weights");
  const std::size_t d = gate_.n_features, k = config_.n_clusters;
  if (in.ok()) {
    in.expect(n_centres <= k && weights_.size() == k, "centre count <= n_clusters");
    in.expect(d > 0 || (n_centres == 0 && buffer_w_.empty()), "no centres before the width is known");
    in.expect(centres_.size() == n_centres * d, "centres = n_centres x n_features");
    in.expect(buffer_.size() == buffer_w_.size() * d, "start-up buffer = rows x n_features");
    in.expect(!initialised_ || (buffer_w_.empty() && n_centres == k && d > 0), "no buffer once started");
    in.expect(initialised_ || buffer_w_.size() < std::max<std::size_t>(config_.init_samples, k),
              "start-up buffer below init-samples");
    in.expect(initialised_ || n_centres == std::min<std::size_t>(k, buffer_w_.size()),
              "provisional centres = first rows");
    bool finite = true;
    for (const double v : centres_) finite = finite && std::isfinite(v);
    for (const double v : buffer_) finite = finite && std::isfinite(v);
    for (const double v : weights_) finite = finite && std::isfinite(v) && v >= 0.0;
    for (const double v : buffer_w_) finite = finite && std::isfinite(v) && v > 0.0;
    in.expect(finite, "finite centres and weights");
  }
  if (!in.ok()) {
    const Status s = in.status();
    reset();
    return Status::corruption("kmeans checkpoint: " + s.message());
  }
  n_centres_ = static_cast<std::size_t>(n_centres);
  return Status::ok();
}

}  // namespace irithyll
