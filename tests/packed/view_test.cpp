// Validation of the packed views: the Rust library's error precedence, our
// structural checks, golden files written by the Rust library, routing rules.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/file_io.hpp"
#include "irithyll/packed/packed_model.hpp"
#include "irithyll/packed/view.hpp"
#include "packed_test_util.hpp"
#include "support/shared_data.hpp"

namespace irithyll::packed {
namespace {

using testing::build_f32;
using testing::build_i16;
using testing::leaf;
using testing::split;

FormatError parse_f32(const std::vector<std::uint8_t>& b, F32View* out = nullptr) {
  std::vector<std::uint16_t> scratch(70000);
  F32View v;
  const FormatError e = v.parse(b.data(), b.size(), scratch.data(), scratch.size());
  if (out) *out = v;
  return e;
}
FormatError parse_i16(const std::vector<std::uint8_t>& b) {
  std::vector<std::uint16_t> scratch(70000);
  I16View v;
  return v.parse(b.data(), b.size(), scratch.data(), scratch.size());
}

// A two-level tree: x0 > 1 ? (x1 > 2 ? 4 : 3) : 10 (BFS: 0; 1, 2; 3, 4).
std::vector<std::vector<testing::RawNode>> two_level() {
  return {{split(0, 1.0f, 1, 2), leaf(10.0f), split(1, 2.0f, 3, 4), leaf(3.0f), leaf(4.0f)}};
}

TEST(PackedFormat, ConstantsAndMagicBytes) {
  const std::uint8_t irit[4] = {'I', 'R', 'I', 'T'}, ir16[4] = {'I', 'R', '1', '6'};
  EXPECT_EQ(load_u32(irit), kMagicF32);
  EXPECT_EQ(load_u32(ir16), kMagicI16);
  EXPECT_EQ(kMagicI16, 0x36315249u);
  EXPECT_EQ(kNodeBytesF32, 12u);
  EXPECT_EQ(kNodeBytesI16, 8u);
  EXPECT_EQ(kLeafFlag, 0x8000);
  EXPECT_EQ(kFeatureMask, 0x7FFF);
  EXPECT_EQ(64 / kNodeBytesF32, 5u);
  EXPECT_EQ(64 / kNodeBytesI16, 8u);
}

TEST(PackedFormat, SaturatingTruncMatchesRustAsI16) {
  EXPECT_EQ(saturating_trunc_i16(1.9f), 1);
  EXPECT_EQ(saturating_trunc_i16(-1.9f), -1);
  EXPECT_EQ(saturating_trunc_i16(32766.99f), 32766);
  EXPECT_EQ(saturating_trunc_i16(32767.0f), 32767);
  EXPECT_EQ(saturating_trunc_i16(1e9f), 32767);
  EXPECT_EQ(saturating_trunc_i16(-32768.9f), -32768);
  EXPECT_EQ(saturating_trunc_i16(-1e30f), -32768);
  EXPECT_EQ(saturating_trunc_i16(INFINITY), 32767);
  EXPECT_EQ(saturating_trunc_i16(-INFINITY), -32768);
  EXPECT_EQ(saturating_trunc_i16(std::nanf("")), 0);
  EXPECT_EQ(saturating_trunc_i16(-0.5f), 0);
}

TEST(PackedFormat, FeatureKeyPreservesGreaterThan) {
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-45f, -1e-45f, 3.4e38f, -3.4e38f, INFINITY, -INFINITY,
                            std::nanf(""), -std::nanf(""), 0.1f, -0.1f};
  Xorshift64 rng(7);
  std::vector<float> vals(std::begin(specials), std::end(specials));
  for (int i = 0; i < 200; ++i) vals.push_back(static_cast<float>(rng.normal() * 100.0));
  for (float a : vals)
    for (float t : vals) ASSERT_EQ(a > t, feature_key(a) > threshold_key(t)) << a << " > " << t;
}

TEST(PackedView, TwoLevelRoutingEqualityAndNanGoLeft) {
  auto b = build_f32(two_level(), 2, 0.5f);
  F32View v;
  ASSERT_EQ(parse_f32(b, &v), FormatError::kOk);
  EXPECT_EQ(v.info().max_depth, 2u);
  struct Case { float x0, x1, want; } cases[] = {
      {0.0f, 0.0f, 10.5f}, {1.0f, 9.0f, 10.5f} /* equality left */, {std::nanf(""), 9.0f, 10.5f},
      {1.5f, 2.0f, 3.5f}, {1.5f, 2.5f, 4.5f}, {1.5f, std::nanf(""), 3.5f}, {INFINITY, INFINITY, 4.5f}};
  for (const auto& c : cases) {
    const float x[2] = {c.x0, c.x1};
    float r = 0, p = 0;
    ASSERT_EQ(v.predict_ref(x, 2, &r), FormatError::kOk);
    ASSERT_EQ(v.predict(x, 2, &p), FormatError::kOk);
    EXPECT_EQ(r, c.want);
    EXPECT_EQ(p, c.want);
  }
  float out = 0;
  const float x1[1] = {5.0f};
  EXPECT_EQ(v.predict(x1, 1, &out), FormatError::kTooFewFeatures);
  EXPECT_EQ(v.predict_ref(x1, 1, &out), FormatError::kTooFewFeatures);
}

TEST(PackedView, LeafOnlyTreeNeedsNoFeatures) {
  auto b = build_f32({{leaf(1.5f)}, {leaf(2.0f)}}, 0, 1.0f);
  F32View v;
  ASSERT_EQ(parse_f32(b, &v), FormatError::kOk);
  EXPECT_EQ(v.info().required_features, 0u);
  float out = 0;
  EXPECT_EQ(v.predict(nullptr, 0, &out), FormatError::kOk);
  EXPECT_EQ(out, 4.5f);
}

TEST(PackedView, ErrorPrecedenceOfTheOriginal) {
  const auto good = build_f32(two_level(), 2, 0.0f);
  ASSERT_EQ(parse_f32(good), FormatError::kOk);
  // 1. shorter than a header
  EXPECT_EQ(parse_f32(std::vector<std::uint8_t>(good.begin(), good.begin() + 15)), FormatError::kTruncated);
  // 3. magic, then version (a bad magic wins over a bad version)
  auto b = good;
  b[0] = 'X';
  b[4] = 9;
  EXPECT_EQ(parse_f32(b), FormatError::kBadMagic);
  b = good;
  b[4] = 2;
  EXPECT_EQ(parse_f32(b), FormatError::kUnsupportedVersion);
  // 4. table cut
  EXPECT_EQ(parse_f32(std::vector<std::uint8_t>(good.begin(), good.begin() + 20)), FormatError::kTruncated);
  // 5. node area cut
  EXPECT_EQ(parse_f32(std::vector<std::uint8_t>(good.begin(), good.end() - 1)), FormatError::kTruncated);
  // 5. node-count sum overflows u32
  auto two = build_f32({{leaf(1.0f)}, {leaf(1.0f)}}, 0, 0.0f);
  two[16] = two[17] = two[18] = two[19] = 0xFF;
  EXPECT_EQ(parse_f32(two), FormatError::kTruncated);
  // 6. offset not a multiple of 12, then offset past the area
  b = good;
  b[20] = 4;
  EXPECT_EQ(parse_f32(b), FormatError::kMisalignedTreeOffset);
  b = good;
  b[20] = 12;
  EXPECT_EQ(parse_f32(b), FormatError::kTruncated);
  // 7. child out of range before feature out of range
  auto bad = two_level();
  bad[0][2] = split(5, 2.0f, 3, 9);
  EXPECT_EQ(parse_f32(build_f32(bad, 2, 0.0f)), FormatError::kInvalidNodeIndex);
  bad[0][2] = split(5, 2.0f, 3, 4);
  EXPECT_EQ(parse_f32(build_f32(bad, 2, 0.0f)), FormatError::kInvalidFeatureIndex);
  // n_features = 0 turns the feature check off and requires max feature + 1
  F32View v;
  ASSERT_EQ(parse_f32(build_f32(bad, 0, 0.0f), &v), FormatError::kOk);
  EXPECT_EQ(v.info().required_features, 6u);
}

TEST(PackedView, UnalignedBufferAndTrailingBytesAccepted) {
  const auto good = build_f32(two_level(), 2, 0.25f);
  std::vector<std::uint8_t> shifted(good.size() + 1 + 7, 0xAB);
  std::memcpy(shifted.data() + 1, good.data(), good.size());
  std::vector<std::uint16_t> scratch(16);
  F32View v;
  // Unaligned start (the Rust library says Unaligned; we read with memcpy) plus 7 trailing bytes.
  ASSERT_EQ(v.parse(shifted.data() + 1, shifted.size() - 1, scratch.data(), scratch.size()), FormatError::kOk);
  const float x[2] = {2.0f, 3.0f};
  float out = 0;
  ASSERT_EQ(v.predict(x, 2, &out), FormatError::kOk);
  EXPECT_EQ(out, 4.25f);
}

TEST(PackedView, StructureChecksRejectCyclesSharingAndOrphans) {
  // Self-loop: node 0's left is itself (the Rust library accepts this and hangs).
  EXPECT_EQ(parse_f32(build_f32({{split(0, 1.0f, 0, 1), leaf(1.0f)}}, 1, 0.0f)), FormatError::kNotATree);
  // Back edge: 0 -> 1 -> 0.
  EXPECT_EQ(parse_f32(build_f32({{split(0, 1.0f, 1, 2), split(0, 2.0f, 0, 2), leaf(1.0f)}}, 1, 0.0f)),
            FormatError::kNotATree);
  // Node 2 reachable twice (a DAG).
  EXPECT_EQ(parse_f32(build_f32({{split(0, 1.0f, 1, 2), split(0, 2.0f, 2, 3), leaf(1.0f), leaf(2.0f)}}, 1, 0.0f)),
            FormatError::kNotATree);
  // Both children the same node.
  EXPECT_EQ(parse_f32(build_f32({{split(0, 1.0f, 1, 1), leaf(1.0f)}}, 1, 0.0f)), FormatError::kNotATree);
  // Orphan node 3.
  EXPECT_EQ(parse_f32(build_f32({{split(0, 1.0f, 1, 2), leaf(1.0f), leaf(2.0f), leaf(3.0f)}}, 1, 0.0f)),
            FormatError::kNotATree);
  // An empty tree has no root.
  EXPECT_EQ(parse_f32(build_f32({{}}, 1, 0.0f)), FormatError::kNotATree);
  // Depth-first (pre-order) storage is also a valid tree and is accepted.
  EXPECT_EQ(parse_f32(build_f32({{split(0, 1.0f, 1, 4), split(0, 0.0f, 2, 3), leaf(1.0f), leaf(2.0f), leaf(3.0f)}},
                                1, 0.0f)),
            FormatError::kOk);
  // The Rust library's checks come first: an out-of-range child in a cyclic file.
  EXPECT_EQ(parse_f32(build_f32({{split(0, 1.0f, 0, 7), leaf(1.0f)}}, 1, 0.0f)), FormatError::kInvalidNodeIndex);
}

TEST(PackedView, ScratchSizeIsChecked) {
  const auto good = build_f32(two_level(), 2, 0.0f);
  EXPECT_EQ(largest_tree_f32(good.data(), good.size()), 5u);
  std::vector<std::uint16_t> scratch(4);
  F32View v;
  EXPECT_EQ(v.parse(good.data(), good.size(), scratch.data(), scratch.size()), FormatError::kScratchTooSmall);
  EXPECT_FALSE(v.valid());
}

TEST(PackedViewI16, LayoutErrorsAndScales) {
  const std::vector<float> scales = {10.0f, 100.0f};
  const auto nodes = std::vector<std::vector<testing::RawNode>>{
      {split(0, 10.0f, 1, 2), leaf(100.0f), split(1, 200.0f, 3, 4), leaf(-50.0f), leaf(25.0f)}};
  const auto good = build_i16(nodes, scales, 100.0f, 1.0f);
  ASSERT_EQ(parse_i16(good), FormatError::kOk);
  // Table offsets must be multiples of 8 (node bytes of this format).
  auto b = good;
  const std::size_t table = 16 + 4 + 4 * 2;
  b[table + 4] = 4;
  EXPECT_EQ(parse_i16(b), FormatError::kMisalignedTreeOffset);
  // Truncation inside the scales.
  EXPECT_EQ(parse_i16(std::vector<std::uint8_t>(good.begin(), good.begin() + 22)), FormatError::kTruncated);
  // A zero scale (ours).
  b = good;
  std::memset(b.data() + 16, 0, 4);
  EXPECT_EQ(parse_i16(b), FormatError::kBadScale);
  // Magic of the other format.
  EXPECT_EQ(parse_i16(build_f32(two_level(), 2, 0.0f)), FormatError::kBadMagic);

  std::vector<std::uint16_t> scratch(8);
  I16View v;
  ASSERT_EQ(v.parse(good.data(), good.size(), scratch.data(), scratch.size()), FormatError::kOk);
  // x0 = 1.0 -> q 10, not > 10: left, leaf 100 -> 1 + 100/100 = 2.
  // x0 = 1.1 -> q 11 > 10; x1 = 2.0 -> q 200, not > 200: leaf -50 -> 0.5.
  // x1 = 2.01 -> q 201: leaf 25 -> 1.25. NaN -> q 0.
  struct Case { float x0, x1, want; } cases[] = {
      {1.0f, 0.0f, 2.0f}, {1.1f, 2.0f, 0.5f}, {1.1f, 2.01f, 1.25f}, {1e9f, std::nanf(""), 0.5f}, {std::nanf(""), 5.0f, 2.0f}};
  for (const auto& c : cases) {
    const float x[2] = {c.x0, c.x1};
    float r = 0, p = 0;
    ASSERT_EQ(v.predict_ref(x, 2, &r), FormatError::kOk);
    ASSERT_EQ(v.predict(x, 2, &p), FormatError::kOk);
    EXPECT_EQ(r, c.want);
    EXPECT_EQ(p, c.want);
    std::int16_t q[2];
    v.quantize(x, 2, q);
    std::int32_t sum = 0;
    ASSERT_EQ(v.predict_prequantized(q, 2, &sum), FormatError::kOk);
    EXPECT_EQ(v.dequantize(sum), c.want);
  }
}

TEST(PackedInterop, BenchModelGoldenF32) {
  IRITHYLL_REQUIRE_SHARED("interop/bench_model_50t.bin");
  auto bytes = read_file_bytes(irithyll::testing::shared_path("interop/bench_model_50t.bin"));
  ASSERT_TRUE(bytes.is_ok());
  ASSERT_EQ(bytes->size(), 1016u);
  F32View v;
  ASSERT_EQ(parse_f32(*bytes, &v), FormatError::kOk);
  EXPECT_EQ(v.info().n_trees, 50);
  EXPECT_EQ(v.info().n_features, 10);
  EXPECT_NEAR(v.info().base_prediction, -1.3534015f, 1e-6f);
  EXPECT_EQ(v.info().max_depth, 0u);
  float expect = v.info().base_prediction;
  for (std::uint32_t t = 0; t < 50; ++t) {
    EXPECT_EQ(v.tree_nodes(t), 1u);
    expect += load_f32(v.node(t, 0));
  }
  const float x[10] = {};
  float out = 0;
  ASSERT_EQ(v.predict(x, 10, &out), FormatError::kOk);
  EXPECT_EQ(out, expect);  // base + leaves in tree order, f32, bit-exact
  EXPECT_EQ(v.predict(x, 9, &out), FormatError::kTooFewFeatures);
}

TEST(PackedInterop, BenchModelGoldenI16) {
  IRITHYLL_REQUIRE_SHARED("interop/bench_model_50t_i16.bin");
  auto bytes = read_file_bytes(irithyll::testing::shared_path("interop/bench_model_50t_i16.bin"));
  ASSERT_TRUE(bytes.is_ok());
  ASSERT_EQ(bytes->size(), 860u);
  std::vector<std::uint16_t> scratch(4);
  I16View v;
  ASSERT_EQ(v.parse(bytes->data(), bytes->size(), scratch.data(), scratch.size()), FormatError::kOk);
  EXPECT_EQ(v.info().n_trees, 50);
  EXPECT_NEAR(v.leaf_scale(), 286505.66f, 0.05f);
  for (std::uint32_t f = 0; f < 10; ++f) EXPECT_EQ(v.feature_scale(f), 1.0f);
  EXPECT_EQ(load_i16(v.node(0, 0)), -32767);
  std::int32_t sum = 0;
  for (std::uint32_t t = 0; t < 50; ++t) sum += load_i16(v.node(t, 0));
  const float x[10] = {};
  float out = 0;
  ASSERT_EQ(v.predict(x, 10, &out), FormatError::kOk);
  EXPECT_EQ(out, v.info().base_prediction + static_cast<float>(sum) / v.leaf_scale());
}

}  // namespace
}  // namespace irithyll::packed
