#include "irithyll/timeseries/lag_forecaster.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "irithyll/core/config_fields.hpp"

namespace irithyll::timeseries {

namespace {
constexpr std::uint32_t kStateVersion = 1;
constexpr std::uint32_t kMaxLag = 100000;
constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
}  // namespace

Result<std::vector<std::uint32_t>> parse_lags(std::string_view text) {
  std::vector<std::uint32_t> lags;
  for (std::string_view item : split_list_items(text, ',')) {
    auto v = parse_field_int("lags", item);
    if (!v) return v.status();
    if (*v < 1 || *v > kMaxLag)
      return Status::invalid_argument("lags: " + std::string(item) + " is out of range: each lag must be in [1, " +
                                      std::to_string(kMaxLag) + "]");
    lags.push_back(static_cast<std::uint32_t>(*v));
  }
  if (lags.empty()) return Status::invalid_argument("lags: give at least one lag (\"1,2,24\")");
  std::sort(lags.begin(), lags.end());
  lags.erase(std::unique(lags.begin(), lags.end()), lags.end());
  return lags;
}

Result<std::unique_ptr<LagForecaster>> LagForecaster::make(std::unique_ptr<Learner> learner,
                                                           std::vector<std::uint32_t> lags, std::size_t n_exogenous,
                                                           BlankLearner blank) {
  if (learner == nullptr) return Status::invalid_argument("lag_regressor: no learner");
  if (learner->task() != Task::kRegression)
    return Status::invalid_argument("lag_regressor: " + std::string(learner->name()) + " is not a regressor");
  if (lags.empty()) return Status::invalid_argument("lag_regressor: needs at least one lag");
  std::sort(lags.begin(), lags.end());
  lags.erase(std::unique(lags.begin(), lags.end()), lags.end());
  if (lags.front() < 1 || lags.back() > kMaxLag)
    return Status::invalid_argument("lag_regressor: lags must be in [1, " + std::to_string(kMaxLag) + "]");
  std::unique_ptr<LagForecaster> f(new LagForecaster());
  f->learner_ = std::move(learner);
  f->blank_ = std::move(blank);
  f->lags_ = std::move(lags);
  f->n_exo_ = n_exogenous;
  f->hist_.assign(f->lags_.back(), kMissing);
  f->feats_.assign(f->lags_.size() + n_exogenous, 0.0);
  return f;
}

void LagForecaster::reset() {
  learner_->reset();
  hist_.assign(lags_.back(), kMissing);
  pushed_ = 0;
  n_seen_ = 0;
}

void LagForecaster::fill(const double* hist_end, std::span<const double> x) const {
  std::size_t k = 0;
  for (std::uint32_t l : lags_) feats_[k++] = hist_end[-static_cast<std::ptrdiff_t>(l)];
  for (std::size_t i = 0; i < n_exo_; ++i) feats_[k++] = i < x.size() ? x[i] : kMissing;
}

Status LagForecaster::learn_one(double y, std::span<const double> x) {
  if (!x.empty() && x.size() != n_exo_)
    return Status::invalid_argument("lag_regressor: " + std::to_string(x.size()) + " exogenous features, expected " +
                                    std::to_string(n_exo_));
  const bool observed = std::isfinite(y);
  if (!observed) {
    if (pushed_ == 0) return Status::ok();
    double one = 0.0;
    IRITHYLL_RETURN_IF_ERROR(forecast(x, std::span<double>(&one, 1)));
    y = one;
  } else {
    ++n_seen_;
  }
  if (observed && pushed_ >= lags_.back()) {
    fill(hist_.data() + hist_.size(), x);
    learner_->learn_one(feats_, y);
  }
  std::copy(hist_.begin() + 1, hist_.end(), hist_.begin());
  hist_.back() = y;
  ++pushed_;
  return Status::ok();
}

Status LagForecaster::forecast(std::span<const double> xs, std::span<double> out) const {
  if (!xs.empty() && xs.size() != out.size() * n_exo_)
    return Status::invalid_argument("lag_regressor: forecast of " + std::to_string(out.size()) + " steps needs " +
                                    std::to_string(out.size() * n_exo_) + " exogenous values, got " +
                                    std::to_string(xs.size()));
  if (pushed_ < lags_.back()) {  // too little history: repeat the last value
    std::fill(out.begin(), out.end(), pushed_ == 0 ? 0.0 : hist_.back());
    return Status::ok();
  }
  fh_.assign(hist_.begin(), hist_.end());
  for (std::size_t h = 0; h < out.size(); ++h) {
    fill(fh_.data() + fh_.size(), xs.empty() ? xs : xs.subspan(h * n_exo_, n_exo_));
    out[h] = learner_->predict_one(feats_);
    fh_.push_back(out[h]);
  }
  return Status::ok();
}

std::size_t LagForecaster::memory_bytes() const {
  return sizeof(*this) + learner_->memory_bytes() +
         (hist_.capacity() + feats_.capacity() + fh_.capacity()) * sizeof(double) +
         lags_.capacity() * sizeof(std::uint32_t);
}

void LagForecaster::encode(ByteWriter& out) const {
  out.u32(kStateVersion);
  out.u64(lags_.size());
  for (std::uint32_t l : lags_) out.u32(l);
  out.u64(n_exo_);
  out.f64s(hist_);
  out.u64(pushed_);
  out.u64(n_seen_);
  out.str(learner_->name());
  learner_->encode(out);
}

Status LagForecaster::decode(ByteReader& in) {
  if (!blank_ || learner_ == nullptr)
    return Status::not_supported("lag_regressor: decode needs the instance made with a blank-learner factory");
  if (in.u32("lag_regressor version") != kStateVersion && in.ok())
    return Status::corruption("lag_regressor: unsupported state version");
  const std::size_t n_lags = in.read_count(4, "lags");
  std::vector<std::uint32_t> lags;
  for (std::size_t i = 0; i < n_lags && in.ok(); ++i) lags.push_back(in.u32("lag"));
  const std::uint64_t n_exo = in.u64("exogenous count");
  std::vector<double> hist = in.f64s("history");
  const std::uint64_t pushed = in.u64("values pushed"), seen = in.u64("samples seen");
  const std::string kind = in.str("learner name");
  if (!in.ok()) return in.status();
  if (lags.empty() || !std::is_sorted(lags.begin(), lags.end()) || lags.front() < 1 || lags.back() > kMaxLag ||
      hist.size() != lags.back() || n_exo > (1u << 24))
    return Status::corruption("lag_regressor checkpoint: inconsistent lags or history");
  if (kind != learner_->name())
    return Status::corruption("lag_regressor checkpoint holds a '" + kind.substr(0, 64) + "', not a '" +
                              std::string(learner_->name()) + "'");
  std::unique_ptr<Learner> learner = blank_(kind);
  if (learner == nullptr) return Status::corruption("lag_regressor checkpoint: unknown learner kind");
  IRITHYLL_RETURN_IF_ERROR(learner->decode(in));
  learner_ = std::move(learner);
  lags_ = std::move(lags);
  n_exo_ = n_exo;
  hist_ = std::move(hist);
  pushed_ = pushed;
  n_seen_ = seen;
  feats_.assign(lags_.size() + n_exo_, 0.0);
  return Status::ok();
}

}  // namespace irithyll::timeseries
