// EDDM: the confirmation of its drift test, and its checkpoint record
// (version 2 carries the confirmation window; version 1 still decodes).
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <vector>

#include "irithyll/core/bytes.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/drift/eddm.hpp"
#include "support/encoded.hpp"

namespace irithyll {
namespace {

// Version byte, three parameters, three counts, three statistics, signal.
constexpr std::size_t kV1Bytes = 1 + 8 + 8 + 4 + 3 * 8 + 3 * 8 + 1;
// Version 2 then adds the confirmation's window length and z, the window's
// count and head, and its distances, oldest first.
constexpr std::size_t kWindowAt = kV1Bytes + 4 + 8;

// Errors spaced 5 and 15 values apart in turn (mean distance 10, so the
// statistics settle at once), `errors` of them; then one error every 2 values.
std::vector<double> alternating_then_dense(int errors, int dense_rows) {
  std::vector<double> v;
  for (int e = 0; e < errors; ++e) {
    v.insert(v.end(), e % 2 == 0 ? 4 : 14, 0.0);
    v.push_back(1.0);
  }
  for (int i = 0; i < dense_rows; ++i) v.push_back(i % 2 == 1 ? 1.0 : 0.0);
  return v;
}

using testing::encoded;

TEST(Eddm, DetectsAStepInDistancesOnce) {
  // 200 errors at distances 5 and 15 (p' = 10, s' = 5, p' + 2 s' = 20), then
  // one every 2 values. The mix first raises s', so the ratio test (p' + 2 s'
  // below 18) passes after about 120 dense errors, when the window, all 2s,
  // confirms at once (it needs a mean 4 s' / sqrt(50) = 0.57 s' below p').
  // After the restart the distances are constant: no second drift.
  Eddm d;
  const std::vector<double> v = alternating_then_dense(200, 800);
  const std::size_t change = v.size() - 800;
  std::vector<std::size_t> drifts;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (d.update(v[i]) == DriftSignal::kDrift) drifts.push_back(i);
  ASSERT_EQ(drifts.size(), 1u);
  ASSERT_GT(drifts[0], change);
  const std::size_t dense_errors = (drifts[0] - change + 1) / 2;
  EXPECT_GE(dense_errors, Eddm::kDefaultConfirmWindow);
  EXPECT_LE(dense_errors, 200u);
}

TEST(Eddm, UnconfirmedRatioDropIsAWarning) {
  // 30 errors at distances 1 and 39 in turn (p' = 20, s' = 19, so the maximum
  // p' + 2 s' is 58), then 40 at distance 20: s' shrinks to 12.4 and the
  // ratio to 0.77, a drift by the paper's rule, but the distances are no
  // shorter: the window's mean equals p' and nothing confirms it. Warning.
  Eddm d;
  std::vector<double> v;
  for (int e = 0; e < 30; ++e) {
    v.insert(v.end(), e % 2 == 0 ? 0 : 38, 0.0);
    v.push_back(1.0);
  }
  for (int e = 0; e < 40; ++e) {
    v.insert(v.end(), 19, 0.0);
    v.push_back(1.0);
  }
  DriftSignal last = DriftSignal::kStable;
  for (const double x : v) {
    last = d.update(x);
    ASSERT_NE(last, DriftSignal::kDrift);
  }
  EXPECT_EQ(last, DriftSignal::kWarning);
  EXPECT_EQ(d.errors(), 70u);
  EXPECT_DOUBLE_EQ(d.mean_distance(), 20.0);
  // Without the confirmation (window 0, the paper's rule) the same stream drifts.
  Eddm paper(0.95, 0.90, 30, 0);
  int drifts = 0;
  for (const double x : v) drifts += paper.update(x) == DriftSignal::kDrift;
  EXPECT_GE(drifts, 1);
}

TEST(Eddm, VersionOneRecordDecodesWithAnEmptyWindow) {
  Eddm d;
  Xorshift64 rng(3);
  for (int i = 0; i < 2000; ++i) d.update(rng.uniform() < 0.2 ? 1.0 : 0.0);
  std::vector<std::uint8_t> bytes = encoded(d);
  ASSERT_GT(bytes.size(), kV1Bytes);
  bytes.resize(kV1Bytes);
  bytes[0] = 1;
  Eddm restored;
  ByteReader r(bytes);
  ASSERT_TRUE(restored.decode(r).is_ok());
  EXPECT_TRUE(r.at_end());
  EXPECT_EQ(restored.errors(), d.errors());
  EXPECT_EQ(restored.mean_distance(), d.mean_distance());
  // Re-encoded as version 2 with the default confirmation and an empty
  // window (count 0, head 0): the same bytes as a fresh detector's tail.
  const std::vector<std::uint8_t> again = encoded(restored);
  const std::vector<std::uint8_t> fresh = encoded(Eddm());
  ASSERT_EQ(again.size(), kWindowAt + 8);
  EXPECT_EQ(again[0], 2);
  EXPECT_EQ(std::vector<std::uint8_t>(again.begin() + kV1Bytes, again.end()),
            std::vector<std::uint8_t>(fresh.begin() + kV1Bytes, fresh.end()));
  // It keeps working: a later step to rate 0.6 is detected.
  bool drifted = false;
  for (int i = 0; i < 2000 && !drifted; ++i) drifted = restored.update(rng.uniform() < 0.6 ? 1.0 : 0.0) == DriftSignal::kDrift;
  EXPECT_TRUE(drifted);
}

TEST(Eddm, HostileWindowIsRefused) {
  Eddm d;
  Xorshift64 rng(5);
  for (int i = 0; i < 2000; ++i) d.update(rng.uniform() < 0.2 ? 1.0 : 0.0);
  const std::vector<std::uint8_t> good = encoded(d);
  ASSERT_EQ(good.size(), kWindowAt + 8 + 8 * Eddm::kDefaultConfirmWindow);
  auto refused = [](std::vector<std::uint8_t> bytes) {
    Eddm e;
    ByteReader r(bytes);
    return !e.decode(r).is_ok();
  };
  auto with_u32 = [&good](std::size_t at, std::uint32_t x) {
    std::vector<std::uint8_t> b = good;
    std::memcpy(b.data() + at, &x, sizeof x);
    return b;
  };
  auto with_f64 = [&good](std::size_t at, double x) {
    std::vector<std::uint8_t> b = good;
    std::memcpy(b.data() + at, &x, sizeof x);
    return b;
  };
  EXPECT_FALSE(refused(good));
  EXPECT_TRUE(refused(with_u32(kV1Bytes, Eddm::kMaxConfirmWindow + 1))) << "confirm window";
  EXPECT_TRUE(refused(with_u32(kV1Bytes, Eddm::kDefaultConfirmWindow - 1))) << "window longer than its length";
  EXPECT_TRUE(refused(with_f64(kV1Bytes + 4, -1.0))) << "confirm z";
  EXPECT_TRUE(refused(with_f64(kV1Bytes + 4, std::numeric_limits<double>::infinity()))) << "confirm z";
  EXPECT_TRUE(refused(with_u32(kWindowAt, Eddm::kDefaultConfirmWindow + 1))) << "window count";
  EXPECT_TRUE(refused(with_u32(kWindowAt + 4, Eddm::kDefaultConfirmWindow))) << "window head";
  const std::size_t first = kWindowAt + 8;
  for (const double bad : {0.0, 0.5, -3.0, 1e300, std::numeric_limits<double>::quiet_NaN()})
    EXPECT_TRUE(refused(with_f64(first, bad))) << "distance " << bad;
  std::vector<std::uint8_t> v3 = good;
  v3[0] = 3;
  EXPECT_TRUE(refused(v3)) << "version";
}

}  // namespace
}  // namespace irithyll
