// Writes weights, inputs, outputs and states of the recurrent cells for the
// independent NumPy reference (tests/reference/rnn_ref.py, run from CTest).
// Runs only when IRITHYLL_RNN_DUMP names the output file.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/rnn/delay_conv.hpp"
#include "nn/rnn/lstm.hpp"
#include "nn/rnn/mingru.hpp"
#include "nn/rnn/slstm.hpp"

namespace irithyll::nn {
namespace {

constexpr int kSteps = 64;

void put(std::FILE* f, const std::string& key, std::span<const double> v) {
  std::fprintf(f, "%s %zu", key.c_str(), v.size());
  for (double x : v) std::fprintf(f, " %.17g", x);
  std::fprintf(f, "\n");
}
void put(std::FILE* f, const std::string& key, double v) { put(f, key, std::span<const double>(&v, 1)); }

template <class Cell>
void run_steps(std::FILE* f, const std::string& tag, Cell& cell, std::size_t d_in, std::size_t d_out, double scale) {
  Xorshift64 rng(77);
  std::vector<double> xs, ys, x(d_in), y(d_out);
  for (int t = 0; t < kSteps; ++t) {
    for (double& v : x) v = scale * rng.normal();
    cell.forward(x, y);
    xs.insert(xs.end(), x.begin(), x.end());
    ys.insert(ys.end(), y.begin(), y.end());
  }
  put(f, tag + ".x", xs);
  put(f, tag + ".y", ys);
}

void dump_slstm(std::FILE* f, const std::string& tag, SlstmForgetGate gate, double scale) {
  SlstmConfig c;
  c.d_in = 3;
  c.d_hidden = 6;
  c.n_heads = 2;
  c.forget_bias = forget_bias_linspace(3.0, 6.0, 6);
  c.forget_gate = gate;
  c.seed = 17;
  SlstmCell cell(c);
  put(f, tag + ".dims", std::vector<double>{3, 6, 2});
  put(f, tag + ".exp_forget", gate == SlstmForgetGate::kExponential ? 1.0 : 0.0);
  for (int g = 0; g < 4; ++g) {
    put(f, tag + ".w" + std::to_string(g), cell.w(g));
    put(f, tag + ".r" + std::to_string(g), cell.r(g));
    put(f, tag + ".b" + std::to_string(g), cell.b(g));
  }
  run_steps(f, tag, cell, 3, 6, scale);
  put(f, tag + ".c", cell.cell());
  put(f, tag + ".n", cell.normalizer());
  put(f, tag + ".m", cell.stabilizer());
}

TEST(NumpyDump, WriteRnnReferenceData) {
  const char* path = std::getenv("IRITHYLL_RNN_DUMP");
  if (path == nullptr || *path == '\0') GTEST_SKIP() << "set IRITHYLL_RNN_DUMP to write the NumPy reference data";
  std::FILE* f = std::fopen(path, "w");
  ASSERT_NE(f, nullptr);
  dump_slstm(f, "slstm_sig", SlstmForgetGate::kSigmoid, 1.0);
  dump_slstm(f, "slstm_exp", SlstmForgetGate::kExponential, 1.0);
  dump_slstm(f, "slstm_big", SlstmForgetGate::kSigmoid, 30.0);  // drives the +-20 gate clamp
  MinGruCell gru(MinGruConfig{3, 5, 23});
  put(f, "mingru.dims", std::vector<double>{3, 5});
  put(f, "mingru.w_z", gru.w_z());
  put(f, "mingru.b_z", gru.b_z());
  put(f, "mingru.w_h", gru.w_h());
  put(f, "mingru.b_h", gru.b_h());
  run_steps(f, "mingru", gru, 3, 5, 1.0);
  for (const auto& [tag, scale] : {std::pair{"lstm", 1.0}, std::pair{"lstm_big", 30.0}}) {
    LstmCell lstm({3, 5, 1.0, 31});
    put(f, std::string(tag) + ".dims", std::vector<double>{3, 5});
    for (int g = 0; g < 4; ++g) {
      put(f, std::string(tag) + ".w" + std::to_string(g), lstm.w(g));
      put(f, std::string(tag) + ".b" + std::to_string(g), lstm.b(g));
    }
    run_steps(f, tag, lstm, 3, 5, scale);
    put(f, std::string(tag) + ".c", lstm.cell());
  }
  DelayConv1d conv(2, 3, 29);
  conv.set_delay(0, 2, 4.6);
  conv.set_delay(1, 0, 1.4);
  put(f, "conv.dims", std::vector<double>{2, 3});
  put(f, "conv.w", conv.weights());
  put(f, "conv.delay", conv.delays());
  run_steps(f, "conv", conv, 2, 2, 1.0);
  std::fclose(f);
}

}  // namespace
}  // namespace irithyll::nn
