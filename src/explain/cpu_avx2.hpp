// Internal: whether this CPU runs the explainer's AVX2 paths (the group adds
// and the four-rows-at-a-time batch), asked once per process.
#pragma once

namespace irithyll::explain_detail {

#if defined(__x86_64__) && !defined(__clang_analyzer__)
inline bool cpu_has_avx2() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has;
}
#else
inline bool cpu_has_avx2() { return false; }
#endif

}  // namespace irithyll::explain_detail
