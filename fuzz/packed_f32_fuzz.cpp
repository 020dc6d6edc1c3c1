// libFuzzer target: arbitrary bytes through the f32 packed reader. Whatever
// validates must predict (every path) without crashing, hanging or reading
// out of bounds, and all paths must agree bit for bit.
#include <cstdint>
#include <cstring>
#include <vector>

#include "packed_fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  irithyll::packed::fuzz::exercise(data, size, irithyll::packed::kMagicF32);
  return 0;
}
