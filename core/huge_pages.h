// An allocator for large tables probed at random (a query's visitor table): from 2 MiB up it
// asks the kernel for transparent huge pages, so a probe costs one TLB entry per 2 MiB instead
// of per 4 KiB (a 32 MiB table otherwise misses the TLB on nearly every probe). Where the
// kernel gives none (THP off, or another OS) the memory is ordinary. Stateless.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sightline::core {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

template <class T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  explicit HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePageBytes) return static_cast<T*>(::operator new(bytes));
    const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void* memory = std::aligned_alloc(kHugePageBytes, rounded);
    if (memory == nullptr) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    ::madvise(memory, rounded, MADV_HUGEPAGE);  // advice only: ignored where unsupported
#endif
    return static_cast<T*>(memory);
  }

  void deallocate(T* memory, std::size_t n) {
    if (n * sizeof(T) < kHugePageBytes) {
      ::operator delete(memory);
    } else {
      std::free(memory);
    }
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

}  // namespace sightline::core
