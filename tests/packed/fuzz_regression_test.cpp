// Regressions from fuzzing the packed readers, plus a deterministic mutation
// sweep (the fuzzers' check, run in every CI build and under ASan): random
// byte edits of valid files either fail validation with a reason or predict
// identically through every path.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "irithyll/packed/exporter.hpp"
#include "irithyll/packed/packed_model.hpp"
#include "packed_test_util.hpp"

namespace irithyll::packed {
namespace {

// fuzz_packed_f32, first run: a tree table claiming 2^32 - 1 nodes made the
// hosted loader size its validation scratch from that count (a 8 GiB
// allocation) before the size checks ran. The scratch size is now capped at
// the 65536 nodes u16 child indices can reach, and such a tree is refused.
TEST(PackedFuzzRegression, HostileNodeCountDoesNotSizeAllocations) {
  auto b = testing::build_f32({{testing::leaf(1.0f)}}, 0, 0.0f);
  b[16] = b[17] = b[18] = b[19] = 0xFF;  // n_nodes = 0xFFFFFFFF
  EXPECT_LE(largest_tree_f32(b.data(), b.size()), 65536u);
  auto m = PackedModel::from_bytes(b);
  ASSERT_FALSE(m.is_ok());
  EXPECT_NE(m.status().message().find("truncated"), std::string::npos);
  // A large enough buffer with one 70000-node tree: past the size checks,
  // refused by the structure check, not by running out of scratch.
  std::vector<std::uint8_t> big(16 + 8 + 12 * 70000, 0);
  std::memcpy(big.data(), &kMagicF32, 4);
  big[4] = 1;
  big[6] = 1;
  const std::uint32_t n = 70000;
  std::memcpy(big.data() + 16, &n, 4);
  auto mb = PackedModel::from_bytes(big);
  ASSERT_FALSE(mb.is_ok());
  EXPECT_NE(mb.status().message().find("tree structure"), std::string::npos) << mb.status().message();
}

bool same(float a, float b) { return std::memcmp(&a, &b, 4) == 0 || (std::isnan(a) && std::isnan(b)); }

TEST(PackedFuzzRegression, MutatedFilesFailCleanlyOrAgreeEverywhere) {
  Xorshift64 rng(2024);
  std::size_t accepted = 0, refused = 0;
  for (int model = 0; model < 12; ++model) {
    const ExportModel em = testing::random_model(rng, 1 + static_cast<std::uint32_t>(rng.below(6)), 4, 4);
    const auto good = (model % 2 ? export_i16(em) : export_f32(em)).value();
    for (int trial = 0; trial < 400; ++trial) {
      auto b = good;
      const int edits = 1 + static_cast<int>(rng.below(4));
      for (int e = 0; e < edits; ++e) b[rng.below(b.size())] = static_cast<std::uint8_t>(rng.below(256));
      if (rng.below(8) == 0) b.resize(rng.below(b.size() + 1));
      auto m = PackedModel::from_bytes(b);
      if (!m) {
        ++refused;
        EXPECT_FALSE(m.status().message().empty());
        continue;
      }
      ++accepted;
      const std::size_t nf = std::max<std::size_t>(1, m->required_features());
      // The header's n_features (u16) may exceed the 15-bit feature range; still valid.
      std::vector<float> rows;
      for (int r = 0; r < 11; ++r) {
        auto x = testing::random_row(rng, static_cast<std::uint32_t>(nf));
        rows.insert(rows.end(), x.begin(), x.end());
      }
      std::vector<float> batch(11), portable(11);
      ASSERT_TRUE(m->predict_batch(rows, nf, batch).is_ok());
      ASSERT_TRUE(m->predict_batch_portable(rows, nf, portable).is_ok());
      for (int r = 0; r < 11; ++r) {
        const std::span<const float> x(rows.data() + r * nf, nf);
        const float ref = m->predict_ref(x);
        ASSERT_TRUE(same(ref, m->predict(x)));
        ASSERT_TRUE(same(ref, batch[r]));
        ASSERT_TRUE(same(ref, portable[r]));
      }
    }
  }
  EXPECT_GT(accepted, 100u);  // leaf values and thresholds mutate freely
  EXPECT_GT(refused, 100u);
}

}  // namespace
}  // namespace irithyll::packed
