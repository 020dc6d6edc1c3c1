// LinUcb: disjoint LinUCB (Li, Chu, Langford & Schapire 2010, "A
// contextual-bandit approach to personalized news article recommendation",
// Algorithm 1). Each arm a has its own ridge regression of reward on the
// context x (width d, plus a constant 1 when intercept is on):
//   A_a = lambda I + sum x x^T,  b_a = sum r x,  theta_a = A_a^-1 b_a,
//   score_a(x) = theta_a^T x + alpha sqrt(x^T A_a^-1 x),
// and select pulls the arm with the largest score (ties to the lowest arm;
// an arm never pulled scores alpha sqrt(x^T x / lambda), as in the paper).
//
// A_a^-1 is kept directly and updated by Sherman-Morrison, so no matrix is
// ever inverted: with u = A^-1 x, A^-1 <- A^-1 - u u^T / (1 + x^T u). The
// update subtracts the same product u_i u_j at (i,j) and (j,i), so A^-1
// stays exactly symmetric; theta^T x is computed as b^T (A^-1 x).
//
// Cost: O(n_arms D^2) per select, O(D^2) per update, D = d (+1). Memory:
// 8 (D^2 + D) bytes per arm plus two D-wide scratch vectors; nothing is
// allocated per call. Thread safety: one owner.
#pragma once

#include <span>
#include <vector>

#include "irithyll/bandit/bandit_policy.hpp"

namespace irithyll {

struct LinUcbConfig {
  double alpha = 1.0;     // exploration: width of the confidence bonus, >= 0
  double lambda = 1.0;    // ridge: A starts at lambda I, > 0
  bool intercept = true;  // append a constant 1 to every context
  static std::span<const ConfigField<LinUcbConfig>> fields();
};

class LinUcb final : public BanditPolicy {
 public:
  static constexpr std::string_view kName = "linucb";
  // REQUIRES: n_arms >= 1, context_dim >= 1.
  LinUcb(std::size_t n_arms, std::size_t context_dim, const LinUcbConfig& config);

  std::string_view name() const noexcept override { return kName; }
  std::size_t context_dim() const noexcept override { return dim_; }
  void reset() noexcept override;
  ModelSettings settings() const override;
  const LinUcbConfig& config() const noexcept { return config_; }

  // theta_a = A_a^-1 b_a (width D: the intercept, when on, comes last).
  std::vector<double> arm_theta(std::size_t arm) const;
  // A_a^-1, D x D row-major.
  std::span<const double> arm_inverse(std::size_t arm) const noexcept {
    return {a_inv_.data() + arm * width_ * width_, width_ * width_};
  }

 private:
  std::size_t select_checked(std::span<const double> context) noexcept override;
  void update_checked(std::size_t arm, double reward, std::span<const double> context) noexcept override;
  void encode_state(ByteWriter& out) const override;
  Status decode_state(ByteReader& in, const ModelSettings& settings) override;
  // x_ <- context (+ 1); u_ <- A_a^-1 x_. Returns x^T A^-1 x.
  double load_and_project(std::size_t arm, std::span<const double> context) noexcept;
  void init_state() noexcept;

  LinUcbConfig config_;
  std::size_t dim_;    // user's context width d
  std::size_t width_;  // D = d + intercept
  std::vector<double> a_inv_;  // n_arms blocks of D x D, row-major
  std::vector<double> b_;      // n_arms blocks of D
  std::vector<double> x_, u_;  // scratch, D each
};

}  // namespace irithyll
