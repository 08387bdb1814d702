// The pool of large read buffers; see read_buffers.h.
#include "lsp/reconcile/read_buffers.h"

#include "lsp/platform/memory_tuning.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace hashline::lsp::read_buffers {

namespace {

using Clock = std::chrono::steady_clock;

struct Spare {
  Mapping mapping;
  Clock::time_point released;
};

/// New mappings get 1/8 more than asked, rounded up to 64 KiB.
std::size_t roomFor(std::size_t bytes) {
  constexpr std::size_t kGrain = std::size_t(64) << 10;
  const std::size_t wanted = bytes + bytes / 8;
  return (wanted + kGrain - 1) / kGrain * kGrain;
}

class Pool {
public:
  Mapping acquire(std::size_t bytes) {
    {
      std::lock_guard lock(mutex_);
      expire(Clock::now());
      // The smallest spare that fits, unless it is more than twice the size (a small file
      // does not pin a huge buffer); of equal ones the last released (its pages are warmest).
      auto best = spares_.end();
      for (auto it = spares_.begin(); it != spares_.end(); ++it)
        if (it->mapping.capacity >= bytes && it->mapping.capacity <= 2 * roomFor(bytes) &&
            (best == spares_.end() || it->mapping.capacity <= best->mapping.capacity))
          best = it;
      if (best != spares_.end()) {
        Mapping found = best->mapping;
        spares_.erase(best);
        return found;
      }
    }
    const std::size_t capacity = roomFor(bytes);
    void* mapped = platform::mapZeroedPages(capacity);
    if (mapped == nullptr) return {};
    return {static_cast<char*>(mapped), capacity};
  }

  void release(Mapping mapping) {
    if (!mapping.data) return;
    std::vector<Mapping> unmap;
    {
      std::lock_guard lock(mutex_);
      const Clock::time_point now = Clock::now();
      expire(now);
      spares_.push_back({mapping, now});
      // Over a bound: the oldest spares go first.
      std::size_t bytes = 0;
      for (const Spare& spare : spares_)
        bytes += spare.mapping.capacity;
      while (!spares_.empty() && (spares_.size() > kMaxSpare || bytes > kMaxSpareBytes)) {
        bytes -= spares_.front().mapping.capacity;
        unmap.push_back(spares_.front().mapping);
        spares_.erase(spares_.begin());
      }
    }
    for (const Mapping& old : unmap)
      platform::unmapPages(old.data, old.capacity);
  }

  std::size_t spareCount() {
    std::lock_guard lock(mutex_);
    return spares_.size();
  }

  void expireNow(Clock::time_point now) {
    std::lock_guard lock(mutex_);
    expire(now);
  }

private:
  void expire(Clock::time_point now) {
    auto stale = std::remove_if(spares_.begin(), spares_.end(), [&](const Spare& spare) {
      if (now - spare.released < kSpareLife) return false;
      platform::unmapPages(spare.mapping.data, spare.mapping.capacity);
      return true;
    });
    spares_.erase(stale, spares_.end());
  }

  std::mutex mutex_;
  std::vector<Spare> spares_; // oldest first
};

Pool& pool() {
  static Pool* instance = new Pool; // never destroyed: buffers may be released during exit
  return *instance;
}

} // namespace

Mapping acquire(std::size_t bytes) {
  return pool().acquire(bytes);
}

void release(Mapping mapping) {
  pool().release(mapping);
}

void expireSpares(std::chrono::steady_clock::time_point now) {
  pool().expireNow(now);
}

std::size_t spareCount() {
  return pool().spareCount();
}

} // namespace hashline::lsp::read_buffers
