// Size probe for Cortex-M0+: the freestanding reader and both traversals, kept
// alive by one entry point that a firmware would call. Built by
// scripts/embedded-check with -mcpu=cortex-m0plus; arm-none-eabi-size reports
// what the packed inference core costs in flash and RAM (the model itself is
// data in flash on top of this).
#include "irithyll/packed/view.hpp"

namespace {
std::uint16_t g_scratch[256];  // validation scratch: one u16 per node of the largest tree
}

extern "C" float irithyll_packed_predict(const std::uint8_t* model, std::size_t size, const float* x,
                                         std::size_t n) {
  using namespace irithyll::packed;
  float out = 0.0f;
  if (load_u32(model) == kMagicI16) {
    I16View v;
    if (v.parse(model, size, g_scratch, 256) != FormatError::kOk) return -1.0f;
    (void)v.predict(x, n, &out);
  } else {
    F32View v;
    if (v.parse(model, size, g_scratch, 256) != FormatError::kOk) return -1.0f;
    (void)v.predict(x, n, &out);
  }
  return out;
}

extern "C" [[noreturn]] void reset_handler() {
  volatile float sink = irithyll_packed_predict(reinterpret_cast<const std::uint8_t*>(0x1000), 64, nullptr, 0);
  (void)sink;
  for (;;) {
  }
}
extern "C" {
void* memcpy(void* d, const void* s, std::size_t n) {
  auto* dp = static_cast<unsigned char*>(d);
  const auto* sp = static_cast<const unsigned char*>(s);
  while (n--) *dp++ = *sp++;
  return d;
}
void* memset(void* d, int v, std::size_t n) {
  auto* dp = static_cast<unsigned char*>(d);
  while (n--) *dp++ = static_cast<unsigned char>(v);
  return d;
}
extern std::uint32_t _estack;
__attribute__((section(".vectors"), used)) void (*const g_vectors[2])() = {
    reinterpret_cast<void (*)()>(&_estack), reset_handler};
}
