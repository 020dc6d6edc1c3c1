// Fast paths against their references on random models and inputs: the view's
// literal walk (predict_ref) defines the result; the view's bounded walk, the
// compiled single path and every batch kernel (portable, AVX2, AVX-512, each
// called directly, not only through dispatch) must equal it exactly
// (tolerance: 0 ulp, since every path adds the same_bits f32 leaves in the same_bits
// order and compares the same_bits values). Inputs include NaN (goes left), +-inf,
// -0 and values equal to thresholds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "irithyll/packed/exporter.hpp"
#include "irithyll/packed/packed_model.hpp"
#include "packed_test_util.hpp"

namespace irithyll::packed {
namespace {

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); }

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
    ASSERT_TRUE(same_bits(m.predict(x), ref[r])) << "row " << r;
    ASSERT_TRUE(same_bits(m.predict_portable(x), ref[r])) << "portable single, row " << r;
    float v = 0;
    if (m.format() == PackedFormat::kF32)
      ASSERT_EQ(m.f32_view().predict(x.data(), x.size(), &v), FormatError::kOk);
    else
      ASSERT_EQ(m.i16_view().predict(x.data(), x.size(), &v), FormatError::kOk);
    ASSERT_TRUE(same_bits(v, ref[r])) << "view predict, row " << r;
  }
  ASSERT_TRUE(m.predict_batch(rows, stride, batch).is_ok());
  ASSERT_TRUE(m.predict_batch_portable(rows, stride, portable).is_ok());
  ASSERT_TRUE(m.predict_batch_ref(rows, stride, batch_ref).is_ok());
  for (std::size_t r = 0; r < n_rows; ++r) {
    ASSERT_TRUE(same_bits(batch[r], ref[r])) << m.batch_kernel() << " row " << r << " of " << n_rows;
    ASSERT_TRUE(same_bits(portable[r], ref[r])) << "portable row " << r;
    ASSERT_TRUE(same_bits(batch_ref[r], ref[r]));
  }
  for (BatchKernel k : {BatchKernel::kPortable, BatchKernel::kAvx2, BatchKernel::kAvx512}) {
    if (!m.batch_kernel_available(k)) continue;
    std::vector<float> got(n_rows, -12345.0f);
    ASSERT_TRUE(m.predict_batch_with(k, rows, stride, got).is_ok());
    for (std::size_t r = 0; r < n_rows; ++r)
      ASSERT_TRUE(same_bits(got[r], ref[r])) << batch_kernel_name(k) << " row " << r << " of " << n_rows << ": "
                                        << got[r] << " vs " << ref[r];
  }
}

bool cpu_has(const char* feature) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (std::string(feature) == "avx2") return __builtin_cpu_supports("avx2");
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vbmi");
#else
  (void)feature;
  return false;
#endif
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

TEST(PackedKernels, BatchRemaindersZeroToFortyOne) {
  Xorshift64 rng(99);
  const ExportModel em = testing::random_model(rng, 13, 5, 6);
  for (bool i16 : {false, true}) {
    auto m = PackedModel::from_bytes((i16 ? export_i16(em) : export_f32(em)).value());
    ASSERT_TRUE(m.is_ok());
    for (std::size_t n = 0; n <= 41; ++n) compare_paths(*m, rng, 5, n);
  }
}

// The AVX-512 kernel takes models of depth <= 6 reading <= 16 features: every
// depth and every blend-tree height (1, 2, 3-4, 5-8, 9-16 features), both
// formats, tree counts that are and are not multiples of its 4-tree groups.
TEST(PackedKernels, HeapEligibleModelsEveryDepthAndWidth) {
  std::size_t avx512_runs = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    Xorshift64 rng(seed * 7919);
    const auto depth = static_cast<std::uint32_t>(seed % 7);
    const std::uint32_t widths[] = {1, 2, 3, 4, 5, 8, 9, 16};
    const std::uint32_t nf = widths[seed % 8];
    const auto nt = static_cast<std::uint32_t>(1 + rng.below(11));
    const ExportModel em = testing::random_model(rng, nt, nf, depth);
    for (bool i16 : {false, true}) {
      auto m = PackedModel::from_bytes((i16 ? export_i16(em) : export_f32(em)).value());
      ASSERT_TRUE(m.is_ok()) << m.status().to_string();
      if (cpu_has("avx512")) {
        EXPECT_TRUE(m->batch_kernel_available(BatchKernel::kAvx512)) << "seed " << seed;
      }
      avx512_runs += m->batch_kernel_available(BatchKernel::kAvx512);
      compare_paths(*m, rng, nf, 16 * (1 + rng.below(4)) + rng.below(16));
    }
  }
  if (cpu_has("avx512")) {
    EXPECT_EQ(avx512_runs, 120u);
  }
}

// A model no kernel's fast table can take (too deep, too wide) is refused by
// the AVX-512 kernel with a status, and dispatch falls back to portable.
TEST(PackedKernels, IneligibleModelsDeclineAvx512) {
  Xorshift64 rng(4);
  auto deep = PackedModel::from_bytes(export_f32(testing::random_model(rng, 3, 4, 12)).value());
  ASSERT_TRUE(deep.is_ok());
  auto wide = PackedModel::from_bytes(export_f32(testing::random_model(rng, 3, 17, 3)).value());
  ASSERT_TRUE(wide.is_ok());
  for (const PackedModel* m : {&*deep, &*wide}) {
    if (m->info().max_depth <= 6 && m->required_features() <= 16) continue;  // random tree came out small
    EXPECT_FALSE(m->batch_kernel_available(BatchKernel::kAvx512));
    EXPECT_EQ(m->dispatched_kernel(), BatchKernel::kPortable);
    std::vector<float> rows(16 * m->required_features()), out(16);
    EXPECT_FALSE(m->predict_batch_with(BatchKernel::kAvx512, rows, m->required_features(), out).is_ok());
  }
}

// On this CI's CPU (AVX-512 F/BW/VBMI) dispatch must pick AVX-512 for an
// eligible model; the AVX2 gather kernel is never dispatched.
TEST(PackedKernels, DispatchPicksFastestAvailable) {
  Xorshift64 rng(8);
  auto m = PackedModel::from_bytes(export_f32(testing::random_model(rng, 10, 8, 6)).value());
  ASSERT_TRUE(m.is_ok());
  EXPECT_NE(m->dispatched_kernel(), BatchKernel::kAvx2);
  if (cpu_has("avx512")) {
    EXPECT_EQ(m->dispatched_kernel(), BatchKernel::kAvx512);
  }
  EXPECT_STREQ(m->batch_kernel(), batch_kernel_name(m->dispatched_kernel()));
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
