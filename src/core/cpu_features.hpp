// Internal: which x86 vector extensions the running CPU has, asked once per
// process. Kernels compiled with per-function target attributes choose their
// path with these, so every area agrees on what "AVX2" means: AVX2 alone
// (integer and double lanes), AVX2 with FMA, and AVX-512 (F, DQ and VL, with
// AVX2 and FMA). Elsewhere than x86 every answer is false.
#pragma once

namespace irithyll {

#if defined(__x86_64__) || defined(__i386__)
inline bool cpu_has_avx2() noexcept {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has;
}

inline bool cpu_has_avx2_fma() noexcept {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return has;
}

inline bool cpu_has_avx512() noexcept {
  static const bool has = [] {
    __builtin_cpu_init();
    return cpu_has_avx2_fma() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl");
  }();
  return has;
}
#else
inline bool cpu_has_avx2() noexcept { return false; }
inline bool cpu_has_avx2_fma() noexcept { return false; }
inline bool cpu_has_avx512() noexcept { return false; }
#endif

}  // namespace irithyll
