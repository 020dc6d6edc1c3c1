#include "nn/rnn/slstm.hpp"

#include <algorithm>
#include <cmath>

#include "nn/kernels.hpp"
#include "nn/rnn/cell_codec.hpp"
#include "rnn_math.hpp"

namespace irithyll::nn {

namespace {
constexpr double kGateClamp = 20.0;
}

std::vector<double> forget_bias_linspace(double start, double stop, std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = n == 1 ? start : start + (stop - start) * static_cast<double>(i) / static_cast<double>(n - 1);
  return v;
}

Status SlstmCell::validate(const SlstmConfig& c) {
  if (c.d_in == 0 || c.d_hidden == 0 || c.n_heads == 0) return Status::invalid_argument("slstm: d_in, d_hidden and n_heads must be >= 1");
  if (c.d_in > 65536 || c.d_hidden > 4096) return Status::invalid_argument("slstm: dimensions too large");
  if (c.forget_gate != SlstmForgetGate::kSigmoid && c.forget_gate != SlstmForgetGate::kExponential)
    return Status::invalid_argument("slstm: unknown forget gate");
  if (c.d_hidden % c.n_heads != 0) return Status::invalid_argument("slstm: n_heads must divide d_hidden");
  if (!c.forget_bias.empty() && c.forget_bias.size() != c.d_hidden)
    return Status::invalid_argument("slstm: forget_bias must have d_hidden entries");
  for (double v : c.forget_bias)
    if (!std::isfinite(v)) return Status::invalid_argument("slstm: forget_bias must be finite");
  return Status::ok();
}

SlstmCell::SlstmCell(const SlstmConfig& config) : cfg_(config) {
  const std::size_t d = cfg_.d_in, hdim = cfg_.d_hidden;
  if (cfg_.forget_bias.empty()) cfg_.forget_bias.assign(hdim, 1.0);
  dph_ = hdim / cfg_.n_heads;
  Xorshift64 rng(cfg_.seed);
  const double scale = std::sqrt(2.0 / static_cast<double>(d + hdim));
  for (auto& w : w_) {
    w.resize(hdim * d);
    for (double& v : w) v = scale * rng.normal();
  }
  for (auto& r : r_) {
    r.resize(hdim * dph_);
    for (double& v : r) v = scale * rng.normal();
  }
  for (auto& b : b_) b.assign(hdim, 0.0);
  b_[0] = cfg_.forget_bias;
  h_.assign(hdim, 0.0);
  c_.assign(hdim, 0.0);
  n_.assign(hdim, 1.0);
  m_.assign(hdim, 0.0);
  pre_.assign(4 * hdim, 0.0);
}

template <bool kCommit>
void SlstmCell::step(std::span<const double> x, std::span<double> h_out, double* h, double* c, double* n,
                     double* m) const noexcept {
  const std::size_t d = cfg_.d_in, hdim = cfg_.d_hidden;
  // Input and recurrent contributions for all units and gates first: every
  // unit must read h_{t-1} before any unit writes h_t.
  for (int g = 0; g < 4; ++g) {
    double* pre = pre_.data() + static_cast<std::size_t>(g) * hdim;
    matvec(w_[g].data(), x.data(), pre, hdim, d);
    for (std::size_t j = 0; j < hdim; ++j) {
      const std::size_t head0 = (j / dph_) * dph_;
      pre[j] += dot(r_[g].data() + j * dph_, h + head0, dph_) + b_[g][j];
    }
  }
  for (std::size_t j = 0; j < hdim; ++j) {
    const double ft = std::clamp(pre_[j], -kGateClamp, kGateClamp);
    const double it = std::clamp(pre_[hdim + j], -kGateClamp, kGateClamp);
    const double o = detail::rnn_sigmoid(pre_[2 * hdim + j]);
    const double z = std::tanh(pre_[3 * hdim + j]);
    // log sigmoid(f~) = -softplus(-f~), stable for |f~| <= 20.
    const double lf = cfg_.forget_gate == SlstmForgetGate::kSigmoid ? -std::log1p(std::exp(-ft)) : ft;
    const double m_new = std::max(lf + m[j], it);
    const double f_s = std::exp(lf + m[j] - m_new), i_s = std::exp(it - m_new);
    const double c_new = f_s * c[j] + i_s * z;
    const double n_new = f_s * n[j] + i_s;
    const double h_new = o * c_new / std::max(n_new, 1e-300);
    h_out[j] = h_new;
    if constexpr (kCommit) {
      c[j] = c_new;
      n[j] = n_new;
      m[j] = m_new;
    }
  }
  if constexpr (kCommit) std::copy(h_out.begin(), h_out.end(), h);
}

void SlstmCell::forward(std::span<const double> x, std::span<double> h_out) noexcept {
  step<true>(x, h_out, h_.data(), c_.data(), n_.data(), m_.data());
}

void SlstmCell::forward_predict(std::span<const double> x, std::span<double> h_out) const noexcept {
  // step<false> only reads through these pointers.
  step<false>(x, h_out, const_cast<double*>(h_.data()), const_cast<double*>(c_.data()),
              const_cast<double*>(n_.data()), const_cast<double*>(m_.data()));
}

void SlstmCell::reset() noexcept {
  std::fill(h_.begin(), h_.end(), 0.0);
  std::fill(c_.begin(), c_.end(), 0.0);
  std::fill(n_.begin(), n_.end(), 1.0);
  std::fill(m_.begin(), m_.end(), 0.0);
}

void SlstmCell::reinitialize_unit(std::size_t j, Xorshift64& rng) noexcept {
  if (j >= cfg_.d_hidden) return;
  const double scale = std::sqrt(2.0 / static_cast<double>(cfg_.d_in + cfg_.d_hidden));
  for (int g = 0; g < 4; ++g)
    for (std::size_t k = 0; k < cfg_.d_in; ++k) w_[g][j * cfg_.d_in + k] = scale * rng.normal();
  for (int g = 0; g < 4; ++g)
    for (std::size_t k = 0; k < dph_; ++k) r_[g][j * dph_ + k] = scale * rng.normal();
  b_[0][j] = cfg_.forget_bias[j];
  b_[1][j] = b_[2][j] = b_[3][j] = 0.0;
  h_[j] = c_[j] = m_[j] = 0.0;
  n_[j] = 1.0;
}

std::size_t SlstmCell::memory_bytes() const noexcept {
  std::size_t n = cfg_.forget_bias.capacity() + h_.capacity() + c_.capacity() + n_.capacity() + m_.capacity() + pre_.capacity();
  for (int g = 0; g < 4; ++g) n += w_[g].capacity() + r_[g].capacity() + b_[g].capacity();
  return sizeof(*this) + n * sizeof(double);
}

void SlstmCell::encode(ByteWriter& out) const {
  out.u64(cfg_.d_in);
  out.u64(cfg_.d_hidden);
  out.u64(cfg_.n_heads);
  out.u64(cfg_.seed);
  out.u8(static_cast<std::uint8_t>(cfg_.forget_gate));
  out.f64s(cfg_.forget_bias);
  for (int g = 0; g < 4; ++g) {
    out.f64s(w_[g]);
    out.f64s(r_[g]);
    out.f64s(b_[g]);
  }
  out.f64s(h_);
  out.f64s(c_);
  out.f64s(n_);
  out.f64s(m_);
}

Status SlstmCell::decode(ByteReader& in) {
  SlstmConfig c;
  c.d_in = in.u64("slstm d_in");
  c.d_hidden = in.u64("slstm d_hidden");
  c.n_heads = in.u64("slstm n_heads");
  c.seed = in.u64("slstm seed");
  c.forget_gate = static_cast<SlstmForgetGate>(in.u8("slstm forget gate"));
  c.forget_bias = in.f64s("slstm forget bias");
  if (!in.ok()) return in.status();
  if (Status s = validate(c); !s.is_ok() || c.forget_bias.size() != c.d_hidden)
    return Status::corruption("slstm: bad configuration");
  // The record's settings are those this cell was built with (its owner
  // builds it from the named settings first); any others come from cfg_.
  if (c.d_in != cfg_.d_in || c.d_hidden != cfg_.d_hidden || c.n_heads != cfg_.n_heads || c.seed != cfg_.seed ||
      c.forget_gate != cfg_.forget_gate || c.forget_bias != cfg_.forget_bias)
    return Status::corruption("slstm: the record differs from the settings this cell was built with");
  // The arrays that follow must fit in what is left before the blank cell is
  // allocated at that size: 4 d_h (d_in + d_h/heads + 1) + 4 d_h doubles.
  const std::size_t hd = c.d_hidden, n_doubles = 4 * hd * (c.d_in + hd / c.n_heads + 1) + 4 * hd;
  if (in.remaining() / sizeof(double) < n_doubles) return Status::corruption("slstm: record shorter than its cell");
  SlstmCell cell(cfg_);
  for (int g = 0; g < 4; ++g) {
    detail::read_cell_array(in, cell.w_[g], "slstm", "W");
    detail::read_cell_array(in, cell.r_[g], "slstm", "R");
    detail::read_cell_array(in, cell.b_[g], "slstm", "b");
  }
  detail::read_cell_array(in, cell.h_, "slstm", "h");
  detail::read_cell_array(in, cell.c_, "slstm", "c");
  detail::read_cell_array(in, cell.n_, "slstm", "n");
  detail::read_cell_array(in, cell.m_, "slstm", "m");
  if (!in.ok()) return in.status();
  *this = std::move(cell);
  return Status::ok();
}

}  // namespace irithyll::nn
