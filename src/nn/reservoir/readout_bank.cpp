#include "nn/reservoir/readout_bank.hpp"

#include <algorithm>
#include <cmath>

namespace irithyll::nn {

ReadoutBank::ReadoutBank(Task task, std::size_t n_classes, std::size_t n_inputs, RlsConfig config) : task_(task) {
  const std::size_t c = task == Task::kClassification ? std::max<std::size_t>(n_classes, 1) : 1;
  rls_.reserve(c);
  for (std::size_t k = 0; k < c; ++k) rls_.emplace_back(n_inputs, config);
}

void ReadoutBank::update(std::span<const double> features, double y) noexcept {
  if (!std::isfinite(y)) return;
  if (task_ == Task::kRegression) {
    rls_[0].update(features, y);
    return;
  }
  if (y < 0.0 || y >= static_cast<double>(rls_.size())) return;
  const std::size_t cls = static_cast<std::size_t>(y);
  for (std::size_t k = 0; k < rls_.size(); ++k) rls_[k].update(features, k == cls ? 1.0 : 0.0);
}

double ReadoutBank::predict(std::span<const double> features) const noexcept {
  if (task_ == Task::kRegression) return rls_[0].predict(features);
  std::size_t best = 0;
  double best_score = -INFINITY;
  for (std::size_t k = 0; k < rls_.size(); ++k) {
    const double s = rls_[k].predict(features);
    if (s > best_score) best_score = s, best = k;  // NaN never wins
  }
  return static_cast<double>(best);
}

void ReadoutBank::predict_proba(std::span<const double> features, std::span<double> proba) const noexcept {
  if (task_ == Task::kRegression) return;
  double total = 0.0;
  for (std::size_t k = 0; k < rls_.size() && k < proba.size(); ++k) {
    double s = rls_[k].predict(features);
    s = std::isfinite(s) ? std::clamp(s, 1e-6, 1.0) : 1e-6;
    proba[k] = s;
    total += s;
  }
  for (std::size_t k = 0; k < rls_.size() && k < proba.size(); ++k) proba[k] /= total;
}

void ReadoutBank::reset() noexcept {
  for (auto& r : rls_) r.reset();
}

std::size_t ReadoutBank::memory_bytes() const noexcept {
  std::size_t b = sizeof(*this);
  for (const auto& r : rls_) b += r.memory_bytes();
  return b;
}

void ReadoutBank::encode(ByteWriter& out) const {
  out.u64(rls_.size());
  for (const auto& r : rls_) r.encode(out);
}

Status ReadoutBank::decode(ByteReader& in) {
  const std::uint64_t c = in.u64("readout count");
  if (!in.ok()) return in.status();
  if (c != rls_.size()) return Status::corruption("readout bank: readout count does not match the configuration");
  for (auto& r : rls_) {
    const std::size_t n = r.n_inputs();
    IRITHYLL_RETURN_IF_ERROR(r.decode(in));
    if (r.n_inputs() != n) return Status::corruption("readout bank: readout size does not match the configuration");
  }
  return Status::ok();
}

}  // namespace irithyll::nn
