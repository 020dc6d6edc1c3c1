// Internal: which x86 vector extensions the running CPU has, asked once.
// The nn kernels are compiled with per-function target attributes and choose
// a path at run time; "AVX2" (with FMA) and "AVX-512" (F, DQ and VL) are
// defined here once so that every kernel file agrees on them.
#pragma once

// IRITHYLL_AVX2_CLONES compiles a plain loop twice (AVX2 and baseline) and lets
// the loader pick one. No FP contraction under -std=c++20, so both clones give
// the same bits. Off under ThreadSanitizer: the loader runs an ifunc resolver
// before the TSan runtime is up, and an instrumented resolver crashes there.
#if defined(__SANITIZE_THREAD__)
#define IRITHYLL_NO_IFUNC 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define IRITHYLL_NO_IFUNC 1
#endif
#endif
#if defined(__x86_64__) && !defined(__clang_analyzer__) && !defined(IRITHYLL_NO_IFUNC)
#define IRITHYLL_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define IRITHYLL_AVX2_CLONES
#endif

namespace irithyll::nn::detail {

#if defined(__x86_64__) || defined(__i386__)
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
inline bool cpu_has_avx2_fma() noexcept { return false; }
inline bool cpu_has_avx512() noexcept { return false; }
#endif

}  // namespace irithyll::nn::detail
