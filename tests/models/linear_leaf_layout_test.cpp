// Linear leaves of subspace trees (ARF's members) read every feature. Records
// written while they read only the leaf's m subspace features hold m + 1
// linear weights per leaf; such a record must still decode, predict what its
// writer predicted, and re-encode in the d + 1 layout.
//
// tests/data/golden/arf_linear_subspace.irck was saved by the last release
// with the narrow layout:
//   irithyll eval --model arf --stream friedman --leaf-model adaptive --n-trees 2
//     --n-bins 4 --grace-period 50 --max-samples 400 --seed 42 --save arf_linear_subspace.irck
// and .expect holds, per line, that release's prediction (a hex float) for
// one of eight fixed friedman rows (seed 7), none of them learned.
// IRITHYLL_GOLDEN_REGEN=1 rewrites the .expect from the current code: only
// with the build that wrote the record, never to make this test pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/file_io.hpp"
#include "irithyll/model_file.hpp"
#include "irithyll/stream/generators.hpp"

namespace irithyll {
namespace {

constexpr std::size_t kLayoutRows = 8;

std::string layout_data_path(const std::string& name) {
  return std::string(IRITHYLL_SOURCE_DIR) + "/tests/data/golden/" + name;
}

std::vector<std::vector<double>> layout_rows() {
  auto stream = make_generator("friedman", 7, kLayoutRows);
  EXPECT_TRUE(stream.is_ok());
  std::vector<std::vector<double>> rows(kLayoutRows);
  double y = 0.0;
  for (auto& x : rows) {
    x.resize((*stream)->schema().n_features());
    EXPECT_TRUE((*stream)->next(x, y));
  }
  return rows;
}

TEST(LinearLeafLayout, NarrowRecordPredictsAsItsWriterAndReencodesWide) {
  auto bytes = read_file_bytes(layout_data_path("arf_linear_subspace.irck"));
  ASSERT_TRUE(bytes.is_ok()) << bytes.status().to_string();
  auto decoded = decode_learner(*bytes);
  ASSERT_TRUE(decoded.is_ok()) << decoded.status().to_string();
  Learner& arf = **decoded;
  const auto rows = layout_rows();

  const char* regen = std::getenv("IRITHYLL_GOLDEN_REGEN");
  if (regen != nullptr && std::string(regen) == "1") {
    std::ofstream out(layout_data_path("arf_linear_subspace.expect"));
    for (const auto& x : rows) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%a\n", arf.predict_one(x));
      out << buf;
    }
    ASSERT_TRUE(out.good());
  }
  std::ifstream in(layout_data_path("arf_linear_subspace.expect"));
  std::vector<double> want;
  for (std::string line; std::getline(in, line);) want.push_back(std::strtod(line.c_str(), nullptr));
  ASSERT_EQ(want.size(), kLayoutRows);
  for (std::size_t i = 0; i < kLayoutRows; ++i)
    EXPECT_NEAR(arf.predict_one(rows[i]), want[i], 1e-12 * std::max(1.0, std::fabs(want[i]))) << "row " << i;

  // The re-encoding carries d - m more weights per linear leaf; it decodes to
  // the same model, before and after learning.
  std::vector<std::uint8_t> wide = encode_learner(arf);
  EXPECT_GT(wide.size(), bytes->size());
  for (int round = 0; round < 2; ++round) {
    auto again = decode_learner(wide);
    ASSERT_TRUE(again.is_ok()) << again.status().to_string();
    for (const auto& x : rows) EXPECT_EQ(arf.predict_one(x), (*again)->predict_one(x)) << "round " << round;
    for (std::size_t i = 0; i < kLayoutRows; ++i) arf.learn_one(rows[i], static_cast<double>(i));
    wide = encode_learner(arf);
  }
}

}  // namespace
}  // namespace irithyll
