// Learning-rate schedules: each formula at known steps, the exponential
// floor, plateau patience on the smoothed loss, every rate in [1e-8, 1], and
// the scheduler's state surviving encode/decode.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "irithyll/ensemble/lr_schedule.hpp"

namespace irithyll {
namespace {

LrScheduler make(LrSchedule kind, double lr0) {
  LrScheduleConfig c;
  c.kind = kind;
  c.lr_final = 0.01;
  c.decay_steps = 100;
  c.gamma = 0.5;
  c.factor = 0.5;
  c.patience = 3;
  c.lr_min = 0.02;
  return LrScheduler(c, lr0);
}

TEST(LrSchedule, Formulas) {
  auto constant = make(LrSchedule::kConstant, 0.1);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(constant.next(1.0), 0.1);

  auto linear = make(LrSchedule::kLinear, 0.1);
  EXPECT_DOUBLE_EQ(linear.next(0), 0.1);  // step 0
  for (int i = 1; i < 50; ++i) linear.next(0);
  EXPECT_NEAR(linear.next(0), 0.1 - 0.09 * 0.5, 1e-15);  // step 50
  for (int i = 51; i < 300; ++i) linear.next(0);
  EXPECT_NEAR(linear.current(), 0.01, 1e-15);  // held at lr_final past T

  auto expo = make(LrSchedule::kExponential, 0.1);
  EXPECT_DOUBLE_EQ(expo.next(0), 0.1);
  EXPECT_DOUBLE_EQ(expo.next(0), 0.05);
  for (int i = 0; i < 200; ++i) expo.next(0);
  EXPECT_EQ(expo.current(), 1e-8);  // floored

  auto cosine = make(LrSchedule::kCosine, 0.1);
  EXPECT_DOUBLE_EQ(cosine.next(0), 0.1);  // phase 0: the maximum
  for (int i = 1; i < 50; ++i) cosine.next(0);
  EXPECT_NEAR(cosine.next(0), 0.01 + 0.5 * 0.09 * (1 + std::cos(std::numbers::pi * 0.5)), 1e-15);
  for (int i = 51; i < 100; ++i) cosine.next(0);
  EXPECT_DOUBLE_EQ(cosine.next(0), 0.1);  // step 100: a new period
}

TEST(LrSchedule, PlateauWaitsForPatienceThenCutsToTheFloor) {
  auto p = make(LrSchedule::kPlateau, 0.1);
  p.next(5.0);  // first loss: the best
  // Losses that never beat the smoothed best: after patience (3) more
  // samples without improvement, the rate halves and the count restarts.
  EXPECT_EQ(p.next(9.0), 0.1);
  EXPECT_EQ(p.next(9.0), 0.1);
  EXPECT_EQ(p.next(9.0), 0.1);
  EXPECT_EQ(p.next(9.0), 0.05);
  for (int i = 0; i < 40; ++i) p.next(9.0);
  EXPECT_EQ(p.current(), 0.02);  // lr_min
  // An improving loss resets the count.
  auto q = make(LrSchedule::kPlateau, 0.1);
  for (double loss = 100.0; loss > 1.0; loss *= 0.9) EXPECT_EQ(q.next(loss), 0.1);
}

TEST(LrSchedule, RatesStayPositiveAndBounded) {
  for (LrSchedule k : {LrSchedule::kConstant, LrSchedule::kLinear, LrSchedule::kExponential, LrSchedule::kCosine,
                       LrSchedule::kPlateau}) {
    auto s = make(k, 1.0);
    for (int i = 0; i < 1000; ++i) {
      const double lr = s.next(i % 7 == 0 ? std::nan("") : static_cast<double>(i % 13));
      ASSERT_GE(lr, 1e-8);
      ASSERT_LE(lr, 1.0);
    }
  }
}

TEST(LrSchedule, StateRoundTrips) {
  auto a = make(LrSchedule::kPlateau, 0.1);
  for (int i = 0; i < 17; ++i) a.next(static_cast<double>(i % 5));
  ByteWriter w;
  a.encode(w);
  LrScheduler b;
  ByteReader r(w.data());
  ASSERT_TRUE(b.decode(r).is_ok());
  for (int i = 0; i < 30; ++i) EXPECT_EQ(a.next(i * 0.3), b.next(i * 0.3));
  auto bad = w.data();
  bad[0] = 9;  // unknown schedule
  ByteReader rb(bad);
  EXPECT_FALSE(b.decode(rb).is_ok());
  EXPECT_EQ(parse_lr_schedule("nope").status().message().find("schedule = 'nope'"), 0u);
}

}  // namespace
}  // namespace irithyll
