// Internal: the nn kernels' CPU dispatch. They are compiled with
// per-function target attributes and choose a path at run time through the
// probes of core/cpu_features.hpp ("AVX2" with FMA, "AVX-512" F, DQ and VL).
#pragma once

#include "core/cpu_features.hpp"

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

using irithyll::cpu_has_avx2_fma;
using irithyll::cpu_has_avx512;

}  // namespace irithyll::nn::detail
