// Writes weights, inputs, outputs and states of every SSM recurrence for the
// independent NumPy reference (tests/reference/ssm_ref.py, run from CTest).
// Runs only when IRITHYLL_SSM_DUMP names the output file; skipped otherwise.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/ssm/complex_diagonal_ssm.hpp"
#include "nn/ssm/diagonal_ssm.hpp"
#include "nn/ssm/mamba3.hpp"
#include "nn/ssm/selective_ssm.hpp"
#include "nn/ssm/selective_ssm_bd.hpp"

namespace irithyll::nn {
namespace {

constexpr int kSteps = 64;

void put(std::FILE* f, const std::string& key, std::span<const double> v) {
  std::fprintf(f, "%s %zu", key.c_str(), v.size());
  for (double x : v) std::fprintf(f, " %.17g", x);
  std::fprintf(f, "\n");
}
void put(std::FILE* f, const std::string& key, double v) { put(f, key, std::span<const double>(&v, 1)); }

template <class Layer>
void run_steps(std::FILE* f, const std::string& tag, Layer& layer, std::uint64_t seed) {
  Xorshift64 rng(seed);
  const std::size_t d = layer.input_dim();
  std::vector<double> xs, ys, x(d), y(d);
  for (int t = 0; t < kSteps; ++t) {
    for (double& v : x) v = rng.normal();
    layer.forward(x, y);
    xs.insert(xs.end(), x.begin(), x.end());
    ys.insert(ys.end(), y.begin(), y.end());
  }
  put(f, tag + ".x", xs);
  put(f, tag + ".y", ys);
  put(f, tag + ".h", layer.state());
}

void dump_mamba1(std::FILE* f) {
  SelectiveSsm ssm({.d_in = 5, .n_state = 7, .seed = 11});
  std::fprintf(f, "model mamba1\n");
  put(f, "mamba1.d_in", 5.0);
  put(f, "mamba1.n_state", 7.0);
  put(f, "mamba1.log_a", ssm.log_a());
  put(f, "mamba1.w_delta", ssm.w_delta());
  put(f, "mamba1.b_delta", ssm.b_delta());
  put(f, "mamba1.w_b", ssm.w_b());
  put(f, "mamba1.w_c", ssm.w_c());
  put(f, "mamba1.b_b", ssm.b_b());
  put(f, "mamba1.b_c", ssm.b_c());
  put(f, "mamba1.skip", ssm.skip());
  run_steps(f, "mamba1", ssm, 21);
}

void dump_mamba3(std::FILE* f, const std::string& tag, Mamba3Config c) {
  Mamba3 ssm(c);
  std::fprintf(f, "model %s\n", tag.c_str());
  put(f, tag + ".d_in", static_cast<double>(c.d_in));
  put(f, tag + ".n_state", static_cast<double>(c.n_state));
  put(f, tag + ".n_groups", static_cast<double>(c.n_groups));
  put(f, tag + ".rank", static_cast<double>(c.rank));
  put(f, tag + ".bcnorm", c.use_bcnorm ? 1.0 : 0.0);
  put(f, tag + ".tustin", c.discretization == Mamba3Discretization::kTustin ? 1.0 : 0.0);
  put(f, tag + ".log_a", ssm.log_a());
  put(f, tag + ".w_delta", ssm.w_delta());
  put(f, tag + ".b_delta", ssm.b_delta());
  put(f, tag + ".w_lambda", ssm.w_lambda());
  put(f, tag + ".b_lambda", ssm.b_lambda());
  put(f, tag + ".w_b", ssm.w_b());
  put(f, tag + ".w_c", ssm.w_c());
  put(f, tag + ".b_b", ssm.b_b());
  put(f, tag + ".b_c", ssm.b_c());
  put(f, tag + ".w_x", ssm.w_x());
  put(f, tag + ".w_y", ssm.w_y());
  put(f, tag + ".skip", ssm.skip());
  run_steps(f, tag, ssm, 31);
}

void dump_bd(std::FILE* f) {
  SelectiveSsmBd ssm({.d_in = 6, .n_state = 3, .block_size = 3, .seed = 19, .weight_scale = 0.3});
  std::fprintf(f, "model bd\n");
  put(f, "bd.dims", std::vector<double>{6, 3, 3});
  put(f, "bd.a", ssm.a());
  put(f, "bd.w_delta", ssm.w_delta());
  put(f, "bd.b_delta", ssm.b_delta());
  put(f, "bd.w_b", ssm.w_b());
  put(f, "bd.w_c", ssm.w_c());
  put(f, "bd.b_b", ssm.b_b());
  put(f, "bd.b_c", ssm.b_c());
  put(f, "bd.skip", ssm.skip());
  run_steps(f, "bd", ssm, 41);
}

void dump_diagonal(std::FILE* f) {
  auto ssm = DiagonalSsm::make(DiagonalSsmConfig{6, 0.15, DiagonalSsmInit::kMamba, 17, 1.0}).value();
  std::fprintf(f, "model diag\n");
  put(f, "diag.delta", ssm.delta());
  put(f, "diag.log_a", ssm.log_a());
  put(f, "diag.b", ssm.b());
  put(f, "diag.c", ssm.c());
  run_steps(f, "diag", ssm, 51);
}

// Per-step Delta, lambda, complex B and C drawn here and dumped with x and y.
void dump_complex_diagonal(std::FILE* f, const std::string& tag, ComplexDiscretization m) {
  constexpr std::size_t kN = 5;
  auto ssm = ComplexDiagonalSsm::make(kN, m).value();
  std::fprintf(f, "model %s\n", tag.c_str());
  put(f, tag + ".log_a", ssm.log_a());
  Xorshift64 rng(61);
  std::vector<double> deltas, lambdas, xs, ys, brs, bis, crs, cis, br(kN), bi(kN), cr(kN), ci(kN);
  for (int t = 0; t < kSteps; ++t) {
    for (auto* v : {&br, &bi, &cr, &ci})
      for (double& e : *v) e = rng.normal();
    const double delta = rng.uniform(0.01, 0.3), lambda = rng.uniform(), x = rng.normal();
    ys.push_back(ssm.step_complex(delta, br, bi, cr, ci, x, lambda));
    deltas.push_back(delta);
    lambdas.push_back(lambda);
    xs.push_back(x);
    brs.insert(brs.end(), br.begin(), br.end());
    bis.insert(bis.end(), bi.begin(), bi.end());
    crs.insert(crs.end(), cr.begin(), cr.end());
    cis.insert(cis.end(), ci.begin(), ci.end());
  }
  put(f, tag + ".delta", deltas);
  put(f, tag + ".lambda", lambdas);
  put(f, tag + ".b_re", brs);
  put(f, tag + ".b_im", bis);
  put(f, tag + ".c_re", crs);
  put(f, tag + ".c_im", cis);
  put(f, tag + ".x", xs);
  put(f, tag + ".y", ys);
  put(f, tag + ".h", ssm.state());
}

Mamba3Config m3(std::size_t d, std::size_t n, std::size_t g, std::size_t rank, bool bc, Mamba3Discretization m) {
  Mamba3Config c;
  c.d_in = d;
  c.n_state = n;
  c.n_groups = g;
  c.rank = rank;
  c.use_bcnorm = bc;
  c.discretization = m;
  c.seed = 13;
  c.weight_scale = 0.3;
  return c;
}

TEST(NumpyDump, WriteSsmReferenceData) {
  const char* path = std::getenv("IRITHYLL_SSM_DUMP");
  if (path == nullptr || *path == '\0') GTEST_SKIP() << "set IRITHYLL_SSM_DUMP to write the NumPy reference data";
  std::FILE* f = std::fopen(path, "w");
  ASSERT_NE(f, nullptr);
  dump_mamba1(f);
  dump_diagonal(f);
  dump_complex_diagonal(f, "cdiag_tustin", ComplexDiscretization::kTustin);
  dump_complex_diagonal(f, "cdiag_exp", ComplexDiscretization::kExpTrapezoidal);
  dump_bd(f);
  dump_mamba3(f, "m3_siso_exp", m3(6, 5, 2, 0, true, Mamba3Discretization::kExpTrapezoidal));
  dump_mamba3(f, "m3_siso_tustin", m3(6, 5, 3, 0, false, Mamba3Discretization::kTustin));
  dump_mamba3(f, "m3_mimo_r2", m3(6, 4, 2, 2, true, Mamba3Discretization::kExpTrapezoidal));
  dump_mamba3(f, "m3_mimo_r3_nobc", m3(8, 3, 2, 3, false, Mamba3Discretization::kExpTrapezoidal));
  std::fclose(f);
}

}  // namespace
}  // namespace irithyll::nn
