// LogLinearAttention's paper forms (Log-Linear Mamba-2 / Gated DeltaNet):
// gates, the recurrent step and the one-step gradient documented in
// log_linear.hpp. The recurrence itself is fenwick_levels.hpp's.
#include <algorithm>
#include <cmath>

#include "nn/attention/fenwick.hpp"
#include "irithyll/nn/attention/log_linear.hpp"
#include "irithyll/nn/attention/fenwick_levels.hpp"
#include "nn/kernels.hpp"
#include "nn/primitives.hpp"

namespace irithyll::nn {

// Mamba-2 (A = -1): dt = softplus(a), alpha = e^-dt, write dt.
// Gated DeltaNet: alpha = sigmoid(a_0), beta = sigmoid(a_1), erase = write = beta.
void LogLinearAttention::paper_gates(const double* x) const noexcept {
  const std::size_t dm = cfg_.d_model;
  for (std::size_t g = 0; g < cfg_.gate_rows(); ++g) gate_a_[g] = dot(wg_.data() + g * dm, x, dm);
  if (cfg_.form == LogLinearForm::kMamba2) {
    write_ = softplus(gate_a_[0]);
    alpha_ = std::exp(-write_);
  } else {
    alpha_ = sigmoid(gate_a_[0]);
    write_ = sigmoid(gate_a_[1]);
  }
}

void LogLinearAttention::paper_step(double* levels, std::uint64_t& mask, std::span<double> out,
                                    bool grad) const noexcept {
  const std::size_t dk = cfg_.d_key, dv = cfg_.d_value;
  const std::uint32_t L = cfg_.max_levels;
  mask = loglinear_paper_merge(levels, mask, L, dk, dv);
  if (grad) {
    // P = sum_l lambda_l S_l (merged, before the transition) and its products with q and kh.
    std::fill(p_.begin(), p_.end(), 0.0);
    for (std::uint32_t l = 0; l < L; ++l) {
      if (!((mask >> l) & 1u)) continue;
      axpy(lam_[l], levels + static_cast<std::size_t>(l) * dk * dv, p_.data(), dk * dv);
    }
    std::fill(pq_.begin(), pq_.end(), 0.0);
    std::fill(pk_.begin(), pk_.end(), 0.0);
    for (std::size_t i = 0; i < dk; ++i) {
      axpy(q_[i], p_.data() + i * dv, pq_.data(), dv);
      axpy(kh_[i], p_.data() + i * dv, pk_.data(), dv);
    }
  }
  const double erase = cfg_.form == LogLinearForm::kGatedDeltaNet ? write_ : 0.0;
  loglinear_paper_transition_write(levels, mask, L, dk, dv, alpha_, erase, kh_.data(), write_, v_.data(), u_.data());
  fenwick_read(levels, mask, L, dk, dv, lam_.data(), q_.data(), out.data());
  tanh_inplace(out.first(dv));
}

void LogLinearAttention::paper_gradient(std::span<const double> out, const double* delta) noexcept {
  (void)out;
  const std::size_t dk = cfg_.d_key, dv = cfg_.d_value, L = cfg_.max_levels, block = dk * dv;
  // dlambda_l = q^T S'_l delta and dq = sum_l lambda_l S'_l delta over the levels after the step.
  std::fill(dq_.begin(), dq_.end(), 0.0);
  for (std::uint32_t l = 0; l < L; ++l) {
    dl_[l] = 0.0;
    if (!((mask_ >> l) & 1u)) continue;
    const double* s = levels_.data() + l * block;
    double acc = 0.0;
    for (std::size_t i = 0; i < dk; ++i) {
      const double sd = dot(s + i * dv, delta, dv);
      acc += q_[i] * sd;
      dq_[i] += lam_[l] * sd;
    }
    dl_[l] = acc;
  }
  double mean = 0.0;
  for (std::uint32_t l = 0; l < L; ++l) mean += lam_[l] * dl_[l];
  const double scale = 1.0 / (cfg_.tau * sum_softplus_);
  for (std::uint32_t l = 0; l < L; ++l) dr_[l] = sigmoid(r_[l] / cfg_.tau) * scale * (dl_[l] - mean);
  if (!(sum_softplus_ > 0.0) || !std::isfinite(sum_softplus_)) std::fill(dr_.begin(), dr_.end(), 0.0);

  const double lam0 = lam_[0];
  const double kq = dot(kh_.data(), q_.data(), dk);
  const double vd = dot(v_.data(), delta, dv);
  const double pqd = dot(pq_.data(), delta, dv);
  if (cfg_.form == LogLinearForm::kMamba2) {
    const double dt = write_;
    for (std::size_t c = 0; c < dv; ++c) dv_[c] = lam0 * dt * kq * delta[c];
    for (std::size_t i = 0; i < dk; ++i) dk_[i] = lam0 * dt * vd * q_[i];
    const double ddt = -alpha_ * pqd + lam0 * kq * vd;
    dg_[0] = ddt * sigmoid(gate_a_[0]);  // softplus' = sigmoid
    return;
  }
  const double beta = write_, alpha = alpha_;
  const double pkd = dot(pk_.data(), delta, dv);
  // pd = P delta (d_key).
  for (std::size_t i = 0; i < dk; ++i) pd_[i] = dot(p_.data() + i * dv, delta, dv);
  const double dalpha = pqd - beta * kq * pkd;
  const double dbeta = kq * (lam0 * vd - alpha * pkd);
  for (std::size_t c = 0; c < dv; ++c) dv_[c] = lam0 * beta * kq * delta[c];
  for (std::size_t i = 0; i < dk; ++i) dk_[i] = lam0 * beta * vd * q_[i] - alpha * beta * (pkd * q_[i] + kq * pd_[i]);
  // Through kh = k / |k| (0 when the key was below the floor).
  if (knorm_ > 0.0) {
    const double proj = dot(kh_.data(), dk_.data(), dk);
    for (std::size_t i = 0; i < dk; ++i) dk_[i] = (dk_[i] - kh_[i] * proj) / knorm_;
  } else {
    std::fill(dk_.begin(), dk_.end(), 0.0);
  }
  dg_[0] = dalpha * alpha * (1.0 - alpha);
  dg_[1] = dbeta * beta * (1.0 - beta);
}

}  // namespace irithyll::nn
