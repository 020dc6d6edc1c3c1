// hoeffding_tree as the catalogue builds it, on Agrawal with its three
// discrete attributes (elevel, car, zipcode) read as text, i.e. nominal
// attributes (categorical-features, as the CLI sets it for string columns),
// learns at least as well as with the same values read as numeric codes;
// a checkpoint written before nominal-penalty and nominal-nb-prior existed
// keeps the behaviour it was trained with (both 0).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/file_io.hpp"
#include "irithyll/catalogue.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/tree/hoeffding_tree_learner.hpp"
#include "irithyll/stream/generators/agrawal.hpp"

namespace irithyll {
namespace {

constexpr int kSeeds = 8;

double prequential(const char* model, int function, std::uint64_t seed, bool text, int samples = 40000) {
  ModelSettings settings;
  if (text) settings.set("categorical-features", "3,4,5");
  auto m = make_learner(model, settings, {Task::kClassification, 2, 9, seed});
  EXPECT_TRUE(m.is_ok()) << m.status().to_string();
  if (!m.is_ok()) return 0.0;
  AgrawalConfig config;
  config.function = function;
  AgrawalGenerator stream(config, seed);
  std::vector<double> x(AgrawalGenerator::kFeatures);
  double y = 0.0;
  int right = 0;
  for (int i = 0; i < samples; ++i) {
    if (!stream.next(x, y)) break;
    right += (*m)->predict_one(x) == y;
    (*m)->learn_one(x, y);
  }
  return static_cast<double>(right) / samples;
}

// Functions 2, 5 and 6 (age with salary, loan or commission) are those where
// the nominal attributes do not matter and the plain merit lost most: a
// split on the 20-valued car or the 9-valued zipcode won on its noise gain.
// Over seeds 1-8 here the text columns scored 0.097, 0.064 and 0.044 below
// the codes with nominal-penalty 0 and nominal-nb-prior 0 (mean over
// seeds). With the defaults the mean paired differences (text - codes) are
// +0.001, -0.003 and -0.000; over 30 seeds -0.002 (sd 0.014 across seeds;
// function 2, the widest), -0.005 (sd 0.003) and -0.001 (sd 0.001). The
// bound, 0.02 below the codes, is 3.6 standard errors of a mean of 8 seeds
// below function 2's mean difference and more for the others: another set
// of 8 seeds would fail it with probability about 2e-4 (normal
// approximation). These seeds are fixed, so the test itself is
// deterministic.
TEST(HoeffdingTreeTextAgrawal, TextColumnsLearnAsWellAsTheirCodes) {
  for (int function : {2, 5, 6}) {
    double text = 0.0, codes = 0.0;
    for (int s = 1; s <= kSeeds; ++s) {
      text += prequential("hoeffding_tree", function, static_cast<std::uint64_t>(s), true) / kSeeds;
      codes += prequential("hoeffding_tree", function, static_cast<std::uint64_t>(s), false) / kSeeds;
    }
    EXPECT_GT(codes, 0.7) << "function " << function;
    EXPECT_GT(text, codes - 0.02) << "function " << function << ": text " << text << ", codes " << codes;
  }
}

// hoeffding_adaptive_tree has the same settings. Functions 2 and 5, seeds
// 1-6, 30k samples: with both at 0 the text columns scored 0.117 and 0.086
// below the codes (mean over seeds); with the defaults the mean paired
// differences are -0.002 and -0.003, each seed's with a standard deviation
// of about 0.006, so a mean of 6 has a standard error of 0.0025 and the
// bound, 0.02 below the codes, is about 7 of them away: another set of
// seeds would fail it with a probability below 1e-9 (normal approximation).
// Fixed seeds: deterministic.
TEST(HoeffdingTreeTextAgrawal, AdaptiveTreeTextColumnsLearnAsWellAsTheirCodes) {
  for (int function : {2, 5}) {
    double text = 0.0, codes = 0.0;
    for (int s = 1; s <= 6; ++s) {
      text += prequential("hoeffding_adaptive_tree", function, static_cast<std::uint64_t>(s), true, 30000) / 6;
      codes += prequential("hoeffding_adaptive_tree", function, static_cast<std::uint64_t>(s), false, 30000) / 6;
    }
    EXPECT_GT(codes, 0.7) << "function " << function;
    EXPECT_GT(text, codes - 0.02) << "function " << function << ": text " << text << ", codes " << codes;
  }
}

// The golden file predates both settings: its record has no rows for them.
TEST(HoeffdingTreeTextAgrawal, EarlierCheckpointKeepsThePlainMeritAndAddOne) {
  auto bytes = read_file_bytes(std::string(IRITHYLL_SOURCE_DIR) + "/tests/data/golden/hoeffding_tree.irck");
  ASSERT_TRUE(bytes.is_ok()) << bytes.status().to_string();
  auto decoded = decode_learner(*bytes);
  ASSERT_TRUE(decoded.is_ok()) << decoded.status().to_string();
  const auto* tree = dynamic_cast<const HoeffdingTreeLearner*>(decoded->get());
  ASSERT_NE(tree, nullptr);
  EXPECT_EQ(tree->config().nominal_penalty, 0.0);
  EXPECT_EQ(tree->config().nominal_nb_prior, 0.0);
  ASSERT_NE(tree->tree(), nullptr);
  EXPECT_EQ(tree->tree()->config().nominal_penalty, 0.0);
  // A model made now has the defaults and writes them.
  auto fresh = make_learner("hoeffding_tree", {}, {Task::kClassification, 2, 3, 1});
  ASSERT_TRUE(fresh.is_ok());
  const auto* f = dynamic_cast<const HoeffdingTreeLearner*>(fresh->get());
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->config().nominal_penalty, 2.0);
  EXPECT_EQ(f->config().nominal_nb_prior, 10.0);
}

}  // namespace
}  // namespace irithyll
