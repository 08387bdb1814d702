// LineHashCache: per-document cache of 64-bit line hashes, carried forward through the ChangeLog.
//
// Reads hash every line they show (plus the rest of the lines' blocks or chain segments). The
// cache keeps those hashes for the version they were computed at, as a few contiguous segments of
// read lines. When a later read comes at a newer version, each segment is carried forward through
// the document's ChangeLog with `rangeTouched`/`mapLine`: an untouched segment just moves (one
// query), a touched one is bisected so only the lines a change touched are dropped and hashed
// again. Cost of a read is O(window + changes-in-window · log(window)) log queries, never
// proportional to the document; the keystroke path (Document::applyChanges) never touches it.
//
// Without a ChangeLog covering the cached version (disk texts, a reset document, another text)
// the cache is simply dropped. Hashes for an older version than the cached one are computed
// without caching.
//
// One cache per document; not thread-safe (the document's owner serializes access).
#pragma once

#include "engine/text/change_log.h"
#include "engine/text/rope.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace hashline {

class LineHashCache {
public:
  /// `max_lines` bounds the hashes kept and `max_segments` the separate windows (each costs a few
  /// log queries per read); least recently used segments are evicted first.
  explicit LineHashCache(std::size_t max_lines = 1u << 18, std::size_t max_segments = 8);

  /// Hashes (lineHash of readLineText) of read lines [first, last] of `text` at `version`.
  /// Precondition: 1 <= first <= last <= readLineCount(text). `log` is the document's change log
  /// (null for texts without history).
  std::vector<std::uint64_t> lineHashes(const Rope& text, std::int64_t version,
                                        const ChangeLog* log, std::uint32_t first,
                                        std::uint32_t last);

  void clear();
  std::size_t cachedLines() const;
  /// Line hashes computed (cache misses) since construction: lets tests prove reuse.
  std::size_t hashesComputed() const { return hashes_computed_; }

private:
  struct Segment {
    std::vector<std::uint64_t> hashes; // hashes of lines [first, first + size)
    std::uint64_t last_used = 0;
  };
  void carryForward(std::int64_t version, const ChangeLog* log);
  void carrySegment(const ChangeLog& log, std::uint32_t first, const Segment& segment,
                    std::size_t offset, std::size_t count, std::map<std::uint32_t, Segment>& out);
  void store(std::uint32_t first, std::vector<std::uint64_t> hashes);
  void evict();

  std::size_t max_lines_;
  std::size_t max_segments_;
  bool valid_ = false;
  std::int64_t version_ = 0;
  std::map<std::uint32_t, Segment> segments_; // keyed by first line (1-based)
  std::uint64_t tick_ = 0;
  std::size_t hashes_computed_ = 0;
};

} // namespace hashline
