// Allocator and page tuning that only glibc on Linux offers (mallopt, MADV_HUGEPAGE,
// MAP_POPULATE): speed, never behaviour. Elsewhere (macOS, the BSDs, musl, the portable build)
// each call is a no-op or the plain form, and results are the same.
#pragma once

#include <cstddef>

namespace hashline::platform {

/// Blocks of `bytes` and more get their own mapping and go back to the OS when freed
/// (glibc: M_MMAP_THRESHOLD, which glibc would otherwise raise after the first such free).
void mapAllocationsFrom(std::size_t bytes);
/// For a one-shot process that handles a large file a few times over: freed memory stays in
/// the heap for the next copy (glibc: M_MMAP_MAX 0, M_TRIM_THRESHOLD `trim_bytes`).
void keepFreedMemoryInHeap(std::size_t trim_bytes);
/// Asks for transparent huge pages on the whole 2 MiB pages inside [begin, begin + bytes).
void adviseHugePages(void* begin, std::size_t bytes);
/// `bytes` of zeroed private read/write memory from the OS, faulted in up front where the OS
/// can (MAP_POPULATE); nullptr when refused.
void* mapZeroedPages(std::size_t bytes);
/// Returns a mapping made by mapZeroedPages.
void unmapPages(void* begin, std::size_t bytes);

} // namespace hashline::platform
