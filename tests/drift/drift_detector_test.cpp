// One harness for the DriftDetector interface, run over every detector
// (style.md #13): fresh clones, deep clones, encode/decode continuing
// identically, hostile bytes, non-finite input, reset.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "drift/drift_streams.hpp"

namespace irithyll {
namespace {

std::unique_ptr<DriftDetector> make(DriftKind kind) {
  auto made = make_drift_detector(default_drift_config(kind));
  EXPECT_TRUE(made.is_ok()) << made.status().to_string();
  return std::move(made).value();
}

// A stream that moves, so every detector builds non-trivial state (and ADWIN
// a multi-row histogram): values in [0, 1] that are >= 0.5 ("errors") at rate
// 0.2 then 0.6, spread uniformly within each half so that KSWIN's test sees
// no ties; every detector accepts them.
std::vector<double> feed(std::uint64_t seed, std::size_t n) {
  Xorshift64 rng(seed);
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double spread = 0.5 * rng.uniform();
    v[i] = rng.uniform() < (i < n / 2 ? 0.2 : 0.6) ? 0.5 + spread : spread;
  }
  return v;
}

std::vector<DriftSignal> run(DriftDetector& d, const std::vector<double>& values) {
  std::vector<DriftSignal> out;
  out.reserve(values.size());
  for (double v : values) out.push_back(d.update(v));
  return out;
}

int count(const std::vector<DriftSignal>& s, DriftSignal which) {
  int n = 0;
  for (auto x : s) n += x == which ? 1 : 0;
  return n;
}

class DriftDetectorHarness : public ::testing::TestWithParam<DriftKind> {};

TEST_P(DriftDetectorHarness, NameMatchesKind) {
  auto d = make(GetParam());
  EXPECT_EQ(d->name(), drift_kind_name(GetParam()));
  EXPECT_GT(d->memory_bytes(), 0u);
}

TEST_P(DriftDetectorHarness, SignalsOnTheTestStream) {
  // Guards the other tests here against being vacuous.
  auto d = make(GetParam());
  auto s = run(*d, feed(7, 4000));
  EXPECT_GE(count(s, DriftSignal::kDrift), 1);
}

TEST_P(DriftDetectorHarness, CloneFreshHasNoState) {
  auto d = make(GetParam());
  const auto head = feed(11, 3000);
  run(*d, head);
  auto fresh = d->clone_fresh();
  auto reference = make(GetParam());
  EXPECT_EQ(fresh->name(), d->name());
  EXPECT_EQ(fresh->estimated_mean(), 0.0);
  const auto tail = feed(12, 3000);
  EXPECT_EQ(run(*fresh, tail), run(*reference, tail));
}

TEST_P(DriftDetectorHarness, CloneKeepsState) {
  auto d = make(GetParam());
  run(*d, feed(21, 2500));
  auto copy = d->clone();
  EXPECT_EQ(copy->estimated_mean(), d->estimated_mean());
  const auto tail = feed(22, 3000);
  EXPECT_EQ(run(*copy, tail), run(*d, tail));
  EXPECT_EQ(copy->estimated_mean(), d->estimated_mean());
}

TEST_P(DriftDetectorHarness, ResetEqualsFresh) {
  auto d = make(GetParam());
  run(*d, feed(31, 2000));
  d->reset();
  auto reference = make(GetParam());
  const auto tail = feed(32, 3000);
  EXPECT_EQ(run(*d, tail), run(*reference, tail));
}

TEST_P(DriftDetectorHarness, EncodeDecodeContinuesIdentically) {
  for (std::size_t prefix : {0u, 1u, 37u, 2500u}) {
    auto d = make(GetParam());
    run(*d, feed(41, prefix));
    ByteWriter w;
    encode_drift_detector(*d, w);
    ByteReader r(w.data());
    auto decoded = decode_drift_detector(r);
    ASSERT_TRUE(decoded.is_ok()) << decoded.status().to_string();
    EXPECT_TRUE(r.at_end());
    auto restored = std::move(decoded).value();
    EXPECT_EQ(restored->name(), d->name());
    EXPECT_EQ(restored->estimated_mean(), d->estimated_mean());
    const auto tail = feed(42, 3000);
    EXPECT_EQ(run(*restored, tail), run(*d, tail)) << "prefix " << prefix;
    // Re-encoding the continued states gives the same bytes.
    ByteWriter a, b;
    restored->encode(a);
    d->encode(b);
    EXPECT_EQ(a.data(), b.data());
  }
}

TEST_P(DriftDetectorHarness, DecodeKeepsConfiguration) {
  DriftConfig c = default_drift_config(GetParam());
  c.delta = GetParam() == DriftKind::kAdwin ? 0.05 : 0.01;
  c.lambda = 20.0;
  c.warning_level = 1.5;
  c.drift_level = 2.5;
  c.min_instances = 50;
  auto d = std::move(make_drift_detector(c)).value();
  ByteWriter w;
  encode_drift_detector(*d, w);
  ByteReader r(w.data());
  auto restored = std::move(decode_drift_detector(r)).value();
  const auto stream = feed(51, 4000);
  EXPECT_EQ(run(*restored, stream), run(*d, stream));
}

TEST_P(DriftDetectorHarness, TruncatedBytesAreRejected) {
  auto d = make(GetParam());
  run(*d, feed(61, 3000));
  ByteWriter w;
  encode_drift_detector(*d, w);
  const auto& bytes = w.data();
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    ByteReader r(std::span<const std::uint8_t>(bytes.data(), cut));
    auto decoded = decode_drift_detector(r);
    EXPECT_FALSE(decoded.is_ok()) << "accepted " << cut << " of " << bytes.size() << " bytes";
  }
}

TEST_P(DriftDetectorHarness, FailedDecodeLeavesStateUntouched) {
  auto d = make(GetParam());
  run(*d, feed(71, 1500));
  auto before = d->clone();
  ByteWriter w;
  d->encode(w);
  std::vector<std::uint8_t> bytes = w.data();
  bytes.resize(bytes.size() - 1);
  ByteReader r(bytes);
  EXPECT_FALSE(d->decode(r).is_ok());
  const auto tail = feed(72, 2000);
  EXPECT_EQ(run(*d, tail), run(*before, tail));
}

TEST_P(DriftDetectorHarness, HostileBytesNeverCrash) {
  auto d = make(GetParam());
  run(*d, feed(81, 3000));
  ByteWriter w;
  encode_drift_detector(*d, w);
  Xorshift64 rng(99);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<std::uint8_t> bytes = w.data();
    const int flips = 1 + static_cast<int>(rng.below(4));
    for (int f = 0; f < flips; ++f) bytes[rng.below(bytes.size())] ^= static_cast<std::uint8_t>(1u + rng.below(255));
    ByteReader r(bytes);
    auto decoded = decode_drift_detector(r);
    if (!decoded.is_ok()) continue;
    // Whatever was accepted must be usable.
    for (int i = 0; i < 200; ++i) (*decoded)->update(rng.uniform());
    EXPECT_TRUE(std::isfinite((*decoded)->estimated_mean()));
  }
}

TEST_P(DriftDetectorHarness, NonFiniteInputIsIgnored) {
  auto d = make(GetParam());
  auto reference = make(GetParam());
  const auto values = feed(91, 3000);
  std::vector<DriftSignal> got, want;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i % 97 == 0) {
      EXPECT_EQ(d->update(std::numeric_limits<double>::quiet_NaN()), DriftSignal::kStable);
      EXPECT_EQ(d->update(std::numeric_limits<double>::infinity()), DriftSignal::kStable);
      EXPECT_EQ(d->update(-std::numeric_limits<double>::infinity()), DriftSignal::kStable);
    }
    got.push_back(d->update(values[i]));
    want.push_back(reference->update(values[i]));
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(d->estimated_mean(), reference->estimated_mean());
}

TEST_P(DriftDetectorHarness, EstimatedMeanTracksStationaryStream) {
  auto d = make(GetParam());
  Xorshift64 rng(5);
  for (int i = 0; i < 5000; ++i) d->update(rng.uniform() < 0.3 ? 1.0 : 0.0);
  // HDDM_W's estimate is an EWMA of weight 0.02: its sd is sqrt(0.21 * 0.02 / 1.98) = 0.046, and 0.2 is
  // 4.3 sd (false-failure rate 2e-5); the others average thousands of values (sd under 0.01).
  EXPECT_NEAR(d->estimated_mean(), 0.3, GetParam() == DriftKind::kHddmW ? 0.2 : 0.05);
}

INSTANTIATE_TEST_SUITE_P(AllDetectors, DriftDetectorHarness,
                         ::testing::Values(DriftKind::kPageHinkley, DriftKind::kAdwin, DriftKind::kDdm, DriftKind::kEddm,
                                           DriftKind::kHddmA, DriftKind::kHddmW, DriftKind::kKswin),
                         [](const ::testing::TestParamInfo<DriftKind>& param_info) {
                           return std::string(drift_kind_name(param_info.param));
                         });

}  // namespace
}  // namespace irithyll
