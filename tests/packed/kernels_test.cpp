// Fast paths against their references on random models and inputs: the view's
// literal walk (predict_ref) defines the result; the view's bounded walk, the
// compiled single path, the portable batch and the AVX2 batch must equal it
// exactly (tolerance: 0 ulp, since every path adds the same f32 leaves in the
// same order and compares the same values).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "irithyll/packed/exporter.hpp"
#include "irithyll/packed/packed_model.hpp"
#include "packed_test_util.hpp"

namespace irithyll::packed {
namespace {

bool same(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); }

void compare_paths(const PackedModel& m, Xorshift64& rng, std::uint32_t nf, std::size_t n_rows) {
  const std::size_t stride = std::max<std::uint32_t>(nf, 1);
  std::vector<float> rows;
  for (std::size_t r = 0; r < n_rows; ++r) {
    auto x = testing::random_row(rng, static_cast<std::uint32_t>(stride));
    rows.insert(rows.end(), x.begin(), x.end());
  }
  std::vector<float> ref(n_rows), batch(n_rows), portable(n_rows), batch_ref(n_rows);
  for (std::size_t r = 0; r < n_rows; ++r) {
    const std::span<const float> x(rows.data() + r * stride, stride);
    ref[r] = m.predict_ref(x);
    ASSERT_TRUE(same(m.predict(x), ref[r])) << "row " << r;
    float v = 0;
    if (m.format() == PackedFormat::kF32)
      ASSERT_EQ(m.f32_view().predict(x.data(), x.size(), &v), FormatError::kOk);
    else
      ASSERT_EQ(m.i16_view().predict(x.data(), x.size(), &v), FormatError::kOk);
    ASSERT_TRUE(same(v, ref[r])) << "view predict, row " << r;
  }
  ASSERT_TRUE(m.predict_batch(rows, stride, batch).is_ok());
  ASSERT_TRUE(m.predict_batch_portable(rows, stride, portable).is_ok());
  ASSERT_TRUE(m.predict_batch_ref(rows, stride, batch_ref).is_ok());
  for (std::size_t r = 0; r < n_rows; ++r) {
    ASSERT_TRUE(same(batch[r], ref[r])) << m.batch_kernel() << " row " << r << " of " << n_rows;
    ASSERT_TRUE(same(portable[r], ref[r])) << "portable row " << r;
    ASSERT_TRUE(same(batch_ref[r], ref[r]));
  }
}

TEST(PackedKernels, RandomModelsAllPathsAgree) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Xorshift64 rng(seed);
    const auto nf = static_cast<std::uint32_t>(1 + rng.below(12));
    const auto nt = static_cast<std::uint32_t>(rng.below(20));
    const auto depth = static_cast<std::uint32_t>(rng.below(9));
    const ExportModel em = testing::random_model(rng, nt, nf, depth);
    for (bool i16 : {false, true}) {
      auto bytes = i16 ? export_i16(em) : export_f32(em);
      ASSERT_TRUE(bytes.is_ok()) << bytes.status().to_string();
      auto m = PackedModel::from_bytes(std::move(bytes.value()));
      ASSERT_TRUE(m.is_ok()) << m.status().to_string();
      compare_paths(*m, rng, nf, static_cast<std::size_t>(rng.below(70)));
    }
  }
}

TEST(PackedKernels, BatchRemaindersZeroToSeventeen) {
  Xorshift64 rng(99);
  const ExportModel em = testing::random_model(rng, 13, 5, 6);
  auto m = PackedModel::from_bytes(export_f32(em).value());
  ASSERT_TRUE(m.is_ok());
  for (std::size_t n = 0; n <= 17; ++n) compare_paths(*m, rng, 5, n);
}

TEST(PackedKernels, DeepTreesAndManyFeatures) {
  Xorshift64 rng(5);
  const ExportModel em = testing::random_model(rng, 9, 300, 16);
  for (bool i16 : {false, true}) {
    auto m = PackedModel::from_bytes((i16 ? export_i16(em) : export_f32(em)).value());
    ASSERT_TRUE(m.is_ok());
    compare_paths(*m, rng, 300, 37);
  }
}

TEST(PackedKernels, BatchRefusesBadShapes) {
  Xorshift64 rng(3);
  auto m = PackedModel::from_bytes(export_f32(testing::random_model(rng, 4, 6, 4)).value());
  ASSERT_TRUE(m.is_ok());
  std::vector<float> rows(6 * 3), out(3);
  EXPECT_TRUE(m->predict_batch(rows, 6, out).is_ok());
  EXPECT_FALSE(m->predict_batch(rows, 5, out).is_ok());   // stride below the model's features
  std::vector<float> out4(4);
  EXPECT_FALSE(m->predict_batch(rows, 6, out4).is_ok());  // rows do not match out
  EXPECT_TRUE(std::isnan(m->predict(std::span<const float>(rows.data(), 5))));
}

}  // namespace
}  // namespace irithyll::packed
