#include "nn/ssm/mamba3.hpp"

#include <cmath>

#include "nn/kernels.hpp"
#include "nn/ssm/discretize.hpp"
#include "nn/ssm/init.hpp"
#include "nn/primitives.hpp"
#include "ssm_math.hpp"

namespace irithyll::nn {

namespace {
constexpr std::size_t kMaxRank = 16;
}

Status Mamba3::validate(const Mamba3Config& c) {
  if (c.d_in == 0 || c.n_state == 0 || c.n_groups == 0) return Status::invalid_argument("mamba3: d_in, n_state and n_groups must be >= 1");
  if (c.d_in > 65536 || c.n_state > 4096) return Status::invalid_argument("mamba3: dimensions too large");
  if (c.d_in % c.n_groups != 0) return Status::invalid_argument("mamba3: n_groups must divide d_in");
  if (c.rank > kMaxRank) return Status::invalid_argument("mamba3: rank must be <= 16");
  if (c.discretization != Mamba3Discretization::kExpTrapezoidal && c.discretization != Mamba3Discretization::kTustin)
    return Status::invalid_argument("mamba3: unknown discretization");
  if (!(c.dt_init > 0.0) || !std::isfinite(c.dt_init)) return Status::invalid_argument("mamba3: dt_init must be finite and > 0");
  if (!(c.weight_scale >= 0.0) || !std::isfinite(c.weight_scale))
    return Status::invalid_argument("mamba3: weight_scale must be finite and >= 0");
  return Status::ok();
}

Result<Mamba3> Mamba3::make(const Mamba3Config& config) {
  IRITHYLL_RETURN_IF_ERROR(validate(config));
  return Mamba3(config);
}

void Mamba3::allocate() {
  const std::size_t d = cfg_.d_in, n = cfg_.n_state, g = cfg_.n_groups;
  p_ = d / g;
  p_eff_ = cfg_.rank == 0 ? 1 : p_;
  r_eff_ = cfg_.rank == 0 ? 1 : cfg_.rank;
  log_a_.assign(2 * n, 0.0);
  w_delta_.assign(d, 0.0);
  w_lambda_.assign(d, 0.0);
  w_b_.assign(g * n * r_eff_ * d, 0.0);
  w_c_.assign(g * n * r_eff_ * d, 0.0);
  b_b_.assign(g * n * r_eff_, 0.0);
  b_c_.assign(g * n * r_eff_, 0.0);
  w_x_.assign(cfg_.rank == 0 ? 0 : g * p_ * r_eff_ * p_, 0.0);
  w_y_.assign(g * p_eff_ * r_eff_, 0.0);
  skip_.assign(d, 1.0);
  h_.assign(2 * g * n * p_eff_, 0.0);
  u_prev_.assign(g * n * p_eff_, 0.0);
  if (cfg_.use_bcnorm) norm_.emplace(n * r_eff_);
  else norm_.reset();
  bproj_.assign(g * n * r_eff_, 0.0);
  cproj_.assign(g * n * r_eff_, 0.0);
  xproj_.assign(p_eff_ * r_eff_, 0.0);
  alpha_re_.assign(n, 0.0);
  alpha_im_.assign(n, 0.0);
  beta_re_.assign(n, 0.0);
  beta_im_.assign(n, 0.0);
  z_.assign(p_eff_ * r_eff_, 0.0);
}

Mamba3::Mamba3(const Mamba3Config& config) : cfg_(config) {
  allocate();
  s4d_inv_complex(log_a_);
  Xorshift64 rng(cfg_.seed);
  for (double& v : w_delta_) v = cfg_.weight_scale * rng.normal();
  for (double& v : w_lambda_) v = cfg_.weight_scale * rng.normal();
  b_delta_ = detail::softplus_inverse(cfg_.dt_init > 0.0 ? cfg_.dt_init : 0.1);
  b_lambda_ = 0.0;  // lambda starts near 1/2: the trapezoid
  for (std::size_t g = 0; g < cfg_.n_groups; ++g) draw_group(g, rng);
}

void Mamba3::draw_group(std::size_t g, Xorshift64& rng) noexcept {
  const std::size_t d = cfg_.d_in, rows = cfg_.n_state * r_eff_;
  for (std::size_t i = g * rows * d; i < (g + 1) * rows * d; ++i) w_b_[i] = cfg_.weight_scale * rng.normal();
  for (std::size_t i = g * rows * d; i < (g + 1) * rows * d; ++i) w_c_[i] = cfg_.weight_scale * rng.normal();
  for (std::size_t i = g * rows; i < (g + 1) * rows; ++i) b_b_[i] = cfg_.weight_scale * rng.normal();
  for (std::size_t i = g * rows; i < (g + 1) * rows; ++i) b_c_[i] = cfg_.weight_scale * rng.normal();
  if (cfg_.rank > 0) {
    // Column r = 0 of X is the group's input itself; the others are random
    // projections of it with unit expected gain.
    const double s = 1.0 / std::sqrt(static_cast<double>(p_));
    for (std::size_t p = 0; p < p_; ++p)
      for (std::size_t r = 0; r < r_eff_; ++r)
        for (std::size_t q = 0; q < p_; ++q)
          w_x_[((g * p_ + p) * r_eff_ + r) * p_ + q] = r == 0 ? (p == q ? 1.0 : 0.0) : s * rng.normal();
  }
  const double sy = 1.0 / std::sqrt(static_cast<double>(r_eff_));
  for (std::size_t p = 0; p < p_eff_; ++p)
    for (std::size_t r = 0; r < r_eff_; ++r) w_y_[(g * p_eff_ + p) * r_eff_ + r] = r == 0 ? 1.0 : sy * rng.normal();
}

void Mamba3::reinitialize_group(std::size_t g, Xorshift64& rng) noexcept {
  if (g >= cfg_.n_groups) return;
  draw_group(g, rng);
  const std::size_t per = cfg_.n_state * p_eff_;
  std::fill(h_.begin() + static_cast<std::ptrdiff_t>(2 * g * per), h_.begin() + static_cast<std::ptrdiff_t>(2 * (g + 1) * per), 0.0);
  std::fill(u_prev_.begin() + static_cast<std::ptrdiff_t>(g * per), u_prev_.begin() + static_cast<std::ptrdiff_t>((g + 1) * per), 0.0);
}

template <bool kCommit>
void Mamba3::step(std::span<const double> x, std::span<double> y, double* h, double* u_prev) const noexcept {
  const std::size_t d = cfg_.d_in, n = cfg_.n_state, groups = cfg_.n_groups, r_n = r_eff_, p_n = p_eff_;
  const double delta = detail::softplus(dot(w_delta_.data(), x.data(), d) + b_delta_);
  const double lambda = detail::sigmoid(dot(w_lambda_.data(), x.data(), d) + b_lambda_);
  const bool exp_trap = cfg_.discretization == Mamba3Discretization::kExpTrapezoidal;
  double gamma = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const double a_re = -std::exp(log_a_[2 * k]), a_im = log_a_[2 * k + 1];
    if (exp_trap) {
      const ExpTrapezoidal e = exp_trapezoidal(a_re, a_im, delta, lambda);
      alpha_re_[k] = e.alpha_re;
      alpha_im_[k] = e.alpha_im;
      beta_re_[k] = e.beta_re;
      beta_im_[k] = e.beta_im;
      gamma = e.gamma;
    } else {
      const DiscreteComplex t = bilinear_complex(a_re, a_im, delta);
      alpha_re_[k] = t.a_re;
      alpha_im_[k] = t.a_im;
      beta_re_[k] = t.b_re;  // Bbar for Tustin
      beta_im_[k] = t.b_im;
    }
  }
  const std::size_t rows = groups * n * r_n;
  matvec(w_b_.data(), x.data(), bproj_.data(), rows, d);
  matvec(w_c_.data(), x.data(), cproj_.data(), rows, d);
  for (std::size_t i = 0; i < rows; ++i) {
    bproj_[i] += b_b_[i];
    cproj_[i] += b_c_[i];
  }
  for (std::size_t g = 0; g < groups; ++g) {
    double* bg = bproj_.data() + g * n * r_n;
    double* cg = cproj_.data() + g * n * r_n;
    bool keep = false;  // a committed step that bcnorm_train may follow
    if constexpr (kCommit) keep = norm_ && norm_->learnable();
    if (keep) {
      norm_->normalize_split({bg, n * r_n}, {bunit_.data() + g * n * r_n, n * r_n});
      norm_->normalize_split({cg, n * r_n}, {cunit_.data() + g * n * r_n, n * r_n});
    } else if (norm_) {
      norm_->normalize_inplace({bg, n * r_n});
      norm_->normalize_inplace({cg, n * r_n});
    }
    const double* xg = x.data() + g * p_;
    if (cfg_.rank == 0) {
      double m = 0.0;
      for (std::size_t q = 0; q < p_; ++q) m += xg[q];
      xproj_[0] = m / static_cast<double>(p_);
    } else {
      matvec(w_x_.data() + g * p_ * r_n * p_, xg, xproj_.data(), p_ * r_n, p_);
    }
    if (keep) {
      std::copy(xproj_.begin(), xproj_.end(), xall_.begin() + static_cast<std::ptrdiff_t>(g * p_n * r_n));
      for (std::size_t k = 0; k < n; ++k) kappa_[k] = exp_trap ? gamma : beta_re_[k];
    }
    std::fill(z_.begin(), z_.end(), 0.0);
    for (std::size_t k = 0; k < n; ++k) {
      const double ar = alpha_re_[k], ai = alpha_im_[k], br = beta_re_[k], bi = beta_im_[k];
      const double* bk = bg + k * r_n;
      const double* ck = cg + k * r_n;
      for (std::size_t p = 0; p < p_n; ++p) {
        double u = 0.0;
        for (std::size_t r = 0; r < r_n; ++r) u += bk[r] * xproj_[p * r_n + r];
        const std::size_t idx = (g * n + k) * p_n + p;
        const double hr = h[2 * idx], hi = h[2 * idx + 1];
        double nr, ni;
        if (exp_trap) {
          const double up = u_prev[idx];
          nr = ar * hr - ai * hi + br * up + gamma * u;
          ni = ar * hi + ai * hr + bi * up;
        } else {
          nr = ar * hr - ai * hi + br * u;
          ni = ar * hi + ai * hr + bi * u;
        }
        if constexpr (kCommit) {
          h[2 * idx] = nr;
          h[2 * idx + 1] = ni;
          u_prev[idx] = u;
        }
        for (std::size_t r = 0; r < r_n; ++r) z_[p * r_n + r] += ck[r] * nr;
      }
    }
    const double* wy = w_y_.data() + g * p_n * r_n;
    for (std::size_t q = 0; q < p_; ++q) {
      const std::size_t p = cfg_.rank == 0 ? 0 : q;
      double s = 0.0;
      for (std::size_t r = 0; r < r_n; ++r) s += wy[p * r_n + r] * z_[p * r_n + r];
      y[g * p_ + q] = s + skip_[g * p_ + q] * xg[q];
    }
  }
}

void Mamba3::forward(std::span<const double> x, std::span<double> y) noexcept {
  step<true>(x, y, h_.data(), u_prev_.data());
}

void Mamba3::forward_predict(std::span<const double> x, std::span<double> y) const noexcept {
  // step<false> never writes through these pointers.
  step<false>(x, y, const_cast<double*>(h_.data()), const_cast<double*>(u_prev_.data()));
}

void Mamba3::set_bcnorm_learnable(bool on) {
  if (!norm_) return;
  norm_->set_learnable(on);
  const std::size_t n = cfg_.n_state, r = r_eff_, g = cfg_.n_groups, pe = p_eff_;
  const std::size_t k = on ? 1 : 0;  // scratch only while learning
  bunit_.assign(k * g * n * r, 0.0);
  cunit_.assign(k * g * n * r, 0.0);
  xall_.assign(k * g * pe * r, 0.0);
  kappa_.assign(k * n, 0.0);
  dz_.assign(k * pe * r, 0.0);
  dc_.assign(k * n * r, 0.0);
  db_.assign(k * n * r, 0.0);
}

void Mamba3::bcnorm_train(std::span<const double> dy, double lr) noexcept {
  if (!bcnorm_learnable() || dy.size() < cfg_.d_in) return;
  const std::size_t n = cfg_.n_state, r_n = r_eff_, p_n = p_eff_;
  const auto gamma = norm_->gamma();
  for (std::size_t g = 0; g < cfg_.n_groups; ++g) {
    const double* wy = w_y_.data() + g * p_n * r_n;
    for (std::size_t p = 0; p < p_n; ++p) {
      double s = 0.0;  // SISO: every channel of the group reads column 0
      if (cfg_.rank == 0) {
        for (std::size_t q = 0; q < p_; ++q) s += dy[g * p_ + q];
      } else {
        s = dy[g * p_ + p];
      }
      for (std::size_t r = 0; r < r_n; ++r) dz_[p * r_n + r] = wy[p * r_n + r] * s;
    }
    const double* cu = cunit_.data() + g * n * r_n;
    const double* xg = xall_.data() + g * p_n * r_n;
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t r = 0; r < r_n; ++r) dc_[k * r_n + r] = db_[k * r_n + r] = 0.0;
      for (std::size_t p = 0; p < p_n; ++p) {
        const double re_h = h_[2 * ((g * n + k) * p_n + p)];
        double dre = 0.0;  // d loss / d Re H_t[k, p]
        for (std::size_t r = 0; r < r_n; ++r) {
          dc_[k * r_n + r] += dz_[p * r_n + r] * re_h;
          dre += dz_[p * r_n + r] * gamma[k * r_n + r] * cu[k * r_n + r];
        }
        const double du = kappa_[k] * dre;
        for (std::size_t r = 0; r < r_n; ++r) db_[k * r_n + r] += du * xg[p * r_n + r];
      }
    }
    norm_->accumulate_grad_gamma({cu, n * r_n}, dc_);
    norm_->accumulate_grad_gamma({bunit_.data() + g * n * r_n, n * r_n}, db_);
  }
  // Clipped: the readout error is unbounded early on (and on outliers), and one
  // large step on gamma would blow the state up for every later sample.
  norm_->step(lr, kBcnormMaxGradNorm);
}

void Mamba3::reset() noexcept {
  std::fill(h_.begin(), h_.end(), 0.0);
  std::fill(u_prev_.begin(), u_prev_.end(), 0.0);
}

std::size_t Mamba3::memory_bytes() const noexcept {
  std::size_t n = log_a_.capacity() + w_delta_.capacity() + w_lambda_.capacity() + w_b_.capacity() + w_c_.capacity() +
                  b_b_.capacity() + b_c_.capacity() + w_x_.capacity() + w_y_.capacity() + skip_.capacity() + h_.capacity() + u_prev_.capacity() +
                  bproj_.capacity() + cproj_.capacity() + xproj_.capacity() + alpha_re_.capacity() +
                  alpha_im_.capacity() + beta_re_.capacity() + beta_im_.capacity() + z_.capacity() +
                  bunit_.capacity() + cunit_.capacity() + xall_.capacity() + kappa_.capacity() + dz_.capacity() +
                  dc_.capacity() + db_.capacity();
  if (norm_) n += 2 * norm_->dim();  // gamma and its gradient
  return sizeof(*this) + n * sizeof(double);
}

void Mamba3::encode(ByteWriter& out) const {
  out.u64(cfg_.d_in);
  out.u64(cfg_.n_state);
  out.u64(cfg_.n_groups);
  out.u64(cfg_.rank);
  out.boolean(cfg_.use_bcnorm);
  out.u8(static_cast<std::uint8_t>(cfg_.discretization));
  out.u64(cfg_.seed);
  out.f64(cfg_.weight_scale);
  out.f64(cfg_.dt_init);
  out.f64s(log_a_);
  out.f64s(w_delta_);
  out.f64s(w_lambda_);
  out.f64(b_delta_);
  out.f64(b_lambda_);
  out.f64s(w_b_);
  out.f64s(w_c_);
  out.f64s(b_b_);
  out.f64s(b_c_);
  out.f64s(w_x_);
  out.f64s(w_y_);
  out.f64s(skip_);
  out.f64s(h_);
  out.f64s(u_prev_);
}

Status Mamba3::decode(ByteReader& in) {
  Mamba3Config c;
  c.d_in = in.u64("mamba3 d_in");
  c.n_state = in.u64("mamba3 n_state");
  c.n_groups = in.u64("mamba3 n_groups");
  c.rank = in.u64("mamba3 rank");
  c.use_bcnorm = in.boolean("mamba3 bcnorm");
  c.discretization = static_cast<Mamba3Discretization>(in.u8("mamba3 discretization"));
  c.seed = in.u64("mamba3 seed");
  c.weight_scale = in.f64("mamba3 weight scale");
  c.dt_init = in.f64("mamba3 dt_init");
  if (!in.ok()) return in.status();
  if (Status s = validate(c); !s.is_ok()) return Status::corruption("mamba3: bad configuration: " + s.message());
  // The record's settings are those this block was built with (its owner
  // builds it from the named settings first); any others come from cfg_.
  if (c.d_in != cfg_.d_in || c.n_state != cfg_.n_state || c.n_groups != cfg_.n_groups || c.rank != cfg_.rank ||
      c.use_bcnorm != cfg_.use_bcnorm || c.discretization != cfg_.discretization || c.seed != cfg_.seed ||
      c.weight_scale != cfg_.weight_scale || c.dt_init != cfg_.dt_init)
    return Status::corruption("mamba3: the record differs from the settings this block was built with");
  Mamba3 m;
  m.cfg_ = cfg_;
  m.allocate();
  // Each array must have exactly the size the configuration implies.
  const auto read_exact = [&in](std::vector<double>& dst, const char* what) {
    auto v = in.f64s(what);
    if (in.ok() && v.size() != dst.size()) in.fail(std::string("mamba3: wrong size for ") + what);
    if (in.ok() && !all_within(v)) in.fail(std::string("mamba3: non-finite or out-of-range ") + what);
    if (in.ok()) dst = std::move(v);
  };
  read_exact(m.log_a_, "log_a");
  read_exact(m.w_delta_, "w_delta");
  read_exact(m.w_lambda_, "w_lambda");
  m.b_delta_ = in.f64("b_delta");
  m.b_lambda_ = in.f64("b_lambda");
  read_exact(m.w_b_, "W_B");
  read_exact(m.w_c_, "W_C");
  read_exact(m.b_b_, "b_B");
  read_exact(m.b_c_, "b_C");
  read_exact(m.w_x_, "W_X");
  read_exact(m.w_y_, "W_Y");
  read_exact(m.skip_, "D");
  read_exact(m.h_, "state");
  read_exact(m.u_prev_, "previous input");
  if (!in.ok()) return in.status();
  // A = -exp(log_a) must stay a finite, non-zero rate.
  if (!all_within(m.log_a_, 700.0) || !all_within(std::span<const double>(&m.b_delta_, 1)) ||
      !all_within(std::span<const double>(&m.b_lambda_, 1)))
    return Status::corruption("mamba3: log_a or a bias out of range");
  *this = std::move(m);
  return Status::ok();
}

}  // namespace irithyll::nn
