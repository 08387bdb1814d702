// glibc's allocator knobs and THP advice where this build may use them; plain mmap elsewhere.
#include "lsp/platform/memory_tuning.h"

#include "lsp/platform/platform_variant.h"

#include <sys/mman.h>
#if HASHLINE_GLIBC_TUNING
#include <malloc.h>
#endif

namespace hashline::platform {

void mapAllocationsFrom(std::size_t bytes) {
#if HASHLINE_GLIBC_TUNING
  ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(bytes));
#else
  (void)bytes;
#endif
}

void keepFreedMemoryInHeap(std::size_t trim_bytes) {
#if HASHLINE_GLIBC_TUNING
  ::mallopt(M_MMAP_MAX, 0);
  ::mallopt(M_TRIM_THRESHOLD, static_cast<int>(trim_bytes));
#else
  (void)trim_bytes;
#endif
}

void adviseHugePages(void* begin, std::size_t bytes) {
#if HASHLINE_GLIBC_TUNING && defined(MADV_HUGEPAGE)
  (void)::madvise(begin, bytes, MADV_HUGEPAGE);
#else
  (void)begin;
  (void)bytes;
#endif
}

void* mapZeroedPages(std::size_t bytes) {
  int flags = MAP_PRIVATE | MAP_ANON;
#if HASHLINE_GLIBC_TUNING && defined(MAP_POPULATE)
  flags |= MAP_POPULATE;
#endif
  void* mapped = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
  return mapped == MAP_FAILED ? nullptr : mapped;
}

void unmapPages(void* begin, std::size_t bytes) {
  ::munmap(begin, bytes);
}

} // namespace hashline::platform
