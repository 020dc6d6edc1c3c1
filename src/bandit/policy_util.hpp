// Internal helpers shared by the bandit policies: field-table row builders
// (one line per setting) and the gamma/beta samplers of Thompson sampling.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/config_fields.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll::detail {

// check_field() has already parsed and range-checked the text when these run.
template <class C, double C::*M>
Status set_real(C& c, std::string_view v) {
  auto r = parse_field_real("", v);
  if (!r) return r.status();
  c.*M = *r;
  return Status::ok();
}
template <class C, double C::*M>
std::string get_real(const C& c) {
  return format_field_real(c.*M);
}
template <class C, std::uint64_t C::*M>
Status set_uint(C& c, std::string_view v) {
  auto r = parse_field_uint("", v);
  if (!r) return r.status();
  c.*M = *r;
  return Status::ok();
}
template <class C, std::uint64_t C::*M>
std::string get_uint(const C& c) {
  return std::to_string(c.*M);
}
template <class C, bool C::*M>
Status set_bool(C& c, std::string_view v) {
  auto r = parse_field_bool("", v);
  if (!r) return r.status();
  c.*M = *r;
  return Status::ok();
}
template <class C, bool C::*M>
std::string get_bool(const C& c) {
  return c.*M ? "on" : "off";
}

// A config from settings over the defaults, checked row by row.
template <class C>
Result<C> config_from(std::string_view policy, std::span<const ConfigField<C>> fields, const ModelSettings& settings) {
  C c;
  IRITHYLL_RETURN_IF_ERROR(apply_settings(policy, fields, settings, c));
  IRITHYLL_RETURN_IF_ERROR(validate_fields(policy, fields, c));
  return c;
}

// The generator's state for a policy seeded `seed`. Xorshift's first outputs
// from a small seed are small too (few bits set, and nearby seeds give
// nearby streams), which once kept a Gaussian Thompson sampler on a bad arm
// for thousands of steps; a SplitMix finaliser spreads every seed first.
inline std::uint64_t mixed_seed(std::uint64_t seed) noexcept { return derive_seed(seed, 0); }

// Gamma(k, 1) by Marsaglia & Tsang (2000): squeeze test first, log test on
// rejection; shapes below 1 use Gamma(k+1) * U^(1/k). REQUIRES: k > 0.
inline double gamma_sample(Xorshift64& rng, double k) noexcept {
  if (k < 1.0) {
    double u = rng.uniform();
    while (u <= 0.0) u = rng.uniform();
    return gamma_sample(rng, k + 1.0) * std::pow(u, 1.0 / k);
  }
  const double d = k - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = rng.normal();
    const double v0 = 1.0 + c * x;
    if (v0 <= 0.0) continue;
    const double v = v0 * v0 * v0;
    const double u = rng.uniform();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (u > 0.0 && std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

// Beta(a, b) = X / (X + Y), X ~ Gamma(a), Y ~ Gamma(b). REQUIRES: a, b > 0.
inline double beta_sample(Xorshift64& rng, double a, double b) noexcept {
  const double x = gamma_sample(rng, a);
  const double y = gamma_sample(rng, b);
  const double s = x + y;
  return s > 0.0 ? x / s : 0.5;  // both underflowed (tiny shapes): no information
}

// Reads n doubles that must be finite (and, with `positive`, > 0).
inline std::vector<double> read_finite(ByteReader& in, std::size_t n, bool positive, const char* what) {
  std::vector<double> v = in.f64s(what);
  if (!in.ok()) return {};
  if (v.size() != n) {
    in.fail(std::string(what) + ": wrong length");
    return {};
  }
  for (double x : v)
    if (!std::isfinite(x) || (positive && !(x > 0.0))) {
      in.fail(std::string(what) + ": value out of range");
      return {};
    }
  return v;
}

}  // namespace irithyll::detail
