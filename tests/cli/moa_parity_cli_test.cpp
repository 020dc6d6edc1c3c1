// The baselines against MOA: with default settings, `hoeffding_tree`
// and `arf` are at least as accurate as MOA's HoeffdingTree and ARF (10 trees)
// on the shared streams, prequentially in file order, as the user runs them.
// MOA's figures are the (MOA built from source, same files).
//
// The Hoeffding tree is deterministic, so its bar is checked exactly. ARF is
// checked at the default seed and, because one seed can sit a few thousandths
// either side, on the mean of three more.
#include <gtest/gtest.h>

#include <string>

#include "support/cli_runner.hpp"
#include "support/shared_data.hpp"

namespace irithyll {
namespace {

using testing::run_cli;

struct Bar {
  const char* file;
  double moa_hoeffding_tree;
  double moa_arf;
};

constexpr Bar kBars[] = {
    {"datasets/elec.csv", 0.7795, 0.8756},
    {"datasets/elec8.csv", 0.8033, 0.8929},
    {"datasets/sea_stream.csv", 0.8752, 0.8904},
};

double accuracy(const std::string& file, const std::string& model, int seed) {
  const auto r = run_cli("eval --quiet --json --model " + model + " --seed " + std::to_string(seed) + " --data " +
                         testing::shared_path(file));
  EXPECT_EQ(r.code, 0) << r.err;
  const auto at = r.out.find("\"accuracy\":");
  if (at == std::string::npos) return -1.0;
  return std::stod(r.out.substr(at + 11));
}

TEST(MoaParityCli, HoeffdingTreeAtLeastMoasOnEverySharedStream) {
  for (const Bar& b : kBars) {
    IRITHYLL_REQUIRE_SHARED(b.file);
    // The accuracy is printed to 4+ digits; MOA's figures carry 4.
    EXPECT_GE(accuracy(b.file, "hoeffding_tree", 42), b.moa_hoeffding_tree) << b.file;
  }
}

TEST(MoaParityCli, ArfAtLeastMoasOnEverySharedStream) {
  for (const Bar& b : kBars) {
    IRITHYLL_REQUIRE_SHARED(b.file);
    EXPECT_GE(accuracy(b.file, "arf", 42), b.moa_arf) << b.file << " at the default seed";
    const double mean = (accuracy(b.file, "arf", 1) + accuracy(b.file, "arf", 2) + accuracy(b.file, "arf", 3)) / 3.0;
    EXPECT_GE(mean, b.moa_arf) << b.file << " over seeds 1-3";
  }
}

// Built-in generator, no shared data: on Agrawal the tree must keep taking the
// splits the Hoeffding bound forces at a tie even when their estimated gain is
// negative (the leaf's inherited class weights and its estimators' totals
// differ). Refusing them, as this tree once did, gave 0.810-0.818 on these
// seeds; taking them gives 0.838-0.853.
TEST(MoaParityCli, HoeffdingTreeTakesForcedSplitsOnAgrawal) {
  for (int seed : {1, 2, 3}) {
    const auto r = run_cli("eval --quiet --json --model hoeffding_tree --stream agrawal --seed " + std::to_string(seed));
    ASSERT_EQ(r.code, 0) << r.err;
    const auto at = r.out.find("\"accuracy\":");
    ASSERT_NE(at, std::string::npos) << r.out;
    EXPECT_GT(std::stod(r.out.substr(at + 11)), 0.83) << "seed " << seed;
  }
}

}  // namespace
}  // namespace irithyll
