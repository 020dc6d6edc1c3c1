#include "irithyll/linear/linear_core.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll {

double logistic(double s) {
  if (s >= 0.0) return 1.0 / (1.0 + std::exp(-s));
  const double e = std::exp(s);
  return e / (1.0 + e);
}

void LinearCore::setup(const LearnerContext& context, std::size_t n_out, std::size_t n_state, std::size_t n_aux,
                       bool standardize) {
  context_ = context;
  n_out_ = n_out, n_state_ = n_state, n_aux_ = n_aux;
  standardize_ = standardize;
  width_ = 0;
  w_.clear(), state_.clear(), z_.clear();
  scores_.assign(n_out, 0.0);
  proba_.assign(context.task == Task::kClassification ? context.n_classes : 0, 0.0);
  aux_.assign(n_aux, aux_initial());
  scaler_.resize(0, standardize);
  seen_ = skipped_ = 0;
  // The arrays come with the first admitted sample (allocate), so a record
  // of a blank model never makes this allocate for a width from its bytes.
  width_ = context.n_features;
}

void LinearCore::allocate(std::size_t width) {
  width_ = width;
  w_.assign(n_out_ * (width + 1), 0.0);
  for (std::size_t k = 0; k < n_out_; ++k) w_[k * (width + 1) + width] = intercept_start();
  state_.assign(n_state_ * w_.size(), 0.0);
  z_.assign(width, 0.0);
  scaler_.resize(width, standardize_);
}

void LinearCore::reset() {
  LearnerContext context = context_;
  setup(context, n_out_, n_state_, n_aux_, standardize_);
}

std::span<const double> LinearCore::coefficients(std::size_t k) const {
  if (w_.empty() || k >= n_out_) return {};  // nothing learned yet
  return std::span<const double>(w_).subspan(k * (width_ + 1), width_ + 1);
}

double LinearCore::score(std::size_t k, std::span<const double> z) const {
  const double* row = &w_[k * (width_ + 1)];
  double s = row[width_];
  for (std::size_t j = 0; j < width_; ++j) s += row[j] * z[j];
  return s;
}

void LinearCore::learn_one(std::span<const double> x, double y, double weight) {
  ++seen_;
  if (!sample_admissible(x, y, weight, width_, context_.task, context_.n_classes)) {
    ++skipped_;
    return;
  }
  if (w_.empty()) allocate(width_ == 0 ? x.size() : width_);
  // The statistics learn the sample before transforming it (a running
  // standard scaler in front of the model, learning first).
  scaler_.learn(x, weight);
  scaler_.transform(x, z_);
  update(z_, y, weight);
}

double LinearCore::predict_one(std::span<const double> x) const {
  if (w_.empty() || x.size() != width_) return context_.task == Task::kRegression ? intercept_start() : 0.0;
  scaler_.transform(x, z_);
  if (context_.task == Task::kRegression) return score(0, z_);
  if (n_out_ == 1) return score(0, z_) > 0.0 ? 1.0 : 0.0;
  std::size_t best = 0;
  double top = score(0, z_);
  for (std::size_t k = 1; k < n_out_; ++k) {
    const double s = score(k, z_);
    if (s > top) top = s, best = k;
  }
  return static_cast<double>(best);
}

void LinearCore::predict_proba_one(std::span<const double> x, std::span<double> proba) const {
  if (context_.task != Task::kClassification || proba.size() != context_.n_classes) return;
  if (w_.empty() || x.size() != width_) {
    std::fill(proba.begin(), proba.end(), 1.0 / static_cast<double>(proba.size()));
    return;
  }
  scaler_.transform(x, z_);
  for (std::size_t k = 0; k < n_out_; ++k) scores_[k] = score(k, z_);
  link(scores_, proba);
}

std::size_t LinearCore::memory_bytes() const {
  return sizeof(*this) + scaler_.memory_bytes() +
         (w_.capacity() + state_.capacity() + aux_.capacity() + z_.capacity() + scores_.capacity() +
          proba_.capacity()) *
             sizeof(double);
}

void LinearCore::encode_core(ByteWriter& out) const {
  out.u64(width_);
  out.f64s(w_);
  out.f64s(state_);
  out.f64s(aux_);
  scaler_.encode(out);
  out.u64(seen_);
  out.u64(skipped_);
}

Status LinearCore::decode_core(ByteReader& in) {
  const std::uint64_t width = in.u64("linear width");
  auto w = in.f64s("linear coefficients");
  auto state = in.f64s("linear optimiser state");
  auto aux = in.f64s("linear scalars");
  if (!in.ok()) return in.status();
  if (width > (1u << 24) || (context_.n_features != 0 && width != context_.n_features))
    return Status::corruption(std::string(name()) + ": width out of range");
  // Allocated (a sample learned): the sizes follow from the width, and the
  // coefficients read bound it by the record's own length.
  const bool allocated = !w.empty();
  const std::size_t params = allocated ? n_out_ * (width + 1) : 0;
  if (w.size() != params || state.size() != n_state_ * params || aux.size() != n_aux_ || (allocated && width == 0))
    return Status::corruption(std::string(name()) + ": state sizes do not match the model");
  Standardizer scaler;
  IRITHYLL_RETURN_IF_ERROR(scaler.decode(in, allocated ? width : 0, standardize_));
  const std::uint64_t seen = in.u64("linear seen");
  const std::uint64_t skipped = in.u64("linear skipped");
  if (!in.ok()) return in.status();
  if (skipped > seen) return Status::corruption(std::string(name()) + ": more skipped than seen");
  for (const auto* v : {&w, &state, &aux})
    for (double d : *v)
      if (!std::isfinite(d)) return Status::corruption(std::string(name()) + ": non-finite state");
  width_ = width;
  if (allocated) allocate(width);
  scaler_ = std::move(scaler);
  w_ = std::move(w), state_ = std::move(state), aux_ = std::move(aux);
  seen_ = seen, skipped_ = skipped;
  return Status::ok();
}

}  // namespace irithyll
