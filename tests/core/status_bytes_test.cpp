#include <gtest/gtest.h>

#include "irithyll/core/bytes.hpp"
#include "core/crc32.hpp"
#include "irithyll/core/rng.hpp"
#include "irithyll/core/status.hpp"

namespace irithyll {
namespace {

TEST(Status, OkAndErrorsCarryCodeAndMessage) {
  EXPECT_TRUE(Status::ok().is_ok());
  Status s = Status::corruption("bad node 3");
  EXPECT_FALSE(s.is_ok());
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_EQ(s.to_string(), "corruption: bad node 3");
  EXPECT_EQ(s.with_context("m.bin").message(), "m.bin: bad node 3");
}

TEST(Result, HoldsValueOrStatus) {
  Result<int> a = 5;
  ASSERT_TRUE(a.is_ok());
  EXPECT_EQ(*a, 5);
  Result<int> b = Status::invalid_argument("nope");
  EXPECT_FALSE(b.is_ok());
  EXPECT_EQ(b.status().message(), "nope");
}

TEST(Bytes, RoundTripLittleEndian) {
  ByteWriter w;
  w.u16(0x1234);
  w.u32(0xDEADBEEF);
  w.f64(-1.5);
  w.str("hello");
  w.f64s(std::vector<double>{1, 2, 3});
  const auto& d = w.data();
  EXPECT_EQ(d[0], 0x34);
  EXPECT_EQ(d[1], 0x12);
  EXPECT_EQ(d[2], 0xEF);
  ByteReader r(d);
  EXPECT_EQ(r.u16(), 0x1234);
  EXPECT_EQ(r.u32(), 0xDEADBEEFu);
  EXPECT_EQ(r.f64(), -1.5);
  EXPECT_EQ(r.str(), "hello");
  EXPECT_EQ(r.f64s(), (std::vector<double>{1, 2, 3}));
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.at_end());
}

TEST(Bytes, TruncationLatchesAnErrorNamingTheField) {
  const std::uint8_t raw[3] = {1, 2, 3};
  ByteReader r(raw);
  EXPECT_EQ(r.u16("first"), 0x0201);
  EXPECT_EQ(r.u32("n_nodes"), 0u);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("n_nodes"), std::string::npos);
  EXPECT_EQ(r.u8(), 0);  // later reads keep failing
}

TEST(Bytes, HostileCountIsRejectedBeforeAllocating) {
  ByteWriter w;
  w.u64(~0ull);  // claims 2^64-1 doubles
  ByteReader r(w.data());
  auto v = r.f64s("weights");
  EXPECT_TRUE(v.empty());
  EXPECT_FALSE(r.ok());
}

TEST(Crc32, MatchesTheStandardCheckValue) {
  const std::string s = "123456789";
  EXPECT_EQ(crc32(std::span(reinterpret_cast<const std::uint8_t*>(s.data()), s.size())), 0xCBF43926u);
}

TEST(Xorshift64, KnownSequenceAndRange) {
  Xorshift64 a(42), b(42);
  // Reference values computed independently with Python integers.
  EXPECT_EQ(a.next_u64(), 45454805674ull);
  EXPECT_EQ(a.next_u64(), 11532217803599905471ull);
  EXPECT_EQ(a.next_u64(), 10021416941527320954ull);
  for (int i = 0; i < 3; ++i) b.next_u64();
  EXPECT_EQ(a.state(), b.state());
  Xorshift64 c(7);
  for (int i = 0; i < 10000; ++i) {
    const double u = c.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
  Xorshift64 z(0);
  EXPECT_NE(z.next_u64(), 0u);
}

}  // namespace
}  // namespace irithyll
