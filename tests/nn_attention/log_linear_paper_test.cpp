// LogLinearAttention's paper forms (Log-Linear Mamba-2 / Gated DeltaNet):
// train_one's gradient against finite differences, and checkpoints.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "irithyll/nn/attention/log_linear.hpp"

namespace irithyll::nn {
namespace {

LogLinearConfig paper(LogLinearForm form, std::uint64_t seed, std::uint32_t levels) {
  LogLinearConfig c;
  c.form = form;
  c.d_model = 5;
  c.d_key = 3;
  c.d_value = 4;
  c.max_levels = levels;
  c.lambda_init = 0.2;
  c.seed = seed;
  c.init_scale = 0.5;
  return c;
}

std::vector<double> draw(Xorshift64& rng, std::size_t n, double s = 1.0) {
  std::vector<double> v(n);
  for (double& e : v) e = rng.normal() * s;
  return v;
}

double step_loss(const LogLinearAttention& m, const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> o(y.size());
  m.peek(x, o);
  double l = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) l += 0.5 * (o[i] - y[i]) * (o[i] - y[i]);
  return l;
}

// With lr = 1 the step is minus the gradient: every weight of W_q, W_k, W_v,
// W_lambda and the gates W_g against central differences of the step loss,
// from random states (up to 40 tokens: folds for L <= 5), L = 1, 3, 5.
TEST(LogLinearPaper, TrainOneGradientMatchesFiniteDifferences) {
  constexpr double kH = 1e-6, kTol = 1e-7;
  for (LogLinearForm form : {LogLinearForm::kMamba2, LogLinearForm::kGatedDeltaNet}) {
    for (std::uint32_t levels : {1u, 3u, 5u}) {
      for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        LogLinearAttention m(paper(form, seed, levels));
        Xorshift64 rng(seed * 131 + levels);
        std::vector<double> out(4);
        const int warm = static_cast<int>(rng.below(40));
        for (int t = 0; t < warm; ++t) m.forward(draw(rng, 5), out);
        const auto x = draw(rng, 5);
        const auto y = draw(rng, 4, 0.5);
        LogLinearAttention stepped = m;
        stepped.set_learning_rate(1.0);
        ASSERT_TRUE(stepped.train_one(x, y, out));
        using Access = std::span<double> (LogLinearAttention::*)();
        for (Access w : {static_cast<Access>(&LogLinearAttention::w_q), static_cast<Access>(&LogLinearAttention::w_k),
                         static_cast<Access>(&LogLinearAttention::w_v),
                         static_cast<Access>(&LogLinearAttention::w_lambda),
                         static_cast<Access>(&LogLinearAttention::w_gate)}) {
          const std::size_t n = (m.*w)().size();
          for (std::size_t i = 0; i < n; ++i) {
            const double analytic = (m.*w)()[i] - (stepped.*w)()[i];
            LogLinearAttention p = m, q = m;
            (p.*w)()[i] += kH;
            (q.*w)()[i] -= kH;
            const double fd = (step_loss(p, x, y) - step_loss(q, x, y)) / (2 * kH);
            ASSERT_NEAR(analytic, fd, kTol) << "form " << static_cast<int>(form) << " L " << levels << " seed "
                                            << seed << " warm " << warm << " index " << i;
          }
        }
      }
    }
  }
}

TEST(LogLinearPaper, GateRowsParamsAndCheckpointsContinue) {
  for (LogLinearForm form : {LogLinearForm::kMamba2, LogLinearForm::kGatedDeltaNet}) {
    LogLinearAttention m(paper(form, 9, 4));
    EXPECT_EQ(m.w_gate().size(), static_cast<std::size_t>(form) * 5);
    EXPECT_EQ(m.n_params(), (3 + 4 + 3 + 4) * 5 + m.w_gate().size());
    Xorshift64 rng(4);
    std::vector<double> oa(4), ob(4);
    for (int t = 0; t < 50; ++t) m.train_one(draw(rng, 5), draw(rng, 4, 0.5), oa);
    ByteWriter w;
    m.encode(w);
    LogLinearAttention d;
    ByteReader r(w.data());
    ASSERT_TRUE(d.decode(r, m.config()).is_ok());
    EXPECT_EQ(d.config().form, form);
    for (std::size_t cut = 0; cut < w.data().size(); cut += 13) {  // truncated records are refused
      LogLinearAttention e;
      ByteReader tr(std::span<const std::uint8_t>(w.data()).first(cut));
      EXPECT_FALSE(e.decode(tr, m.config()).is_ok());
    }
    for (int t = 0; t < 20; ++t) {
      const auto x = draw(rng, 5), y = draw(rng, 4, 0.5);
      m.train_one(x, y, oa);
      d.train_one(x, y, ob);
      ASSERT_EQ(oa, ob);
    }
    // The first level holds the current token: after any step bit 0 is set.
    EXPECT_EQ(m.level_mask() & 1u, 1u);
  }
  LogLinearConfig bad = paper(LogLinearForm::kMamba2, 1, 4);
  bad.form = static_cast<LogLinearForm>(7);
  EXPECT_FALSE(LogLinearAttention::make(bad).is_ok());
}

}  // namespace
}  // namespace irithyll::nn
