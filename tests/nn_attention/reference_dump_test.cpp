// Writes every mode's weights, a 64-step input sequence and the layer's
// outputs to JSON for tests/reference/attention_ref.py, which recomputes the
// recurrences with NumPy from the equations (not from this code) and compares
// to 1e-10. Weights are exported by role (Wk, Wv, Wq, gate rows by name), so
// the reference does not depend on the fused row layout.
// Runs only when IRITHYLL_ATTENTION_DUMP names the output file.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/nn/attention/log_linear.hpp"
#include "nn/attention/multi_head.hpp"

namespace irithyll::nn {
namespace {

struct Json {
  std::string s;
  void num(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    s += buf;
  }
  // T = double, or float for the layer's f32-valued weights (printed exactly
  // as the doubles they widen to, which is what the layer computes with).
  template <class T>
  void vec(const T* p, std::size_t n) {
    s += '[';
    for (std::size_t i = 0; i < n; ++i) {
      if (i) s += ',';
      num(static_cast<double>(p[i]));
    }
    s += ']';
  }
  template <class T>
  void mat(const T* p, std::size_t rows, std::size_t cols) {
    s += '[';
    for (std::size_t r = 0; r < rows; ++r) {
      if (r) s += ',';
      vec(p + r * cols, cols);
    }
    s += ']';
  }
  void str(std::string_view v) {
    s += '"';
    s.append(v);
    s += "\",";
  }
  void key(const char* k) {
    s += '"';
    s += k;
    s += "\":";
  }
};

struct Named {
  std::string name;
  std::size_t row, n;
};

std::vector<Named> extras(const AttentionConfig& c, const HeadLayout& l) {
  const std::size_t dk = c.d_key, dv = c.d_value, e = l.extra;
  switch (c.mode.kind) {
    case AttentionKind::kHawk: return {{"a", e, dv}, {"b", e + dv, dv}};
    case AttentionKind::kGLA: return {{"g", e, 1}};
    case AttentionKind::kGLAVector:
    case AttentionKind::kHGRN2: return {{"a", e, dk}};
    case AttentionKind::kGatedDeltaNet: return {{"g", e, 1}, {"beta", e + 1, 1}};
    case AttentionKind::kRWKV: return {{"w", e, 1}};
    case AttentionKind::kMLSTM: return {{"f", e, 1}, {"i", e + 1, 1}};
    case AttentionKind::kRWKV7: return {{"w", e, dk}, {"a", e + dk, dk}};
    case AttentionKind::kLogLinear: return {{"lambda", e, c.mode.max_levels}};
    case AttentionKind::kLogLinearMamba2: return {{"dt", e, 1}, {"lambda", e + 1, c.mode.max_levels}};
    case AttentionKind::kLogLinearGatedDeltaNet:
      return {{"g", e, 1}, {"beta", e + 1, 1}, {"lambda", e + 2, c.mode.max_levels}};
    case AttentionKind::kDeltaProduct: {
      std::vector<Named> v{{"g", e, 1}, {"beta0", e + 1, 1}};
      for (std::uint32_t j = 1; j < c.mode.n_compositions; ++j) {
        const std::size_t b = l.comp_base + (j - 1) * l.comp_stride;
        const std::string idx = std::to_string(j);
        std::string kn = "k", vn = "v", bn = "beta";
        kn += idx;
        vn += idx;
        bn += idx;
        v.push_back({kn, b, dk});
        v.push_back({vn, b + dk, dv});
        v.push_back({bn, b + dk + dv, 1});
      }
      return v;
    }
    default: return {};
  }
}

std::vector<AttentionMode> reference_modes() {
  std::vector<AttentionMode> modes;
  for (std::size_t k = 0; k < kAttentionKindCount; ++k) {
    AttentionMode m;
    m.kind = static_cast<AttentionKind>(k);
    m.max_levels = 4;  // 64 steps overflow 2^4, so the fold into the top level is exercised
    modes.push_back(m);
  }
  AttentionMode gdn;
  gdn.kind = AttentionKind::kGatedDeltaNet;
  gdn.beta_per_token = true;
  modes.push_back(gdn);
  AttentionMode dp;
  dp.kind = AttentionKind::kDeltaProduct;
  dp.n_compositions = 3;
  dp.reflections = true;
  modes.push_back(dp);
  AttentionMode up;
  up.kind = AttentionKind::kRWKV7;
  up.rwkv7_upstream_order = true;
  up.rwkv7_removal = 0.8;
  modes.push_back(up);
  AttentionMode ll;
  ll.kind = AttentionKind::kLogLinear;
  ll.inner = AttentionKind::kGatedDeltaNet;
  ll.max_levels = 8;
  ll.lambda_init = 0.3;
  modes.push_back(ll);
  return modes;
}

// One mode's record: config, weights by role, `steps` random inputs and the
// layer's outputs, then one read-only query.
void write_mode(Json& j, const AttentionMode& mode, std::uint64_t seed, std::size_t steps) {
  {
    AttentionConfig c;
    c.d_model = 6;
    c.n_heads = 2;
    c.d_key = 3;  // d_key != d_value catches transposed states
    c.d_value = 4;
    c.mode = mode;
    c.seed = seed;
    c.init_scale = 0.6;
    MultiHeadAttention layer(c);
    const HeadLayout& l = layer.layout();
    j.s += '{';
    j.key("kind");
    j.str(attention_kind_name(mode.kind));
    j.key("inner");
    j.str(attention_kind_name(mode.inner));
    const std::pair<const char*, double> params[] = {
        {"gamma", mode.gamma},           {"beta_scale", mode.beta_scale},
        {"beta_per_token", mode.beta_per_token ? 1.0 : 0.0}, {"initial_decay", mode.initial_decay},
        {"n_compositions", mode.n_compositions}, {"reflections", mode.reflections ? 1.0 : 0.0},
        {"lower_bound", mode.lower_bound}, {"max_levels", mode.max_levels},
        {"lambda_bias", mode.lambda_bias()}, {"rwkv7_removal", mode.rwkv7_removal},
        {"rwkv7_upstream", mode.rwkv7_upstream_order ? 1.0 : 0.0},
        {"d_model", static_cast<double>(c.d_model)}, {"n_heads", static_cast<double>(c.n_heads)},
        {"d_key", static_cast<double>(c.d_key)}, {"d_value", static_cast<double>(c.d_value)}};
    for (const auto& [name, value] : params) {
      j.key(name);
      j.num(value);
      j.s += ',';
    }
    j.key("heads");
    j.s += '[';
    for (std::size_t h = 0; h < c.n_heads; ++h) {
      const double* w = layer.head_weights(h).data();
      if (h) j.s += ',';
      j.s += '{';
      j.key("Wk");
      j.mat(w, c.d_key, c.d_model);
      j.s += ',';
      j.key("Wv");
      j.mat(w + c.d_key * c.d_model, c.d_value, c.d_model);
      j.s += ',';
      j.key("Wq");
      j.mat(w + (c.d_key + c.d_value) * c.d_model, c.d_key, c.d_model);
      for (const Named& n : extras(c, l)) {
        j.s += ',';
        j.key(n.name.c_str());
        j.mat(w + n.row * c.d_model, n.n, c.d_model);
      }
      j.s += '}';
    }
    j.s += "],";
    j.key("Wout");
    j.mat(layer.output_weights().data(), c.d_model, c.n_heads * c.d_value);
    Xorshift64 rng(seed * 7);
    std::vector<double> x(c.d_model), out(c.d_model), peeked(c.d_model);
    std::string inputs = "[", outputs = "[";
    Json tmp;
    for (std::size_t t = 0; t < steps; ++t) {
      for (double& e : x) e = rng.normal();
      layer.peek(x, peeked);
      ASSERT_TRUE(layer.forward(x, out));
      ASSERT_EQ(peeked, out) << "peek must equal forward";
      tmp.s.clear();
      tmp.vec(x.data(), x.size());
      if (t) inputs += ',';
      inputs += tmp.s;
      tmp.s.clear();
      tmp.vec(out.data(), out.size());
      if (t) outputs += ',';
      outputs += tmp.s;
    }
    j.s += ',';
    j.key("inputs");
    j.s += inputs;
    j.s += "],";
    j.key("outputs");
    j.s += outputs;
    j.s += "],";
    for (double& e : x) e = rng.normal();
    layer.query_state(x, out);
    j.key("query_x");
    j.vec(x.data(), x.size());
    j.s += ',';
    j.key("query_out");
    j.vec(out.data(), out.size());
    j.s += '}';
  }
}

void write_file(const char* path, const Json& j) {
  std::FILE* f = std::fopen(path, "wb");
  ASSERT_NE(f, nullptr);
  std::fwrite(j.s.data(), 1, j.s.size(), f);
  std::fclose(f);
}

TEST(AttentionReference, DumpForNumpy) {
  const char* path = std::getenv("IRITHYLL_ATTENTION_DUMP");
  if (path == nullptr) GTEST_SKIP() << "set IRITHYLL_ATTENTION_DUMP to write the reference file";
  Json j;
  j.s = "{\"modes\":[";
  std::uint64_t seed = 1000;
  bool first = true;
  for (const AttentionMode& mode : reference_modes()) {
    if (!first) j.s += ',';
    first = false;
    write_mode(j, mode, ++seed, 64);
  }
  j.s += "]}\n";
  write_file(path, j);
}

// LogLinearAttention (single head, f64 weights) in the same record layout:
// one head, W_out the identity, so the layer output is tanh(o) as it is there.
void write_single_head(Json& j, LogLinearForm form, std::uint32_t levels, std::uint64_t seed, std::size_t steps) {
  LogLinearConfig c;
  c.form = form;
  c.d_model = 6;
  c.d_key = 3;
  c.d_value = 4;
  c.max_levels = levels;
  c.lambda_init = 0.3;
  c.seed = seed;
  c.init_scale = 0.6;
  LogLinearAttention m(c);
  const bool gdn = form == LogLinearForm::kGatedDeltaNet;
  j.s += '{';
  j.key("kind");
  j.str(gdn ? "loglinear_gated_deltanet" : "loglinear_mamba2");
  j.key("layer");
  j.str("single_head");
  j.key("max_levels");
  j.num(levels);
  j.s += ',';
  j.key("lambda_bias");
  j.num(c.lambda_bias());
  j.s += ',';
  j.key("heads");
  j.s += "[{";
  const auto mat = [&](const char* name, std::span<const double> w, std::size_t rows, bool comma = true) {
    j.key(name);
    j.mat(w.data(), rows, c.d_model);
    if (comma) j.s += ',';
  };
  mat("Wk", m.w_k(), c.d_key);
  mat("Wv", m.w_v(), c.d_value);
  mat("Wq", m.w_q(), c.d_key);
  mat("lambda", m.w_lambda(), levels);
  if (gdn) {
    mat("g", m.w_gate().first(c.d_model), 1);
    mat("beta", m.w_gate().subspan(c.d_model), 1, false);
  } else {
    mat("dt", m.w_gate(), 1, false);
  }
  j.s += "}],";
  std::vector<double> eye(c.d_value * c.d_value, 0.0);
  for (std::size_t i = 0; i < c.d_value; ++i) eye[i * c.d_value + i] = 1.0;
  j.key("Wout");
  j.mat(eye.data(), c.d_value, c.d_value);
  j.s += ',';
  Xorshift64 rng(seed * 7);
  std::vector<double> x(c.d_model), out(c.d_value);
  Json ins, outs;
  for (std::size_t t = 0; t < steps; ++t) {
    for (double& e : x) e = rng.normal();
    ASSERT_TRUE(m.forward(x, out));
    ins.s += t ? "," : "";
    ins.vec(x.data(), x.size());
    outs.s += t ? "," : "";
    outs.vec(out.data(), out.size());
  }
  j.key("inputs");
  j.s += '[' + ins.s + "],";
  j.key("outputs");
  j.s += '[' + outs.s + "],";
  for (double& e : x) e = rng.normal();
  m.query_readonly(x, out);
  j.key("query_x");
  j.vec(x.data(), x.size());
  j.s += ',';
  j.key("query_out");
  j.vec(out.data(), out.size());
  j.s += '}';
}

// The paper's log-linear variants at T up to 256 and level counts 1..9 (9
// levels hold 256 tokens without folding; fewer fold), for
// tests/reference/loglinear_paper_ref.py's materialised O(T^2) form.
TEST(AttentionReference, DumpLogLinearPaperForNumpy) {
  const char* path = std::getenv("IRITHYLL_LOGLINEAR_DUMP");
  if (path == nullptr) GTEST_SKIP() << "set IRITHYLL_LOGLINEAR_DUMP to write the reference file";
  Json j;
  j.s = "{\"modes\":[";
  std::uint64_t seed = 5000;
  bool first = true;
  for (AttentionKind kind : {AttentionKind::kLogLinearMamba2, AttentionKind::kLogLinearGatedDeltaNet}) {
    for (std::uint32_t levels : {1u, 2u, 3u, 5u, 9u}) {
      for (std::size_t steps : {std::size_t{1}, std::size_t{37}, std::size_t{256}}) {
        AttentionMode m;
        m.kind = kind;
        m.max_levels = levels;
        m.lambda_init = levels == 3 ? 0.3 : -1.0;
        if (!first) j.s += ',';
        first = false;
        write_mode(j, m, ++seed, steps);
      }
    }
  }
  for (LogLinearForm form : {LogLinearForm::kMamba2, LogLinearForm::kGatedDeltaNet}) {
    for (std::uint32_t levels : {2u, 9u}) {
      j.s += ',';
      write_single_head(j, form, levels, ++seed, 256);
    }
  }
  j.s += "]}\n";
  write_file(path, j);
}

}  // namespace
}  // namespace irithyll::nn
