// make_drift_detector validation, the kind name table, and the named decoder.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "irithyll/drift/drift_detector.hpp"
#include "irithyll/drift/eddm.hpp"

namespace irithyll {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool accepted(DriftConfig c) { return make_drift_detector(c).is_ok(); }

TEST(DriftFactory, DefaultsBuildEveryKind) {
  for (DriftKind k : {DriftKind::kPageHinkley, DriftKind::kAdwin, DriftKind::kDdm, DriftKind::kEddm, DriftKind::kHddmA,
                      DriftKind::kHddmW, DriftKind::kKswin}) {
    auto d = make_drift_detector(default_drift_config(k));
    ASSERT_TRUE(d.is_ok()) << d.status().to_string();
    ASSERT_NE(d->get(), nullptr);
    EXPECT_EQ((*d)->name(), drift_kind_name(k));
  }
  // The plain DriftConfig default is Page-Hinkley(0.005, 50).
  auto d = make_drift_detector(DriftConfig{});
  ASSERT_TRUE(d.is_ok());
  EXPECT_EQ((*d)->name(), "pht");
}

TEST(DriftFactory, NoneYieldsNull) {
  auto d = make_drift_detector(default_drift_config(DriftKind::kNone));
  ASSERT_TRUE(d.is_ok());
  EXPECT_EQ(d->get(), nullptr);
}

TEST(DriftFactory, AdwinDefaultDelta) {
  EXPECT_EQ(default_drift_config(DriftKind::kAdwin).delta, 0.002);
  EXPECT_EQ(default_drift_config(DriftKind::kPageHinkley).delta, 0.005);
}

TEST(DriftFactory, PageHinkleyValidation) {
  DriftConfig c = default_drift_config(DriftKind::kPageHinkley);
  for (double bad : {0.0, -1.0, kNaN, kInf}) {
    DriftConfig d = c;
    d.delta = bad;
    EXPECT_FALSE(accepted(d)) << "delta " << bad;
    d = c;
    d.lambda = bad;
    EXPECT_FALSE(accepted(d)) << "lambda " << bad;
  }
  c.delta = 1e-9;
  c.lambda = 1e-9;
  EXPECT_TRUE(accepted(c));
}

TEST(DriftFactory, AdwinValidation) {
  DriftConfig c = default_drift_config(DriftKind::kAdwin);
  for (double bad : {0.0, 1.0, -0.1, 1.5, kNaN, kInf}) {
    c.delta = bad;
    EXPECT_FALSE(accepted(c)) << "delta " << bad;
  }
  for (double good : {1e-12, 0.5, 0.999}) {
    c.delta = good;
    EXPECT_TRUE(accepted(c)) << "delta " << good;
  }
}

TEST(DriftFactory, DdmValidation) {
  const DriftConfig c = default_drift_config(DriftKind::kDdm);
  DriftConfig d = c;
  d.warning_level = 0.0;
  EXPECT_FALSE(accepted(d));
  d.warning_level = kNaN;
  EXPECT_FALSE(accepted(d));
  d = c;
  d.drift_level = c.warning_level;  // must be strictly above
  EXPECT_FALSE(accepted(d));
  d.drift_level = kInf;
  EXPECT_FALSE(accepted(d));
  d = c;
  d.min_instances = 0;
  EXPECT_FALSE(accepted(d));
  d.min_instances = 1;
  EXPECT_TRUE(accepted(d));
}

TEST(DriftFactory, UnknownKindRejected) {
  DriftConfig c;
  c.kind = static_cast<DriftKind>(99);
  EXPECT_FALSE(accepted(c));
}

TEST(DriftFactory, ParseKindNames) {
  EXPECT_EQ(*parse_drift_kind("adwin"), DriftKind::kAdwin);
  EXPECT_EQ(*parse_drift_kind("pht"), DriftKind::kPageHinkley);
  EXPECT_EQ(*parse_drift_kind("page-hinkley"), DriftKind::kPageHinkley);
  EXPECT_EQ(*parse_drift_kind("page_hinkley"), DriftKind::kPageHinkley);
  EXPECT_EQ(*parse_drift_kind("ddm"), DriftKind::kDdm);
  EXPECT_EQ(*parse_drift_kind("none"), DriftKind::kNone);
  EXPECT_EQ(*parse_drift_kind("eddm"), DriftKind::kEddm);
  EXPECT_EQ(*parse_drift_kind("hddm_a"), DriftKind::kHddmA);
  EXPECT_EQ(*parse_drift_kind("hddm-w"), DriftKind::kHddmW);
  EXPECT_EQ(*parse_drift_kind("kswin"), DriftKind::kKswin);
  EXPECT_FALSE(parse_drift_kind("").is_ok());
  EXPECT_FALSE(parse_drift_kind("ADWIN2").is_ok());
  for (DriftKind k : {DriftKind::kNone, DriftKind::kPageHinkley, DriftKind::kAdwin, DriftKind::kDdm, DriftKind::kEddm,
                      DriftKind::kHddmA, DriftKind::kHddmW, DriftKind::kKswin})
    EXPECT_EQ(*parse_drift_kind(drift_kind_name(k)), k);
}

TEST(DriftFactory, DecodeRejectsUnknownName) {
  for (const char* name : {"none", "adwin3", ""}) {
    ByteWriter w;
    w.str(name);
    w.u8(1);
    ByteReader r(w.data());
    EXPECT_FALSE(decode_drift_detector(r).is_ok()) << name;
  }
}

}  // namespace
}  // namespace irithyll

namespace irithyll {
namespace {

TEST(DriftFactory, NewKindsValidateTheirParameters) {
  DriftConfig c = default_drift_config(DriftKind::kEddm);
  c.eddm_drift = 0.96;  // above the warning ratio
  EXPECT_FALSE(accepted(c));
  c = default_drift_config(DriftKind::kEddm);
  c.eddm_confirm_window = Eddm::kMaxConfirmWindow + 1;
  EXPECT_FALSE(accepted(c));
  c.eddm_confirm_window = 0;  // the paper's rule
  EXPECT_TRUE(accepted(c));
  for (const double z : {-1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    c.eddm_confirm_z = z;
    EXPECT_FALSE(accepted(c)) << z;
  }
  c = default_drift_config(DriftKind::kHddmA);
  c.drift_confidence = 0.01;  // above the warning confidence
  EXPECT_FALSE(accepted(c));
  c = default_drift_config(DriftKind::kHddmW);
  c.ewma_lambda = 1.0;
  EXPECT_FALSE(accepted(c));
  c = default_drift_config(DriftKind::kKswin);
  c.stat_size = c.window_size / 2 + 1;  // 2 stat_size > window_size
  EXPECT_FALSE(accepted(c));
  c = default_drift_config(DriftKind::kKswin);
  c.alpha = std::nan("");
  EXPECT_FALSE(accepted(c));
}

}  // namespace
}  // namespace irithyll
