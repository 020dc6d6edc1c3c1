// Bare-metal check of the freestanding packed reader on an emulated Cortex-M3
// (QEMU lm3s6965evb): validates the f32 and int16 Electricity models embedded
// in flash, predicts the embedded rows with both, compares each prediction
// bit for bit with the host's (generated into model_data.h by gen_model_data),
// reports through ARM semihosting and exits with the verdict.
//
// Freestanding: no heap, no exceptions, no RTTI, no C library. The only
// support code is the vector table, the reset handler, memcpy/memset (which
// GCC may emit) and two semihosting calls.
#include <cstddef>
#include <cstdint>

#include "irithyll/packed/view.hpp"
#include "model_data.h"

extern "C" {
// GCC may lower loops and struct copies to these.
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
}

namespace {

int semihost(int op, const void* arg) {
  register int r0 __asm__("r0") = op;
  register const void* r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void puts_sh(const char* s) { semihost(0x04, s); }  // SYS_WRITE0

[[noreturn]] void exit_sh(bool ok) {
  // SYS_EXIT: ADP_Stopped_ApplicationExit (QEMU exit 0) or RunTimeErrorUnknown (exit 1).
  semihost(0x18, reinterpret_cast<const void*>(ok ? 0x20026u : 0x20023u));
  for (;;) {
  }
}

void put_uint(std::uint32_t v) {
  char buf[12];
  int i = 11;
  buf[i] = '\0';
  do {
    buf[--i] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0 && i > 0);
  puts_sh(buf + i);
}

bool same_bits(float a, float b) {
  std::uint32_t x, y;
  __builtin_memcpy(&x, &a, 4);
  __builtin_memcpy(&y, &b, 4);
  return x == y;
}

std::uint16_t g_scratch[1024];

}  // namespace

int main() {
  using namespace irithyll::packed;
  F32View f32;
  I16View i16;
  FormatError e = f32.parse(kModelF32, sizeof kModelF32, g_scratch, 1024);
  if (e != FormatError::kOk) {
    puts_sh("f32 parse failed: ");
    puts_sh(format_error_message(e));
    puts_sh("\n");
    exit_sh(false);
  }
  e = i16.parse(kModelI16, sizeof kModelI16, g_scratch, 1024);
  if (e != FormatError::kOk) {
    puts_sh("i16 parse failed: ");
    puts_sh(format_error_message(e));
    puts_sh("\n");
    exit_sh(false);
  }
  std::uint32_t bad = 0;
  for (std::uint32_t r = 0; r < kRows; ++r) {
    const float* x = kFeatures + r * kFeatureCount;
    float p = 0, q = 0;
    if (f32.predict(x, kFeatureCount, &p) != FormatError::kOk || !same_bits(p, kHostF32[r])) ++bad;
    if (i16.predict(x, kFeatureCount, &q) != FormatError::kOk || !same_bits(q, kHostI16[r])) ++bad;
  }
  puts_sh("cortex-m packed check: rows ");
  put_uint(kRows);
  puts_sh(", trees ");
  put_uint(f32.info().n_trees);
  puts_sh(", nodes ");
  put_uint(f32.info().total_nodes);
  puts_sh(", mismatches ");
  put_uint(bad);
  puts_sh(bad == 0 ? " -> OK\n" : " -> FAIL\n");
  exit_sh(bad == 0);
}

// ---- startup: vector table and reset handler ---------------------------------
extern "C" {
extern std::uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;
[[noreturn]] void reset_handler() {
  std::uint32_t* src = &_sidata;
  for (std::uint32_t* d = &_sdata; d < &_edata;) *d++ = *src++;
  for (std::uint32_t* d = &_sbss; d < &_ebss;) *d++ = 0;
  main();
  exit_sh(false);
}
[[noreturn]] void fault_handler() {
  puts_sh("fault\n");
  exit_sh(false);
}
__attribute__((section(".vectors"), used)) void (*const g_vectors[16])() = {
    reinterpret_cast<void (*)()>(&_estack), reset_handler, fault_handler, fault_handler, fault_handler,
    fault_handler, fault_handler, nullptr, nullptr, nullptr, nullptr, fault_handler, fault_handler,
    nullptr, fault_handler, fault_handler};
}
