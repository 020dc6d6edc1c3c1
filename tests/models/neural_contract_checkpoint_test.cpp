// The neural learners under the learner contract write their settings by
// name and the learner context into their checkpoints: a learner built with
// settings away from their defaults, a classification context and a seed
// decodes into a blank instance that reports the same settings, task,
// classes and width, re-encodes to the same bytes (the seed included) and
// continues bit-identically; a record naming a setting this build does not
// know is refused by that name.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "irithyll/catalogue.hpp"
#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"

namespace irithyll {
namespace {

struct Case {
  const char* model;
  ModelSettings settings;
  const char* first_setting;  // the table's first row: the record's first name
};

const Case kCases[] = {
    {"esn", {{"neurons", "12"}, {"leak", "0.7"}, {"washout", "5"}, {"rls-lambda", "0.99"}}, "neurons"},
    {"ngrc", {{"k", "3"}, {"s", "2"}, {"degree", "0"}}, "k"},
    {"spikenet", {{"hidden", "8"}, {"readout", "eprop"}, {"eta", "32"}}, "hidden"},
    {"attention", {{"mode", "deltanet"}, {"d-model", "8"}, {"n-heads", "2"}, {"levels", "4"}}, "mode"},
    {"loglinear", {{"inner", "gla"}, {"d-model", "8"}, {"levels", "4"}, {"continual", "ewc"}}, "inner"},
    {"mamba",
     {{"version", "v3"}, {"n-state", "4"}, {"groups", "2"}, {"state-feature-cap", "8"}, {"continual", "regen"}},
     "version"},
    {"slstm", {{"hidden", "8"}, {"heads", "2"}, {"continual", "regen"}, {"regen-interval", "20"}}, "hidden"},
    {"mgrade", {{"hidden", "8"}, {"taps", "2"}, {"warmup", "3"}}, "hidden"},
    {"lstm", {{"hidden", "8"}, {"forget-bias", "2"}, {"continual", "regen"}, {"regen-interval", "20"}}, "hidden"},
};

class NeuralContractCheckpoint : public ::testing::TestWithParam<Case> {};

std::vector<std::uint8_t> bytes_of(const Learner& m) {
  ByteWriter out;
  m.encode(out);
  return out.take();
}

TEST_P(NeuralContractCheckpoint, SettingsAndContextRoundTripByName) {
  const Case& c = GetParam();
  const CatalogueEntry* entry = find_model(c.model);
  ASSERT_NE(entry, nullptr);
  const LearnerContext context{Task::kClassification, 3, 4, 9};
  auto made = make_learner(c.model, c.settings, context);
  ASSERT_TRUE(made.is_ok()) << made.status().message();
  Learner& a = **made;
  Xorshift64 rng(5);
  std::vector<double> x(4), pa(3), pb(3);
  const auto next = [&] {
    for (double& v : x) v = rng.normal();
    return x[0] < -0.5 ? 0.0 : (x[0] < 0.5 ? 1.0 : 2.0);
  };
  for (int t = 0; t < 200; ++t) a.learn_one(x, next());

  const auto bytes = bytes_of(a);
  auto b = make_blank_learner(c.model);
  ASSERT_NE(b, nullptr);
  ByteReader in(bytes);
  ASSERT_TRUE(b->decode(in).is_ok());
  const ModelSettings decoded = entry->settings_of(*b);
  EXPECT_EQ(decoded.items(), entry->settings_of(a).items());
  for (const auto& set : c.settings.items()) {
    const auto& items = decoded.items();
    const auto it = std::find_if(items.begin(), items.end(), [&](const auto& kv) { return kv.first == set.first; });
    ASSERT_NE(it, items.end()) << set.first;
    EXPECT_EQ(it->second, set.second) << set.first;
  }
  EXPECT_EQ(b->task(), Task::kClassification);
  EXPECT_EQ(b->n_classes(), 3u);
  EXPECT_EQ(b->n_features(), 4u);
  EXPECT_EQ(bytes_of(*b), bytes);
  for (int t = 0; t < 50; ++t) {
    const double y = next();
    ASSERT_EQ(a.predict_one(x), b->predict_one(x)) << "sample " << t;
    a.predict_proba_one(x, pa);
    b->predict_proba_one(x, pb);
    ASSERT_EQ(pa, pb) << "sample " << t;
    a.learn_one(x, y);
    b->learn_one(x, y);
  }
}

TEST_P(NeuralContractCheckpoint, UnknownSettingIsRefusedByName) {
  const Case& c = GetParam();
  auto made = make_learner(c.model, c.settings, LearnerContext{Task::kRegression, 0, 0, 3});
  ASSERT_TRUE(made.is_ok()) << made.status().message();
  auto bytes = bytes_of(**made);
  // The first setting's name, as the record writes it; renamed in place.
  const std::string name = c.first_setting;
  const auto at = std::search(bytes.begin(), bytes.end(), name.begin(), name.end());
  ASSERT_NE(at, bytes.end());
  *at = static_cast<std::uint8_t>('Q');
  auto b = make_blank_learner(c.model);
  ByteReader in(bytes);
  const Status s = b->decode(in);
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("Q" + name.substr(1)), std::string::npos) << s.message();
}

INSTANTIATE_TEST_SUITE_P(All, NeuralContractCheckpoint, ::testing::ValuesIn(kCases),
                         [](const auto& p) { return std::string(p.param.model); });

}  // namespace
}  // namespace irithyll
