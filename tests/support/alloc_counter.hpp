// Counting replacements of the global operator new/delete, for the tests that
// assert a hot path performs no heap allocation.
//
// Include from EXACTLY ONE .cpp of a test binary: replacement allocation
// functions may be defined only once per program ([replacement.functions]),
// so this header defines them (they cannot be inline) and a second inclusion
// in another translation unit of the same binary is a multiple-definition
// link error. Each alloc test area is its own binary for the same reason: the
// replacement is global and would count every other test's allocations.
//
// Cost: one relaxed atomic increment per allocation. Thread safety: the
// counter is atomic; a count taken around a region also sees allocations made
// concurrently by other threads, so measure single-threaded code.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace irithyll::test {
namespace detail {
inline std::atomic<long> g_allocation_count{0};
}  // namespace detail

// Calls to operator new / new[] (plain and over-aligned) since the program started.
inline long allocation_count() noexcept { return detail::g_allocation_count.load(); }
}  // namespace irithyll::test

// GCC 12 at -O1 and above inlines these into gtest's factory and then reports
// free() on memory from "a mismatched allocation function": it cannot see that
// the replaced operator new is malloc. Not a real mismatch; silenced for the
// files that include this header (the allocation-counting tests only).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(std::size_t n) {
  irithyll::test::detail::g_allocation_count.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

// The over-aligned forms (AlignedAllocator, alignas types) count too.
void* operator new(std::size_t n, std::align_val_t a) {
  irithyll::test::detail::g_allocation_count.fetch_add(1, std::memory_order_relaxed);
  const std::size_t align = static_cast<std::size_t>(a);
  const std::size_t size = (n == 0 ? align : (n + align - 1) / align * align);  // aligned_alloc wants a multiple
  if (void* p = std::aligned_alloc(align, size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
