// Little-endian byte encoding for checkpoints and model files.
//
// ByteWriter appends fixed-width little-endian values to a growable buffer.
// ByteReader walks a borrowed span and never reads past its end: the first
// failed read latches an error ("truncated at byte 120 reading 'n_nodes'") and
// every later read returns zero, so decoders can read a whole record and check
// status() once. Readers never trust counts from the bytes: use read_count()
// to bound a length by what is actually left in the buffer.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "irithyll/core/status.hpp"

namespace irithyll {

class ByteWriter {
 public:
  void u8(std::uint8_t v) { buf_.push_back(v); }
  void u16(std::uint16_t v) { put(v); }
  void u32(std::uint32_t v) { put(v); }
  void u64(std::uint64_t v) { put(v); }
  void i64(std::int64_t v) { put(static_cast<std::uint64_t>(v)); }
  void f32(float v) { put(std::bit_cast<std::uint32_t>(v)); }
  void f64(double v) { put(std::bit_cast<std::uint64_t>(v)); }
  void boolean(bool v) { u8(v ? 1 : 0); }
  void str(std::string_view s) {
    u64(s.size());
    buf_.insert(buf_.end(), s.begin(), s.end());
  }
  void bytes(std::span<const std::uint8_t> b) { buf_.insert(buf_.end(), b.begin(), b.end()); }
  void f64s(std::span<const double> v) {
    u64(v.size());
    for (double x : v) f64(x);
  }
  void u64s(std::span<const std::uint64_t> v) {
    u64(v.size());
    for (std::uint64_t x : v) u64(x);
  }

  const std::vector<std::uint8_t>& data() const { return buf_; }
  std::vector<std::uint8_t> take() { return std::move(buf_); }
  std::size_t size() const { return buf_.size(); }

 private:
  template <class U>
  void put(U v) {
    static_assert(std::is_unsigned_v<U>);
    for (std::size_t i = 0; i < sizeof(U); ++i) buf_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  std::vector<std::uint8_t> buf_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  std::uint8_t u8(const char* what = "u8") { return get<std::uint8_t>(what); }
  std::uint16_t u16(const char* what = "u16") { return get<std::uint16_t>(what); }
  std::uint32_t u32(const char* what = "u32") { return get<std::uint32_t>(what); }
  std::uint64_t u64(const char* what = "u64") { return get<std::uint64_t>(what); }
  std::int64_t i64(const char* what = "i64") { return static_cast<std::int64_t>(get<std::uint64_t>(what)); }
  float f32(const char* what = "f32") { return std::bit_cast<float>(get<std::uint32_t>(what)); }
  double f64(const char* what = "f64") { return std::bit_cast<double>(get<std::uint64_t>(what)); }
  bool boolean(const char* what = "bool");
  std::string str(const char* what = "string");
  // Reads a u64 element count and checks that count * min_elem_bytes bytes remain.
  std::size_t read_count(std::size_t min_elem_bytes, const char* what);
  std::vector<double> f64s(const char* what = "f64 array");
  std::vector<std::uint64_t> u64s(const char* what = "u64 array");
  std::span<const std::uint8_t> bytes(std::size_t n, const char* what = "bytes");

  // Latches an error from a decoder-level check (bad enum value, bad size...).
  void fail(std::string message);
  // Fails unless cond; returns cond.
  bool expect(bool cond, const char* what);

  const Status& status() const { return status_; }
  bool ok() const { return status_.is_ok(); }
  std::size_t position() const { return pos_; }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  bool at_end() const { return pos_ == bytes_.size(); }

 private:
  template <class U>
  U get(const char* what) {
    if (!ok()) return U{};
    if (remaining() < sizeof(U)) {
      truncated(what, sizeof(U));
      return U{};
    }
    U v = 0;
    for (std::size_t i = 0; i < sizeof(U); ++i) v |= static_cast<U>(static_cast<U>(bytes_[pos_ + i]) << (8 * i));
    pos_ += sizeof(U);
    return v;
  }
  void truncated(const char* what, std::size_t need);

  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
  Status status_;
};

}  // namespace irithyll
