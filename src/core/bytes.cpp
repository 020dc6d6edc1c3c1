#include "irithyll/core/bytes.hpp"

namespace irithyll {

void ByteReader::truncated(const char* what, std::size_t need) {
  fail("truncated at byte " + std::to_string(pos_) + " reading '" + what + "' (need " + std::to_string(need) +
       " bytes, " + std::to_string(remaining()) + " left)");
}

void ByteReader::fail(std::string message) {
  if (!ok()) return;
  status_ = Status::corruption(std::move(message));
  pos_ = bytes_.size();
}

bool ByteReader::expect(bool cond, const char* what) {
  if (!cond) fail(std::string("invalid value at byte ") + std::to_string(pos_) + ": " + what);
  return cond && ok();
}

bool ByteReader::boolean(const char* what) {
  const std::uint8_t v = u8(what);
  if (v > 1) fail(std::string("invalid boolean for '") + what + "' at byte " + std::to_string(pos_ - 1));
  return v == 1;
}

std::size_t ByteReader::read_count(std::size_t min_elem_bytes, const char* what) {
  const std::uint64_t n = u64(what);
  if (!ok()) return 0;
  if (min_elem_bytes > 0 && n > remaining() / min_elem_bytes) {
    fail(std::string("count ") + std::to_string(n) + " for '" + what + "' exceeds the " +
         std::to_string(remaining()) + " bytes left");
    return 0;
  }
  return static_cast<std::size_t>(n);
}

std::string ByteReader::str(const char* what) {
  const std::size_t n = read_count(1, what);
  if (!ok()) return {};
  std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
  pos_ += n;
  return s;
}

std::span<const std::uint8_t> ByteReader::bytes(std::size_t n, const char* what) {
  if (!ok()) return {};
  if (remaining() < n) {
    truncated(what, n);
    return {};
  }
  auto out = bytes_.subspan(pos_, n);
  pos_ += n;
  return out;
}

std::vector<double> ByteReader::f64s(const char* what) {
  const std::size_t n = read_count(8, what);
  std::vector<double> v(n);
  for (auto& x : v) x = f64(what);
  return v;
}

std::vector<std::uint64_t> ByteReader::u64s(const char* what) {
  const std::size_t n = read_count(8, what);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = u64(what);
  return v;
}

}  // namespace irithyll
