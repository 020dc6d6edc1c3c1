// An allocator for std::vector whose storage starts on a chosen power-of-two
// boundary (64 bytes: one cache line, one AVX-512 register). Kernels that
// stream a packed array with full-width loads need it: on the CPUs measured
// here a 64-byte load that straddles two cache lines costs about twice as
// much, which turned one matvec 1.5x slower (kernels_hi32.hpp).
//
// Allocation goes through the aligned forms of operator new / delete.
// Stateless; thread-safe as operator new is.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace irithyll {

template <class T, std::size_t Align = 64>
struct AlignedAllocator {
  static_assert(Align >= alignof(T) && (Align & (Align - 1)) == 0, "alignment must be a power of two >= alignof(T)");
  using value_type = T;
  template <class U>
  struct rebind {
    using other = AlignedAllocator<U, Align>;
  };

  AlignedAllocator() noexcept = default;
  template <class U>
  AlignedAllocator(const AlignedAllocator<U, Align>&) noexcept {}

  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{Align})); }
  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, std::align_val_t{Align}); }

  template <class U>
  bool operator==(const AlignedAllocator<U, Align>&) const noexcept {
    return true;
  }
};

template <class T, std::size_t Align = 64>
using AlignedVector = std::vector<T, AlignedAllocator<T, Align>>;

}  // namespace irithyll
