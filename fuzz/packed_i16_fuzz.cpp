// libFuzzer target: arbitrary bytes through the int16 packed reader (see
// packed_fuzz_common.hpp for what is checked).
#include <cstdint>

#include "packed_fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  irithyll::packed::fuzz::exercise(data, size, irithyll::packed::kMagicI16);
  return 0;
}
