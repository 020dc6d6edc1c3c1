// Mamba3's learnable BCNorm gamma: bcnorm_train's step against central
// differences of the step's output (from the same pre-step state the
// gradient holds fixed), for SISO / MIMO and both discretisations; and the
// learner's checkpoints with a learned gamma.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "irithyll/core/rng.hpp"
#include "nn/ssm/mamba3.hpp"
#include "irithyll/nn/ssm/mamba_learner.hpp"
#include "nn/ssm/mamba_core.hpp"

namespace irithyll::nn {
namespace {

std::vector<double> draw(Xorshift64& rng, std::size_t n) {
  std::vector<double> v(n);
  for (double& e : v) e = rng.normal();
  return v;
}

TEST(Mamba3BcNorm, GammaGradientMatchesFiniteDifferences) {
  for (std::size_t rank : {std::size_t{0}, std::size_t{2}}) {
    for (auto disc : {Mamba3Discretization::kExpTrapezoidal, Mamba3Discretization::kTustin}) {
      Mamba3Config c;
      c.d_in = 6;
      c.n_state = 4;
      c.n_groups = 2;
      c.rank = rank;
      c.discretization = disc;
      c.weight_scale = 0.5;
      Mamba3 m(c);
      Xorshift64 rng(3 + rank);
      std::vector<double> y(6);
      for (int t = 0; t < 7; ++t) m.forward(draw(rng, 6), y);
      m.set_bcnorm_learnable(true);
      for (double& g : m.bcnorm_gamma()) g = rng.uniform(0.5, 1.5);
      const Mamba3 base = m;
      const auto x = draw(rng, 6);
      auto dy = draw(rng, 6);
      for (double& e : dy) e *= 0.01;  // keeps the gradient under bcnorm_train's clip (kBcnormMaxGradNorm)
      m.forward(x, y);
      m.bcnorm_train(dy, 1.0);
      const auto loss = [&](const Mamba3& l) {
        std::vector<double> out(6);
        l.forward_predict(x, out);
        double s = 0.0;
        for (std::size_t q = 0; q < 6; ++q) s += dy[q] * out[q];
        return s;
      };
      for (std::size_t j = 0; j < base.bcnorm_gamma().size(); ++j) {
        const double analytic = base.bcnorm_gamma()[j] - m.bcnorm_gamma()[j];
        Mamba3 p = base, q = base;
        p.bcnorm_gamma()[j] += 1e-6;
        q.bcnorm_gamma()[j] -= 1e-6;
        const double fd = (loss(p) - loss(q)) / 2e-6;
        ASSERT_NEAR(analytic, fd, 1e-8) << "rank " << rank << " j " << j;
      }
    }
  }
}

TEST(Mamba3BcNorm, LearnerTrainsGammaAndCheckpointsIt) {
  MambaLearnerConfig c;
  c.version = MambaVersion::kV3;
  c.bcnorm_lr = 0.01;
  c.n_state = 8;
  MambaCore m(c, {});
  Xorshift64 rng(8);
  std::vector<double> x(4);
  for (int t = 0; t < 300; ++t) {
    for (double& e : x) e = rng.normal();
    m.learn_one(x, x[0] - x[1]);
  }
  const auto* m3 = dynamic_cast<const Mamba3*>(m.layer());
  ASSERT_NE(m3, nullptr);
  double moved = 0.0;
  for (double g : m3->bcnorm_gamma()) moved = std::max(moved, std::fabs(g - 1.0));
  EXPECT_GT(moved, 1e-6);
  ByteWriter w;
  m.encode(w);
  MambaCore d;
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok());
  EXPECT_EQ(d.config().bcnorm_lr, 0.01);
  for (int t = 0; t < 20; ++t) {
    for (double& e : x) e = rng.normal();
    ASSERT_EQ(m.predict_one(x), d.predict_one(x));
    m.learn_one(x, x[2]);
    d.learn_one(x, x[2]);
  }
  c.bcnorm_lr = -1.0;
  EXPECT_FALSE(MambaLearner::validate(c, {}).is_ok());
}

// A record written with gamma fixed (as every record before learning existed)
// decodes with bcnorm_lr 0 and continues bit-identically with gamma fixed.
TEST(Mamba3BcNorm, FixedGammaRecordsKeepFixedGamma) {
  MambaLearnerConfig c;
  c.version = MambaVersion::kV3;
  c.n_state = 8;
  c.bcnorm_lr = 0.0;
  MambaCore m(c, {});
  Xorshift64 rng(12);
  std::vector<double> x(4);
  for (int t = 0; t < 100; ++t) {
    for (double& e : x) e = rng.normal();
    m.learn_one(x, x[0]);
  }
  ByteWriter w;
  m.encode(w);
  EXPECT_EQ(w.data()[4 + 1 + 8 + 8] & 0x80u, 0u);  // version byte after u32 version, task, n_classes, n_features
  MambaCore d;
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok());
  EXPECT_EQ(d.config().bcnorm_lr, 0.0);
  for (int t = 0; t < 50; ++t) {
    for (double& e : x) e = rng.normal();
    ASSERT_EQ(m.predict_one(x), d.predict_one(x));
    m.learn_one(x, x[1]);
    d.learn_one(x, x[1]);
  }
  for (double g : dynamic_cast<const Mamba3*>(d.layer())->bcnorm_gamma()) EXPECT_EQ(g, 1.0);
}

}  // namespace
}  // namespace irithyll::nn
