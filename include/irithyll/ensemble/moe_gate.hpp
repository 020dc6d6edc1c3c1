// MoEGate: the router of the mixture-of-experts ensembles (moe_sgbt,
// moe_distributional_sgbt; Jacobs, Jordan, Nowlan & Hinton 1991, "Adaptive
// mixtures of local experts"). A linear softmax over online-standardised
// features,
//
//   z_i = (x_i - mean_i) / sd_i        (Welford running moments; 0 for a
//                                        missing value or while sd_i = 0)
//   g(x) = softmax(W z + b)             (K gates, one per expert)
//
// trained by SGD on the cross-entropy towards a one-hot target, the expert
// that had the lowest loss on the sample (as the Rust library does):
//   dL/da_k = g_k - 1[k = best],  W_k -= lr w (g_k - 1[k = best]) z,  b_k -= ...
// The sample weight w scales the step (first-order equal to w repeats).
//
// Deviation from the Rust library, which starts from zero weights: the feature
// weights start at seeded values uniform in +-0.01 (biases 0, so the first
// sample, whose standardised values are all 0, is routed uniformly). With
// zero weights and identical experts every expert would learn the same
// samples and stay identical, and the best expert would always be the first
// by tie-break; the tiny tilt breaks that symmetry deterministically. A large
// tilt (+-0.5, tried) is worse: the experts specialise on the random initial
// partition and the gate locks onto it instead of the stream's regimes
// (on the two-regime test with depth-6 experts, expert 0's share of the two
// sides stayed at 0.48 / 0.46).

// Routing: soft = every expert with its gate; top-k = the k largest gates
// (ties to the lower index), renormalised to sum 1, the others 0.
//
// The feature count is fixed by the first sample (resize()). No allocation
// after that. One thread at a time (probabilities use owned scratch).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {

enum class MoERouting : std::uint8_t { kSoft = 0, kTopK = 1 };

Result<MoERouting> parse_moe_routing(std::string_view s);
std::string_view moe_routing_name(MoERouting r);

class MoEGate {
 public:
  MoEGate() = default;
  MoEGate(std::size_t n_experts, std::uint64_t seed);

  std::size_t n_experts() const { return k_; }
  std::size_t n_features() const { return d_; }
  // Fixes the feature count (first sample); draws the initial tilt.
  void resize(std::size_t n_features);

  // Gate probabilities at x into out (size n_experts). Before resize(): uniform.
  void probabilities(std::span<const double> x, std::span<double> out) const;
  // Routing weights from probabilities: soft copies them; top-k keeps the k
  // largest (k clamped to [1, K]) renormalised. REQUIRES: sizes equal.
  static void route(std::span<const double> probs, MoERouting routing, std::size_t top_k, std::span<double> out);
  // How many experts route() keeps: all for soft, else min(top_k, n_experts).
  // Learners scale an expert's sample weight by it, so a uniform gate hands
  // every routed expert the plain sample.
  // Both steps at x: probs = probabilities(x), route = route(probs).
  void route_at(std::span<const double> x, MoERouting routing, std::size_t top_k, std::span<double> probs,
                std::span<double> route) const {
    probabilities(x, probs);
    MoEGate::route(probs, routing, top_k, route);
  }
  static std::size_t n_routed(MoERouting routing, std::size_t top_k, std::size_t n_experts) {
    return routing == MoERouting::kSoft ? n_experts : std::min(top_k, n_experts);
  }

  // One SGD step towards expert `best` on x (probs = probabilities(x) as
  // computed before this sample), then the standardiser learns x.
  void learn(std::span<const double> x, std::span<const double> probs, std::size_t best, double lr, double weight);

  std::size_t memory_bytes() const;
  void encode(ByteWriter& out) const;
  Status decode(ByteReader& in);

 private:
  void standardise(std::span<const double> x) const;  // into z_

  std::size_t k_ = 0, d_ = 0;
  Xorshift64 rng_{};
  std::vector<double> w_;  // K x (d + 1), bias last in each row
  std::vector<double> mean_, m2_;
  std::uint64_t n_ = 0;  // samples the standardiser has seen
  mutable std::vector<double> z_;
};

}  // namespace irithyll
