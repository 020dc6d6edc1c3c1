// The SGBT family's checkpoint settings record: every setting written once,
// by name, in the compact form of core/config_codec.hpp; a name this build
// does not know is refused by name; both length forms read back the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "irithyll/core/config_codec.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/ensemble/bagged_sgbt.hpp"
#include "irithyll/ensemble/sgbt_learner.hpp"

namespace irithyll {
namespace {

// Occurrences of `name` as a compact record name (its one-byte length first,
// so "delta" does not match inside "drift-delta").
std::size_t count_of(const std::vector<std::uint8_t>& bytes, std::string_view name) {
  const std::string needle = std::string(1, static_cast<char>(name.size())) + std::string(name);
  std::size_t n = 0;
  auto it = bytes.begin();
  while ((it = std::search(it, bytes.end(), needle.begin(), needle.end())) != bytes.end()) {
    ++n;
    ++it;
  }
  return n;
}

SGBTConfig small() {
  SGBTConfig c;
  c.n_steps = 3;
  c.tree.max_depth = 3;
  c.tree.n_bins = 8;
  c.tree.grace_period = 20;
  c.learning_rate = 0.15;
  return c;
}

template <class T>
void train(T& m, std::size_t n, std::size_t classes) {
  Xorshift64 rng(5);
  for (std::size_t i = 0; i < n; ++i) {
    const double x[3] = {rng.uniform(), rng.uniform(), rng.uniform()};
    const double y = classes == 0 ? x[0] + 2 * x[1] : static_cast<double>(static_cast<std::size_t>(x[0] * classes));
    m.learn_one(x, y);
  }
}

TEST(SGBTSettingsRecord, EverySettingOnceInAMulticlassCheckpoint) {
  auto m = SGBTLearner::make(small(), {.task = Task::kClassification, .n_classes = 4, .seed = 9}).value();
  train(*m, 300, 4);
  ByteWriter w;
  m->encode(w);
  for (const auto& f : SGBTLearner::config_fields()) {
    EXPECT_EQ(count_of(w.data(), f.info.name), 1u) << f.info.name;
  }
}

TEST(SGBTSettingsRecord, BagsWriteTheirSettingsOnce) {
  BaggedSGBTConfig c;
  c.n_bags = 3;
  c.sgbt = small();
  auto m = BaggedSGBT::make(c, {.task = Task::kRegression, .seed = 4}).value();
  train(*m, 300, 0);
  ByteWriter w;
  m->encode(w);
  EXPECT_EQ(count_of(w.data(), "n-steps"), 1u);
  EXPECT_EQ(count_of(w.data(), "n-bags"), 1u);
  BaggedSGBT back;
  ByteReader r(w.data());
  ASSERT_TRUE(back.decode(r).is_ok());
  const double x[3] = {0.2, 0.7, 0.1};
  EXPECT_EQ(back.predict_one(x), m->predict_one(x));
}

// The state after the settings record carries no settings: the committees
// and every tree are built from the named settings, so two models that differ
// only in settings that keep no state of their own write the same state
// bytes (a tree that wrote its config would differ here). This is what lets
// a new setting need no record-version bump.
TEST(SGBTSettingsRecord, TheStateCarriesNoSettings) {
  SGBTConfig a = small();
  a.tree.categorical = {2};
  SGBTConfig b = a;
  b.tree.lambda = 3.0;
  b.tree.gamma = 0.5;
  b.tree.delta = 1e-3;
  b.tree.tie_threshold = 0.2;
  b.tree.min_child_hessian = 2.0;
  b.tree.hoeffding_r = 2.0;
  b.tree.categorical_penalty = 2.5;
  b.tree.max_leaf_output = 4.0;
  b.learning_rate = 0.3;
  const LearnerContext context{.task = Task::kClassification, .n_classes = 3, .seed = 9};
  auto ma = SGBTLearner::make(a, context).value();
  auto mb = SGBTLearner::make(b, context).value();
  ByteWriter wa, wb, whole_a, whole_b;
  ma->encode_state(wa);
  mb->encode_state(wb);
  EXPECT_EQ(wa.data(), wb.data());
  // The whole records differ, in the settings record alone.
  ma->encode(whole_a);
  mb->encode(whole_b);
  EXPECT_NE(whole_a.data(), whole_b.data());
  SGBTLearner back;
  ByteReader r(whole_b.data());
  ASSERT_TRUE(back.decode(r).is_ok());
  EXPECT_EQ(back.config().tree.categorical_penalty, 2.5);
  EXPECT_EQ(back.config().tree.lambda, 3.0);
}

TEST(SGBTSettingsRecord, AnUnknownSettingIsRefusedByName) {
  ByteWriter w;
  w.u32(6);  // the current record version
  const SGBTConfig c = small();
  // A newer build's setting, in the compact form, before the known ones.
  std::vector<ConfigField<SGBTConfig>> rows(SGBTLearner::config_fields().begin(), SGBTLearner::config_fields().end());
  rows.insert(rows.begin(), ConfigField<SGBTConfig>{FieldInfo::integer("warp-factor", "9", "from the future"),
                                                    [](SGBTConfig&, std::string_view) { return Status::ok(); },
                                                    [](const SGBTConfig&) { return std::string("9"); }});
  encode_config<SGBTConfig>(rows, c, w, ConfigLengths::kVarint);
  encode_context(LearnerContext{}, w);
  SGBTLearner m;
  ByteReader r(w.data());
  const Status s = m.decode(r);
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("'warp-factor'"), std::string::npos) << s.message();
}

TEST(SGBTSettingsRecord, BothLengthFormsReadBackTheSameSettings) {
  SGBTConfig c = small();
  c.tree.monotone = {1, 0, -1};
  c.tree.categorical = {2};
  for (ConfigLengths lengths : {ConfigLengths::kU64, ConfigLengths::kVarint}) {
    ByteWriter w;
    encode_config(SGBTLearner::config_fields(), c, w, lengths);
    SGBTConfig back;
    ByteReader r(w.data());
    ASSERT_TRUE(decode_config("sgbt", SGBTLearner::config_fields(), r, back).is_ok());
    EXPECT_TRUE(r.at_end());
    EXPECT_EQ(settings_of(SGBTLearner::config_fields(), back).items(), settings_of(SGBTLearner::config_fields(), c).items());
  }
}

TEST(SGBTSettingsRecord, EveryTruncationOfTheCompactRecordIsRefused) {
  ByteWriter w;
  encode_config(SGBTLearner::config_fields(), small(), w, ConfigLengths::kVarint);
  for (std::size_t cut = 0; cut < w.data().size(); ++cut) {
    SGBTConfig back;
    ByteReader r(std::span<const std::uint8_t>(w.data().data(), cut));
    EXPECT_FALSE(decode_config("sgbt", SGBTLearner::config_fields(), r, back).is_ok()) << cut;
  }
  // A varint length that never ends.
  ByteWriter bad;
  bad.u32(1u | 0x80000000u);
  for (int i = 0; i < 8; ++i) bad.u8(0xFF);
  SGBTConfig back;
  ByteReader r(bad.data());
  EXPECT_FALSE(decode_config("sgbt", SGBTLearner::config_fields(), r, back).is_ok());
}

}  // namespace
}  // namespace irithyll
