#include "irithyll/ensemble/sgbt_config.hpp"
#include "support/legacy_config_records.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace irithyll {
namespace {

TEST(SGBTConfig, MeasuredDefaults) {
  // BENCHMARKS.md, "SGBT defaults": chosen on elec, SEA and five generators.
  const SGBTConfig c;
  EXPECT_EQ(c.n_steps, 50u);
  EXPECT_DOUBLE_EQ(c.learning_rate, 0.1);
  EXPECT_DOUBLE_EQ(c.tree.feature_subsample, 0.75);
  EXPECT_EQ(c.tree.max_depth, 6u);
  EXPECT_EQ(c.tree.n_bins, 32u);
  EXPECT_DOUBLE_EQ(c.tree.lambda, 0.3);
  EXPECT_DOUBLE_EQ(c.tree.gamma, 0.0);
  EXPECT_EQ(c.tree.grace_period, 50u);
  EXPECT_DOUBLE_EQ(c.tree.delta, 1e-7);
  EXPECT_EQ(c.drift.kind, DriftKind::kAdwin);
  EXPECT_DOUBLE_EQ(c.drift.delta, 0.002);
  EXPECT_EQ(c.variant, SGBTVariant::kAuto);
  EXPECT_DOUBLE_EQ(c.mi_multiplier, 8.0);
  EXPECT_EQ(c.seed, 0xDEADBEEFCAFE4242ull);
  EXPECT_EQ(c.initial_target_count, 50u);
  EXPECT_EQ(c.leaf_half_life, 0.0);
  EXPECT_EQ(c.max_tree_samples, 0u);
  EXPECT_TRUE(c.validate().is_ok());
  EXPECT_EQ(c.tree_config(5).seed, c.seed ^ 5u);
}

TEST(SGBTConfig, ValidationBoundaries) {
  auto check = [](const char* field, const char* value, bool ok) {
    // The table refuses an out-of-range value when it is set; validate()
    // refuses the same value written straight into the struct.
    SGBTConfig c;
    const Status set = set_sgbt_config_field(c, field, value);
    EXPECT_EQ(set.is_ok() && c.validate().is_ok(), ok) << field << "=" << value << ": " << set.to_string();
    if (!ok && set.is_ok()) {
      EXPECT_FALSE(c.validate().is_ok()) << field << "=" << value;
    }
  };
  check("learning-rate", "1", true);
  check("learning-rate", "0", false);
  check("learning-rate", "1.5", false);
  check("n-bins", "2", true);
  check("n-bins", "1", false);
  check("grace-period", "1", true);
  check("grace-period", "0", false);
  check("n-steps", "0", false);
  check("max-depth", "0", false);
  check("delta", "1", false);
  check("delta", "0.5", true);
  check("feature-subsample", "0", false);
  check("feature-subsample", "1", true);
  check("lambda", "-1", false);
  check("gamma", "-0.1", false);
  check("initial-target-count", "0", false);
  check("leaf-half-life", "0.5", false);
  check("leaf-half-life", "1", true);
  check("max-tree-samples", "99", false);
  check("max-tree-samples", "100", true);
  check("drift-lambda", "-1", false);
  SGBTConfig q;
  ASSERT_TRUE(set_sgbt_config_field(q, "loss", "quantile").is_ok());
  ASSERT_TRUE(set_sgbt_config_field(q, "loss-param", "1.5").is_ok());
  EXPECT_FALSE(q.validate().is_ok());  // the quantile loss's own rule: tau in (0, 1)
  SGBTConfig direct;
  direct.learning_rate = 0.0;
  EXPECT_FALSE(direct.validate().is_ok());
  EXPECT_NE(direct.validate().message().find("learning-rate = 0 is out of range: must be in (0, 1]"), std::string::npos)
      << direct.validate().message();
  ASSERT_TRUE(set_sgbt_config_field(q, "loss-param", "0.9").is_ok());
  EXPECT_TRUE(q.validate().is_ok());
}

TEST(SGBTConfig, FieldTableSetsAndPrintsEveryField) {
  std::set<std::string> names;
  for (const auto& f : sgbt_config_fields()) {
    EXPECT_TRUE(names.insert(std::string(f.info.name)).second) << "duplicate " << f.info.name;
    EXPECT_FALSE(f.info.help.empty());
    SGBTConfig c;
    // The printed default is the configured default and parses back.
    EXPECT_EQ(f.get(c), std::string(f.info.default_value)) << f.info.name;
    EXPECT_TRUE(f.set(c, f.info.default_value).is_ok()) << f.info.name;
    EXPECT_FALSE(f.set(c, "not-a-value").is_ok()) << f.info.name;
  }
  for (const char* must : {"n-steps", "max-depth", "learning-rate", "grace-period", "n-bins", "lambda", "gamma",
                           "delta", "drift", "variant", "feature-subsample"})
    EXPECT_TRUE(names.count(must)) << must;
  SGBTConfig c;
  EXPECT_TRUE(set_sgbt_config_field(c, "drift", "adwin").is_ok());
  EXPECT_EQ(c.drift.kind, DriftKind::kAdwin);
  EXPECT_DOUBLE_EQ(c.drift.delta, 0.002);
  EXPECT_TRUE(set_sgbt_config_field(c, "variant", "skip").is_ok());
  EXPECT_EQ(c.variant, SGBTVariant::kSkip);
  EXPECT_TRUE(set_sgbt_config_field(c, "learning_rate", "0.5").is_ok());  // Python's spelling
  EXPECT_EQ(c.learning_rate, 0.5);
  EXPECT_FALSE(set_sgbt_config_field(c, "no-such-field", "1").is_ok());
  EXPECT_FALSE(set_sgbt_config_field(c, "n-steps", "-3").is_ok());
}

TEST(SGBTConfig, PresetOriginalRestoresTheOriginalSettings) {
  SGBTConfig c;
  ASSERT_TRUE(apply_sgbt_preset(c, "original").is_ok());
  EXPECT_EQ(c.n_steps, 100u);
  EXPECT_DOUBLE_EQ(c.learning_rate, 0.0125);
  EXPECT_EQ(c.tree.n_bins, 64u);
  EXPECT_DOUBLE_EQ(c.tree.lambda, 1.0);
  EXPECT_EQ(c.tree.grace_period, 200u);
  EXPECT_EQ(c.drift.kind, DriftKind::kPageHinkley);
  EXPECT_DOUBLE_EQ(c.drift.delta, 0.005);
  EXPECT_DOUBLE_EQ(c.drift.lambda, 50.0);
  EXPECT_EQ(c.variant, SGBTVariant::kStandard);
  EXPECT_DOUBLE_EQ(c.mi_multiplier, 1.0);
  EXPECT_TRUE(c.validate().is_ok());
  // "default" spells out the defaults: applying it to a fresh config is a no-op.
  SGBTConfig d, e;
  ASSERT_TRUE(apply_sgbt_preset(d, "default").is_ok());
  ByteWriter wd, we;
  encode_config(sgbt_config_fields(), d, wd);
  encode_config(sgbt_config_fields(), e, we);
  EXPECT_EQ(wd.data(), we.data());
  const Status bad = apply_sgbt_preset(c, "nope");
  EXPECT_FALSE(bad.is_ok());
  EXPECT_NE(bad.to_string().find("original"), std::string::npos) << bad.to_string();
}

TEST(SGBTConfig, EncodeDecodeRoundTrip) {
  SGBTConfig c;
  c.n_steps = 7;
  c.variant = SGBTVariant::kMultipleIterations;
  c.mi_multiplier = 2.5;
  c.leaf_half_life = 300;
  c.loss = LossKind::kHuber;
  c.loss_param = 2.0;
  ByteWriter w;
  testing::encode_legacy(c, w);
  SGBTConfig d;
  ByteReader r(w.data());
  ASSERT_TRUE(d.decode(r).is_ok());
  EXPECT_EQ(d.n_steps, 7u);
  EXPECT_EQ(d.variant, SGBTVariant::kMultipleIterations);
  EXPECT_EQ(d.loss, LossKind::kHuber);
  EXPECT_DOUBLE_EQ(d.leaf_half_life, 300.0);
  ByteReader t(std::span<const std::uint8_t>(w.data()).first(w.size() - 1));
  SGBTConfig e;
  EXPECT_FALSE(e.decode(t).is_ok());
}

}  // namespace
}  // namespace irithyll
