// Next-generation reservoir computing features (Gauthier, Bollt, Griffith &
// Barbosa 2021, "Next generation reservoir computing", Nat. Commun. 12:5564):
// a nonlinear vector autoregression. For k taps spaced s samples apart over a
// d-dimensional input,
//
//   lin  = [x_t, x_{t-s}, ..., x_{t-(k-1)s}]                 (k*d values)
//   poly = all monomials of lin of exactly degree p, in combinations-with-
//          repetition order (i <= j <= ... ); linear terms are not repeated
//   feat = [1, lin, poly]                                      (constant optional)
//
// DelayBuffer is the ring of past inputs. Cost per update O(k*d + terms*p);
// memory ((k-1)s+1)*d + terms*p. No allocation after construction.
// Thread safety: one owner.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll::nn {

// Ring of the last `capacity` d-dimensional observations; get(0) is the newest.
class DelayBuffer {
 public:
  DelayBuffer() = default;
  DelayBuffer(std::size_t capacity, std::size_t dim);

  void push(std::span<const double> x) noexcept;  // REQUIRES: x.size() == dim()
  // The observation `lag` steps back; empty span if fewer than lag+1 were pushed.
  std::span<const double> get(std::size_t lag) const noexcept;
  bool is_ready() const noexcept { return len_ == capacity_; }
  std::size_t size() const noexcept { return len_; }
  std::size_t capacity() const noexcept { return capacity_; }
  std::size_t dim() const noexcept { return dim_; }
  void reset() noexcept;

  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);  // keeps capacity and dim; checks they match

 private:
  std::size_t capacity_ = 0, dim_ = 0, head_ = 0, len_ = 0;  // head_: slot of the newest
  std::vector<double> data_;
};

// Monomials of exactly one degree over m variables.
class PolynomialFeatures {
 public:
  PolynomialFeatures() = default;
  PolynomialFeatures(std::size_t n_vars, std::size_t degree);
  // Number of monomials C(m + p - 1, p); 0 for degree 0 or m 0.
  static std::uint64_t count(std::size_t n_vars, std::size_t degree) noexcept;

  std::size_t output_dim() const noexcept { return degree_ == 0 ? 0 : index_.size() / degree_; }
  std::size_t degree() const noexcept { return degree_; }
  // REQUIRES: x.size() == n_vars, out.size() == output_dim().
  void transform(std::span<const double> x, std::span<double> out) const noexcept;
  // Variable indices of monomial t (degree() of them, non-decreasing).
  std::span<const std::uint32_t> term(std::size_t t) const noexcept {
    return std::span<const std::uint32_t>(index_).subspan(t * degree_, degree_);
  }

 private:
  std::size_t degree_ = 0;
  std::vector<std::uint32_t> index_;  // output_dim() x degree, row-major
};

struct NgrcConfig {
  std::size_t n_inputs = 1;   // d >= 1
  std::size_t k = 2;          // taps >= 1
  std::size_t s = 1;          // spacing >= 1
  std::size_t degree = 2;     // monomial degree >= 2 (0 = linear only)
  bool constant = true;       // prepend 1

  Status validate() const;
  std::size_t n_linear() const noexcept { return k * n_inputs; }
  std::size_t n_features() const noexcept;
};

// The feature map; owns its delay buffer.
class NgrcFeatures {
 public:
  NgrcFeatures() = default;
  explicit NgrcFeatures(const NgrcConfig& config);  // REQUIRES: config.validate() ok

  void push(std::span<const double> x) noexcept { buffer_.push(x); }
  bool is_ready() const noexcept { return buffer_.is_ready(); }
  // Features of the buffered history (missing taps read as 0).
  void features(std::span<double> out) const noexcept;
  // Features of the history as if x had been pushed, without pushing it.
  void features_with(std::span<const double> x, std::span<double> out) const noexcept;
  void reset() noexcept { buffer_.reset(); }

  const NgrcConfig& config() const noexcept { return config_; }
  std::size_t n_features() const noexcept { return config_.n_features(); }
  const DelayBuffer& buffer() const noexcept { return buffer_; }
  DelayBuffer& buffer() noexcept { return buffer_; }
  std::size_t memory_bytes() const noexcept;

 private:
  void finish(std::span<double> out) const noexcept;  // lin already in place -> constant + poly

  NgrcConfig config_{};
  DelayBuffer buffer_;
  PolynomialFeatures poly_;
  mutable std::vector<double> lin_;
};

}  // namespace irithyll::nn
