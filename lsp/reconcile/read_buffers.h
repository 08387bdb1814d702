// Large read buffers kept mapped between reads (issue 13: reconcile latency on big files).
//
// Every foreign write to a multi-megabyte open file is read whole (disk_read.h). A fresh mapping
// per read costs more than the read itself: the kernel hands out zeroed pages, each first touch
// traps, and in a virtual machine the host backs each page on first use — on the 2-core CI VM a
// fresh 6.7 MB buffer took 9 ms to fill and 9 ms more to compare, a reused one 0.5 ms and 0.3 ms.
// The reconciler's buffers have a short life and a steady size (a write's bytes become the next
// base; the old base is released), so a released mapping is kept and handed to the next read of
// a size it fits.
//
// Bounded: at most kMaxSpare spare mappings and kMaxSpareBytes in them; a spare that has not been
// reused for kSpareLife is unmapped at the next acquire or release, or by expireSpares (the
// reconciler calls it once writes stop). Thread-safe.
#pragma once

#include <chrono>
#include <cstddef>

namespace hashline::lsp::read_buffers {

inline constexpr std::size_t kMaxSpare = 2; // a file written again and again needs one
inline constexpr std::size_t kMaxSpareBytes = std::size_t(128) << 20;
inline constexpr std::chrono::seconds kSpareLife{60};

struct Mapping {
  char* data = nullptr;
  std::size_t capacity = 0; // bytes mapped (at least what was asked for)
};

/// A writable mapping of at least `bytes` bytes: a spare one that fits, else a new one with its
/// pages populated and some room to grow (a file that grows by a line still fits next time).
/// `data` is null when the kernel refuses the mapping.
Mapping acquire(std::size_t bytes);

/// Gives `mapping` back: kept as a spare, or unmapped when the bounds are reached.
void release(Mapping mapping);

/// Unmaps the spares released before `now - kSpareLife`.
void expireSpares(std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());

/// Spare mappings held now (for tests and logs).
std::size_t spareCount();

} // namespace hashline::lsp::read_buffers
