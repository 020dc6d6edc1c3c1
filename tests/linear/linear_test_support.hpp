// Shared helpers of the linear-area tests: build a learner by type from
// settings, and check that a checkpoint continues bit-identically.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "irithyll/core/config_fields.hpp"
#include "irithyll/learner.hpp"

namespace irithyll::test {

template <class T>
std::unique_ptr<T> build(const ModelSettings& settings, const LearnerContext& context) {
  typename T::Config config;
  const Status applied = apply_settings<typename T::Config>(T::kName, T::config_fields(), settings, config);
  EXPECT_TRUE(applied.is_ok()) << applied.to_string();
  auto made = T::make(config, context);
  EXPECT_TRUE(made.is_ok()) << made.status().to_string();
  return made.is_ok() ? std::move(made).value() : nullptr;
}

inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Learns `first`, checkpoints into a blank T, then both learn `second` and
// must predict bit-identically on every sample of it.
template <class T, class Stream>
void expect_resume_identical(T& model, const Stream& first, const Stream& second) {
  for (const auto& [x, y] : first) model.learn_one(x, y);
  ByteWriter out;
  model.encode(out);
  T copy;
  ByteReader in(out.data());
  const Status decoded = copy.decode(in);
  ASSERT_TRUE(decoded.is_ok()) << decoded.to_string();
  std::vector<double> pa(model.n_classes()), pb(model.n_classes());
  for (const auto& [x, y] : second) {
    ASSERT_TRUE(same_bits(model.predict_one(x), copy.predict_one(x)));
    if (!pa.empty()) {
      model.predict_proba_one(x, pa);
      copy.predict_proba_one(x, pb);
      for (std::size_t c = 0; c < pa.size(); ++c) ASSERT_TRUE(same_bits(pa[c], pb[c]));
    }
    model.learn_one(x, y);
    copy.learn_one(x, y);
  }
  // Hostile bytes: bytes of the record flipped in turn (about 600 positions
  // spread over it, so large records stay quick under sanitizers) decode to an error or to a model that still predicts
  // finite values; nothing crashes or over-allocates (ASan/UBSan in CI).
  std::vector<double> probe_proba(model.n_classes());
  const std::size_t stride = out.data().size() / 600 + 1;
  for (std::size_t i = 0; i < out.data().size(); i += stride) {
    for (const std::uint8_t mask : {std::uint8_t{0x01}, std::uint8_t{0x80}, std::uint8_t{0xff}}) {
      std::vector<std::uint8_t> bad = out.data();
      bad[i] ^= mask;
      T blank;
      ByteReader hostile(bad);
      if (blank.decode(hostile).is_ok() && !second.empty()) {
        const auto& x = second.front().first;
        (void)blank.predict_one(x);
        if (!probe_proba.empty()) blank.predict_proba_one(x, probe_proba);
        blank.learn_one(x, second.front().second);
      }
    }
  }
  // Truncated records are refused, never crash.
  for (std::size_t cut : {std::size_t{0}, std::size_t{1}, out.data().size() / 2, out.data().size() - 1}) {
    T blank;
    ByteReader part(std::span<const std::uint8_t>(out.data()).first(cut));
    EXPECT_FALSE(blank.decode(part).is_ok()) << "accepted a record cut at " << cut;
  }
}

}  // namespace irithyll::test
