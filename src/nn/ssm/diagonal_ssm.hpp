// DiagonalSsm: the time-invariant diagonal state-space layer (S4D, Gu et al.
// 2022), scalar in, scalar out, N real states:
//
//   h_n <- abar_n h_n + bbar_n B_n x,     y = sum_n C_n h_n
//   abar_n = e^{Delta A_n},  bbar_n = (e^{Delta A_n} - 1) / A_n       (ZOH)
//
// A_n = -exp(log_a_n) < 0, so |abar_n| < 1 for every Delta > 0 and the layer
// is BIBO-stable by construction. A, B, C and Delta are fixed after
// construction (no selection, no training): the impulse response is
// y_k = sum_n C_n B_n bbar_n abar_n^k. It is the non-selective building block
// the selective layers generalise, and a fixed linear filter bank in its own
// right.
//
// Cost per step: 2N multiply-adds; no allocation after construction; memory
// 6N doubles. A non-finite input leaves the state untouched and yields NaN
// (forward writes NaN), so one bad sample cannot poison the recurrence.
// Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "nn/ssm/ssm_layer.hpp"

namespace irithyll::nn {

enum class DiagonalSsmInit : std::uint8_t {
  kMamba = 0,   // log_a[n] = ln(n + 1)        (mamba_init)
  kS4dLin = 1,  // log_a[n] = ln(1/2)          (s4d_lin_real)
  kS4dInv = 2,  // log_a[n] = ln(1/2 + n/N)    (s4d_inv_real)
};

struct DiagonalSsmConfig {
  std::size_t n_state = 16;  // 1 .. 65536
  double delta = 0.1;        // step size, finite and > 0
  DiagonalSsmInit init = DiagonalSsmInit::kS4dInv;
  std::uint64_t seed = 42;
  // B_n, C_n ~ N(0, weight_scale^2 / N), drawn in the order B then C; the
  // 1/N keeps the output variance independent of N.
  double weight_scale = 1.0;
};

class DiagonalSsm final : public SsmLayer {
 public:
  DiagonalSsm() = default;
  static Result<DiagonalSsm> make(const DiagonalSsmConfig& config);
  // Explicit parameters: log_a, b, c of one length N >= 1, all finite.
  static Result<DiagonalSsm> make(std::span<const double> log_a, std::span<const double> b,
                                  std::span<const double> c, double delta);

  // Advances the state by one sample and returns y. Non-finite x: NaN, state kept.
  double step(double x) noexcept;
  // y for x without advancing the state.
  double predict(double x) const noexcept;

  std::size_t input_dim() const noexcept override { return 1; }
  std::size_t output_dim() const noexcept override { return 1; }
  // REQUIRES: x.size() == 1, y.size() == 1.
  void forward(std::span<const double> x, std::span<double> y) noexcept override { y[0] = step(x[0]); }
  void forward_predict(std::span<const double> x, std::span<double> y) const noexcept override {
    y[0] = predict(x[0]);
  }
  void reset() noexcept override;
  std::span<const double> state() const noexcept override { return h_; }
  std::size_t memory_bytes() const noexcept override;
  void encode(ByteWriter& out) const override;
  Status decode(ByteReader& in) override;

  std::size_t n_state() const noexcept { return h_.size(); }
  double delta() const noexcept { return delta_; }
  std::span<const double> log_a() const noexcept { return log_a_; }
  std::span<const double> b() const noexcept { return b_; }
  std::span<const double> c() const noexcept { return c_; }
  // Discretised coefficients: abar_n and bbar_n B_n.
  std::span<const double> a_bar() const noexcept { return a_bar_; }
  std::span<const double> b_bar() const noexcept { return b_bar_; }

 private:
  // Validates and installs the parameters; recomputes the discretisation.
  Status assign(std::vector<double> log_a, std::vector<double> b, std::vector<double> c, double delta);

  double delta_ = 0.0;
  std::vector<double> log_a_, b_, c_;
  std::vector<double> a_bar_, b_bar_;  // derived: e^{Delta A}, bbar B
  std::vector<double> h_;
};

}  // namespace irithyll::nn
