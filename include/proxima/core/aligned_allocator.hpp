// SPDX-License-Identifier: MIT
// CacheLineAllocator: a std::allocator that places every block on a 64-byte boundary.
//
// Why: the vectorised scans read 32 bytes at a time (four doubles, or one 32-byte record) from
// the start of such a block. The default allocator aligns to 16 bytes only, so whether those
// loads straddle two cache lines depended on where malloc put the block: the same query on a
// copy of the same polytope could run several percent slower or faster (docs/benchmarks.md,
// session 33, branch s33-align). Aligning the block to a cache line makes every 32-byte load at
// a multiple-of-32 offset lie inside one line, whatever the heap's state.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace proxima::detail {

template <class T, std::size_t Alignment = 64>
struct CacheLineAllocator {
  static_assert(Alignment >= alignof(T) && (Alignment & (Alignment - 1)) == 0, "power of two, at least alignof(T)");
  using value_type = T;

  template <class U>
  struct rebind {
    using other = CacheLineAllocator<U, Alignment>;
  };

  CacheLineAllocator() noexcept = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U, Alignment>&) noexcept {}  // NOLINT: implicit, as std::allocator

  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{Alignment})); }
  // The unsized form: clang enables sized deallocation only with -fsized-deallocation.
  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, std::align_val_t{Alignment}); }

  template <class U>
  bool operator==(const CacheLineAllocator<U, Alignment>&) const noexcept {
    return true;
  }
};

/// A vector whose data starts on a cache line (see above).
template <class T>
using CacheLineVector = std::vector<T, CacheLineAllocator<T>>;

}  // namespace proxima::detail
