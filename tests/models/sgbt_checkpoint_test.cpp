// SGBT through the checkpoint container and the learner registry: a model
// saved by encode_learner() comes back from decode_learner() as an "sgbt"
// learner that continues bit-identically; damaged containers are refused.
#include <gtest/gtest.h>

#include <vector>

#include "irithyll/core/rng.hpp"
#include "support/sgbt_direct.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"
#include "irithyll/model_file.hpp"

namespace irithyll {
namespace {

TEST(SGBTCheckpoint, RegistryRoundTripContinuesBitIdentically) {
  SGBTConfig c;
  c.n_steps = 10;
  c.tree.grace_period = 50;
  c.learning_rate = 0.1;
  SGBTLearner a = testing::sgbt_learner(c, Task::kClassification, 2);
  Xorshift64 rng(1);
  double x[3];
  auto sample = [&]() {
    for (double& v : x) v = rng.uniform();
    return x[0] > x[1] ? 1.0 : 0.0;
  };
  for (int i = 0; i < 3000; ++i) a.learn_one(x, sample());
  const std::vector<std::uint8_t> file = encode_learner(a);
  auto loaded = decode_learner(file);
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().to_string();
  Learner& b = **loaded;
  EXPECT_EQ(b.name(), "sgbt");
  EXPECT_EQ(b.n_classes(), 2u);
  for (int i = 0; i < 2000; ++i) {
    const double y = sample();
    double pa[2], pb[2];
    a.predict_proba_one(x, pa);
    b.predict_proba_one(x, pb);
    ASSERT_EQ(pa[0], pb[0]) << i;
    ASSERT_EQ(pa[1], pb[1]) << i;
    a.learn_one(x, y);
    b.learn_one(x, y);
  }
  std::vector<std::uint8_t> bad = file;
  bad[bad.size() / 2] ^= 0x40;
  EXPECT_FALSE(decode_learner(bad).is_ok());  // CRC
  EXPECT_FALSE(decode_learner(std::span<const std::uint8_t>(file).first(file.size() - 3)).is_ok());
}

}  // namespace
}  // namespace irithyll
