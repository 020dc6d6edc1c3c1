// The plain LSTM cell (src/nn/rnn/lstm.hpp) and its learner ("lstm"): gate
// equations and initialisation, a read-only prediction, a stream that needs a
// recurrent memory, bit-identical checkpoints and refused hostile records.
// Every test here is deterministic (fixed seeds): none can fail by chance.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/nn/rnn/lstm_learner.hpp"
#include "nn/rnn/lstm.hpp"
#include "nn/rnn/lstm_core.hpp"
#include "readout/rls_head.hpp"

namespace irithyll::nn {
namespace {

double lstm_sig(double v) { return 1.0 / (1.0 + std::exp(-v)); }

TEST(Lstm, ValidateShapesAndInitialisation) {
  EXPECT_FALSE(LstmCell::validate({0, 4, 1.0, 1}).is_ok());
  EXPECT_FALSE(LstmCell::validate({3, 0, 1.0, 1}).is_ok());
  EXPECT_FALSE(LstmCell::validate({3, 4, NAN, 1}).is_ok());
  LstmCell cell({3, 4, 1.0, 9});
  const double scale = 1.0 / std::sqrt(7.0);
  for (int g = 0; g < 4; ++g) {
    ASSERT_EQ(cell.w(g).size(), 4u * 7u);
    ASSERT_EQ(cell.b(g).size(), 4u);
    for (double v : cell.b(g)) EXPECT_EQ(v, g == LstmCell::kForget ? 1.0 : 0.0);
  }
  // The draws are standard normals times 1/sqrt(fan_in): the same sequence
  // from the same seed, gate by gate.
  Xorshift64 rng(9);
  for (int g = 0; g < 4; ++g)
    for (double v : cell.w(g)) ASSERT_EQ(v, scale * rng.normal());
  LstmCell same({3, 4, 1.0, 9}), other({3, 4, 1.0, 10});
  EXPECT_TRUE(std::equal(cell.w(0).begin(), cell.w(0).end(), same.w(0).begin()));
  EXPECT_FALSE(std::equal(cell.w(0).begin(), cell.w(0).end(), other.w(0).begin()));
}

// The read-out's RLS matrices are bounded in all (2^25 doubles): a wide,
// many-class setting is refused by name instead of allocating gigabytes at
// its first sample (a fuzzed checkpoint asked for 16 x 5,121^2).
TEST(Lstm, RefusesAReadOutBeyondTheMemoryBound) {
  LstmLearnerConfig wide;
  wide.d_hidden = 1024;
  auto big = LstmLearner::make(wide, LearnerContext{Task::kClassification, 16, 4096, 1});
  ASSERT_FALSE(big.is_ok());
  EXPECT_NE(big.status().to_string().find("256 MiB"), std::string::npos) << big.status().to_string();
  EXPECT_TRUE(LstmLearner::make(wide, LearnerContext{Task::kRegression, 0, 1000, 1}).is_ok());
  EXPECT_TRUE(LstmLearner::make(LstmLearnerConfig{}, LearnerContext{Task::kClassification, 16, 1000, 1}).is_ok());
}

TEST(Lstm, StepFollowsTheGateEquations) {
  LstmCell cell({2, 3, 1.0, 5});
  Xorshift64 rng(3);
  std::vector<double> h(3, 0.0), c(3, 0.0), out(3);
  for (int t = 0; t < 20; ++t) {
    const double x[2] = {rng.normal(), rng.normal()};
    const double z[5] = {x[0], x[1], h[0], h[1], h[2]};
    std::vector<double> h_new(3), c_new(3);
    for (std::size_t j = 0; j < 3; ++j) {
      double pre[4];
      for (int g = 0; g < 4; ++g) {
        pre[g] = cell.b(g)[j];
        for (std::size_t k = 0; k < 5; ++k) pre[g] += cell.w(g)[j * 5 + k] * z[k];
      }
      c_new[j] = lstm_sig(pre[LstmCell::kForget]) * c[j] + lstm_sig(pre[LstmCell::kInput]) * std::tanh(pre[LstmCell::kCandidate]);
      h_new[j] = lstm_sig(pre[LstmCell::kOutput]) * std::tanh(c_new[j]);
    }
    cell.forward(x, out);
    for (std::size_t j = 0; j < 3; ++j) {
      ASSERT_NEAR(out[j], h_new[j], 1e-12) << "t " << t;
      ASSERT_NEAR(cell.cell()[j], c_new[j], 1e-12) << "t " << t;
    }
    h = h_new;
    c = c_new;
  }
}

TEST(Lstm, PredictIsPureBoundedAndResetKeepsWeights) {
  LstmCell cell({2, 6, 1.0, 11});
  Xorshift64 rng(4);
  std::vector<double> a(6), b(6);
  for (int t = 0; t < 200; ++t) {
    const double x[2] = {50.0 * rng.normal(), 50.0 * rng.normal()};
    const std::vector<double> c0(cell.cell().begin(), cell.cell().end());
    cell.forward_predict(x, a);
    ASSERT_TRUE(std::equal(c0.begin(), c0.end(), cell.cell().begin()));
    cell.forward(x, b);
    ASSERT_EQ(a, b);
    for (double v : b) ASSERT_LT(std::abs(v), 1.0);
  }
  const std::vector<double> w0(cell.w(1).begin(), cell.w(1).end());
  cell.reset();
  for (double v : cell.hidden()) EXPECT_EQ(v, 0.0);
  for (double v : cell.cell()) EXPECT_EQ(v, 0.0);
  EXPECT_TRUE(std::equal(w0.begin(), w0.end(), cell.w(1).begin()));
}

TEST(Lstm, ReinitializeUnitTouchesOnlyThatUnit) {
  LstmCell cell({2, 4, 2.0, 12});
  const LstmCell before = cell;
  Xorshift64 rng(6);
  cell.reinitialize_unit(2, rng);
  for (int g = 0; g < 4; ++g)
    for (std::size_t j = 0; j < 4; ++j) {
      for (std::size_t k = 0; k < 6; ++k) {
        const bool same = cell.w(g)[j * 6 + k] == before.w(g)[j * 6 + k];
        EXPECT_EQ(same, j != 2) << "gate " << g << " unit " << j;
      }
      EXPECT_EQ(cell.b(g)[j], before.b(g)[j]);
    }
  cell.reinitialize_unit(4, rng);  // out of range: ignored
}

// y_t = x_{t-2} on white-noise inputs: nothing in x_t predicts it, so a
// linear model on [x_t, 1] (the same RLS as the lstm's readout) stays at the
// target's standard deviation 1, while the cell's fixed random memory
// carries part of x_{t-2} (a reservoir, so not all of it).
TEST(Lstm, RecallsALaggedInputThatALinearModelCannot) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    LstmLearner m(LstmLearnerConfig{}, LearnerContext{Task::kRegression, 0, 1, seed});
    RlsHead linear(Task::kRegression, 0, 2, RlsConfig{0.998, 100.0});
    Xorshift64 rng(100 + seed);
    double lag[2] = {0.0, 0.0}, se_lstm = 0.0, se_linear = 0.0;
    int n = 0;
    for (int t = 0; t < 4000; ++t) {
      const double x[1] = {rng.normal()};
      const double y = lag[1];
      const double xl[2] = {x[0], 1.0};
      const double p = m.predict_one(x), q = linear.predict(xl);
      if (t >= 2000) se_lstm += (p - y) * (p - y), se_linear += (q - y) * (q - y), ++n;
      m.learn_one(x, y);
      linear.update(xl, y);
      lag[1] = lag[0];
      lag[0] = x[0];
    }
    const double rmse_lstm = std::sqrt(se_lstm / n), rmse_linear = std::sqrt(se_linear / n);
    EXPECT_GT(rmse_linear, 0.9) << "seed " << seed;
    EXPECT_LT(rmse_lstm, 0.85 * rmse_linear) << "seed " << seed;  // measured 0.72..0.75 of it
  }
}

LstmLearnerConfig lstm_regen_config() {
  LstmLearnerConfig c;
  c.d_hidden = 8;
  c.continual.kind = ContinualKind::kRegen;
  c.continual.interval = 25;
  c.continual.regen_fraction = 0.125;  // one unit of 8
  return c;
}

TEST(Lstm, CheckpointContinuesBitIdentically) {
  for (Task task : {Task::kRegression, Task::kClassification}) {
    const std::size_t k = task == Task::kClassification ? 3 : 0;
    LstmLearner a(lstm_regen_config(), LearnerContext{task, k, 0, 21});
    Xorshift64 rng(2);
    auto target = [&](const double* x) { return task == Task::kClassification ? double(x[0] > 0) + double(x[1] > 1) : x[0] - x[1]; };
    for (int t = 0; t < 150; ++t) {
      const double x[2] = {rng.normal(), t % 7 == 0 ? NAN : rng.normal()};
      a.learn_one(x, target(x));
    }
    ByteWriter w;
    a.encode(w);
    LstmLearner b;
    ByteReader r(w.data());
    ASSERT_TRUE(b.decode(r).is_ok());
    EXPECT_TRUE(r.at_end());
    for (int t = 0; t < 200; ++t) {
      const double x[2] = {rng.normal(), rng.normal()};
      ASSERT_EQ(a.predict_one(x), b.predict_one(x)) << "t " << t;
      a.learn_one(x, target(x));
      b.learn_one(x, target(x));
    }
    ByteWriter wa, wb;
    a.encode(wa);
    b.encode(wb);
    EXPECT_EQ(wa.data(), wb.data());
  }
}

// Offsets of the cell inside a record: everything before it is the shared
// head and readout state; the cell's weights follow its four header fields.
TEST(Lstm, HostileRecordsAreRefused) {
  LstmLearner a(LstmLearnerConfig{}, LearnerContext{Task::kRegression, 0, 2, 3});
  const double x[2] = {0.3, -0.2};
  for (int t = 0; t < 20; ++t) a.learn_one(x, 1.0);
  ByteWriter w;
  a.encode(w);
  const std::vector<std::uint8_t> good = w.data();
  for (std::size_t cut = 0; cut < good.size(); cut += 13) {
    LstmLearner b;
    ByteReader r{std::span<const std::uint8_t>(good).first(cut)};
    EXPECT_FALSE(b.decode(r).is_ok()) << "cut " << cut;
  }
  // A version-1 record header: "lstm" never wrote one.
  {
    std::vector<std::uint8_t> bad = good;
    bad[0] = 1;
    LstmLearner b;
    ByteReader r(bad);
    EXPECT_FALSE(b.decode(r).is_ok());
  }
  // A NaN planted in the cell's first weight, and a cell claiming a huge
  // width: both refused without touching the blank learner.
  ByteWriter cw;
  a.core().cell().encode(cw);
  const std::vector<std::uint8_t> cell_bytes = cw.data();
  const auto at = std::search(good.begin(), good.end(), cell_bytes.begin(), cell_bytes.end());
  ASSERT_NE(at, good.end());
  const std::size_t cell_pos = static_cast<std::size_t>(at - good.begin());
  const std::size_t first_weight = cell_pos + 4 * 8 + 8;  // d_in, d_hidden, forget bias, seed; array count
  {
    std::vector<std::uint8_t> bad = good;
    const std::uint64_t nan_bits = std::bit_cast<std::uint64_t>(std::nan(""));
    for (int i = 0; i < 8; ++i) bad[first_weight + i] = static_cast<std::uint8_t>(nan_bits >> (8 * i));
    LstmLearner b;
    ByteReader r(bad);
    const Status s = b.decode(r);
    EXPECT_FALSE(s.is_ok());
    EXPECT_NE(s.message().find("non-finite"), std::string::npos) << s.message();
    EXPECT_EQ(b.n_samples_seen(), 0u);
  }
  // A finite but huge weight: a gate's weighted sum of two such (+1e300,
  // -1e300 times inputs) reaches +inf and -inf at once, and every
  // prediction was NaN. Refused beyond 1e100.
  for (const double huge : {1e300, -1e101}) {
    std::vector<std::uint8_t> bad = good;
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(huge);
    for (int i = 0; i < 8; ++i) bad[first_weight + i] = static_cast<std::uint8_t>(bits >> (8 * i));
    LstmLearner b;
    ByteReader r(bad);
    const Status s = b.decode(r);
    EXPECT_FALSE(s.is_ok()) << huge;
    EXPECT_NE(s.message().find("out-of-range value in W"), std::string::npos) << s.message();
  }
  {
    std::vector<std::uint8_t> bad = good;
    bad[cell_pos + 8 + 1] = 0x10;  // d_hidden 32 -> 4128: too large for the bytes left
    LstmLearner b;
    ByteReader r(bad);
    EXPECT_FALSE(b.decode(r).is_ok());
  }
  Xorshift64 frng(5);
  for (int i = 0; i < 300; ++i) {
    std::vector<std::uint8_t> bad = good;
    bad[frng.below(bad.size())] ^= static_cast<std::uint8_t>(1u << frng.below(8));
    LstmLearner b;
    ByteReader r(bad);
    if (b.decode(r).is_ok()) {
      EXPECT_TRUE(std::isfinite(b.predict_one(x)));
    }
  }
}

}  // namespace
}  // namespace irithyll::nn
