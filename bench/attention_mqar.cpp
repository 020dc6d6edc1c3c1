// Associative recall (MQAR-style, Arora et al. 2023): bind N key->value pairs,
// then query each key and measure the recall error.
//
// Part 1, per mode of MultiHeadAttention: one head, d_key = d_value = 16,
// d_model = 32 with input token [key; value], and hand-set projections
// W_k = W_q = [I 0], W_v = [0 I], W_out = I, all gate rows 0 (so every
// sigmoid gate sits at 0.5 and lambda is uniform). Keys are random unit
// vectors, values N(0, 0.25). Recall = query_state([key; 0]) after the N
// writes; error = mean squared error against the value (outputs of bounded
// modes pass through tanh, which the values' scale keeps mostly linear).
// Part 2: LogLinearAttention trained online with train_one (seed 004's
// protocol): recall MSE before training and the best over 200 epochs.
// One JSON line per workload. Usage: bench_attention_mqar
#include <cmath>
#include <cstdio>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/nn/attention/log_linear.hpp"
#include "nn/attention/multi_head.hpp"

using irithyll::Xorshift64;
using namespace irithyll::nn;

namespace {

double mode_recall(AttentionKind kind, std::size_t n_pairs, std::uint64_t seed) {
  constexpr std::size_t d = 16;
  AttentionConfig c;
  c.d_model = 2 * d;
  c.n_heads = 1;
  c.d_key = d;
  c.d_value = d;
  c.mode.kind = kind;
  c.mode.inner = AttentionKind::kGatedDeltaNet;
  c.mode.max_levels = 16;
  c.init_scale = 0.0;
  MultiHeadAttention layer(c);
  std::vector<double> w(layer.head_weights(0).begin(), layer.head_weights(0).end());
  for (std::size_t i = 0; i < d; ++i) {
    w[i * 2 * d + i] = 1.0;                // W_k = [I 0]
    w[(d + i) * 2 * d + d + i] = 1.0;      // W_v = [0 I]
    w[(2 * d + i) * 2 * d + i] = 1.0;      // W_q = [I 0]
  }
  if (kind == AttentionKind::kDeltaProduct) {
    // Later compositions re-write the same pair.
    for (std::uint32_t j = 1; j < c.mode.n_compositions; ++j) {
      const std::size_t b = layer.layout().comp_base + (j - 1) * layer.layout().comp_stride;
      for (std::size_t i = 0; i < d; ++i) {
        w[(b + i) * 2 * d + i] = 1.0;
        w[(b + d + i) * 2 * d + d + i] = 1.0;
      }
    }
  }
  layer.set_head_weights(0, w);
  std::vector<double> wo(layer.output_weights().begin(), layer.output_weights().end());
  for (std::size_t i = 0; i < 2 * d; ++i) wo[i * d + (i % d)] = i < d ? 1.0 : 0.0;
  layer.set_output_weights(wo);
  Xorshift64 rng(seed);
  std::vector<std::vector<double>> keys(n_pairs, std::vector<double>(d)), vals(n_pairs, std::vector<double>(d));
  for (std::size_t p = 0; p < n_pairs; ++p) {
    double n = 0.0;
    for (double& e : keys[p]) {
      e = rng.normal();
      n += e * e;
    }
    for (double& e : keys[p]) e /= std::sqrt(n);
    for (double& e : vals[p]) e = 0.5 * rng.normal();
  }
  std::vector<double> x(2 * d), out(2 * d);
  for (std::size_t p = 0; p < n_pairs; ++p) {
    std::copy(keys[p].begin(), keys[p].end(), x.begin());
    std::copy(vals[p].begin(), vals[p].end(), x.begin() + d);
    layer.forward(x, out);
  }
  double err = 0.0;
  for (std::size_t p = 0; p < n_pairs; ++p) {
    std::copy(keys[p].begin(), keys[p].end(), x.begin());
    std::fill(x.begin() + d, x.end(), 0.0);
    layer.query_state(x, out);
    for (std::size_t i = 0; i < d; ++i) err += (out[i] - vals[p][i]) * (out[i] - vals[p][i]);
  }
  return err / static_cast<double>(n_pairs * d);
}

struct Trained {
  double initial, best;
};

Trained log_linear_training(std::size_t n_pairs, std::uint64_t seed) {
  LogLinearConfig c;
  c.inner = AttentionKind::kGatedDeltaNet;
  c.d_model = 8;
  c.max_levels = 8;
  c.learning_rate = 0.1;
  c.seed = seed;
  LogLinearAttention m(c);
  std::vector<std::vector<double>> keys(n_pairs, std::vector<double>(8)), vals(n_pairs, std::vector<double>(4));
  for (std::size_t i = 0; i < n_pairs; ++i) {
    for (std::size_t j = 0; j < 8; ++j) keys[i][j] = std::sin(static_cast<double>(i * 13 + j * 7));
    for (std::size_t j = 0; j < 4; ++j) vals[i][j] = 0.5 * std::cos(static_cast<double>(i * 17 + j * 11));
  }
  std::vector<double> o(4);
  auto recall = [&]() {
    m.reset();
    for (std::size_t i = 0; i < n_pairs; ++i) m.train_one(keys[i], vals[i], o);
    double total = 0.0;
    for (std::size_t i = 0; i < n_pairs; ++i) {
      m.query_readonly(keys[i], o);
      for (std::size_t j = 0; j < 4; ++j) total += (o[j] - vals[i][j]) * (o[j] - vals[i][j]) / 4.0;
    }
    return total / static_cast<double>(n_pairs);
  };
  Trained t{recall(), 0.0};
  t.best = t.initial;
  for (int e = 0; e < 200; ++e) t.best = std::min(t.best, recall());
  return t;
}

}  // namespace

int main() {
  for (std::size_t n_pairs : {2u, 4u, 8u, 16u}) {
    for (std::size_t k = 0; k < kAttentionKindCount; ++k) {
      const auto kind = static_cast<AttentionKind>(k);
      double err = 0.0;
      constexpr int kSeeds = 20;
      for (int s = 1; s <= kSeeds; ++s) err += mode_recall(kind, n_pairs, static_cast<std::uint64_t>(s)) / kSeeds;
      std::printf("{\"bench\":\"attention_mqar\",\"mode\":\"%s\",\"pairs\":%zu,\"d_key\":16,\"seeds\":%d,"
                  "\"recall_mse\":%.5f,\"value_variance\":0.25}\n",
                  std::string(attention_kind_name(kind)).c_str(), n_pairs, kSeeds, err);
    }
  }
  for (std::size_t n_pairs : {2u, 4u}) {
    double init = 0.0, best = 0.0;
    constexpr int kSeeds = 10;
    for (int s = 1; s <= kSeeds; ++s) {
      const Trained t = log_linear_training(n_pairs, static_cast<std::uint64_t>(s));
      init += t.initial / kSeeds;
      best += t.best / kSeeds;
    }
    std::printf("{\"bench\":\"loglinear_mqar_training\",\"inner\":\"gated_deltanet\",\"pairs\":%zu,\"seeds\":%d,"
                "\"epochs\":200,\"initial_mse\":%.5f,\"best_mse\":%.5f,\"ratio\":%.4f}\n",
                n_pairs, kSeeds, init, best, best / init);
  }
  return 0;
}
