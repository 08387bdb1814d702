// Line-hash cache carried forward through the ChangeLog; see line_hash_cache.h.
#include "engine/anchors/line_hash_cache.h"

#include "engine/anchors/digest.h"
#include "engine/anchors/read_lines.h"

namespace hashline {
namespace {

constexpr std::int64_t kMaxCarriedVersions = 256;
// Merging a window into its neighbours copies the merged segment: keep segments small enough
// that this stays cheap next to hashing the window itself.
constexpr std::size_t kMaxSegmentLines = 2048;

} // namespace

LineHashCache::LineHashCache(std::size_t max_lines, std::size_t max_segments)
    : max_lines_(max_lines), max_segments_(max_segments == 0 ? 1 : max_segments) {}

void LineHashCache::clear() {
  segments_.clear();
  valid_ = false;
}

std::size_t LineHashCache::cachedLines() const {
  std::size_t total = 0;
  for (const auto& [first, segment] : segments_)
    total += segment.hashes.size();
  return total;
}

void LineHashCache::carrySegment(const ChangeLog& log, std::uint32_t first, const Segment& segment,
                                 std::size_t offset, std::size_t count,
                                 std::map<std::uint32_t, Segment>& out) {
  // Lines [first + offset, first + offset + count) at version_, 0-based for the log.
  const std::uint32_t lsp_first = first - 1 + static_cast<std::uint32_t>(offset);
  const std::uint32_t lsp_last = lsp_first + static_cast<std::uint32_t>(count) - 1;
  const auto touched = log.rangeTouched(version_, lsp_first, lsp_last);
  if (!touched) return;
  if (!*touched) {
    const auto fate = log.mapLine(version_, lsp_first);
    if (!fate || fate->kind == LineFate::Changed) return;
    Segment moved;
    moved.hashes.assign(segment.hashes.begin() + static_cast<std::ptrdiff_t>(offset),
                        segment.hashes.begin() + static_cast<std::ptrdiff_t>(offset + count));
    moved.last_used = segment.last_used;
    out[fate->line + 1] = std::move(moved);
    return;
  }
  if (count == 1) return; // this line was changed: drop it
  const std::size_t half = count / 2;
  carrySegment(log, first, segment, offset, half, out);
  carrySegment(log, first, segment, offset + half, count - half, out);
}

void LineHashCache::carryForward(std::int64_t version, const ChangeLog* log) {
  if (valid_ && version == version_) return;
  // Far behind (many changes to replay), or no history linking the versions: start afresh —
  // re-hashing a window is cheaper than replaying hundreds of changes.
  if (!valid_ || version < version_ || log == nullptr || !log->covers(version_) ||
      log->currentVersion() != version || version - version_ > kMaxCarriedVersions) {
    segments_.clear();
    valid_ = true;
    version_ = version;
    return;
  }
  std::map<std::uint32_t, Segment> carried;
  for (const auto& [first, segment] : segments_)
    if (!segment.hashes.empty())
      carrySegment(*log, first, segment, 0, segment.hashes.size(), carried);
  segments_ = std::move(carried);
  version_ = version;
}

std::vector<std::uint64_t> LineHashCache::lineHashes(const Rope& text, std::int64_t version,
                                                     const ChangeLog* log, std::uint32_t first,
                                                     std::uint32_t last) {
  std::vector<std::uint64_t> hashes(last - first + 1);
  if (valid_ && version < version_) { // an older snapshot: do not disturb the cache
    const LineSlices texts = readLineSlices(text, first, last);
    for (std::uint32_t line = first; line <= last; ++line)
      hashes[line - first] = lineHash(texts.line(line - first));
    hashes_computed_ += hashes.size();
    return hashes;
  }
  carryForward(version, log);
  ++tick_;
  std::vector<bool> known(hashes.size(), false);
  // Segments overlapping [first, last]: start from the last one starting at or before `first`.
  auto it = segments_.upper_bound(first);
  if (it != segments_.begin()) --it;
  for (; it != segments_.end() && it->first <= last; ++it) {
    const std::uint32_t seg_first = it->first;
    const std::uint32_t seg_last =
        seg_first + static_cast<std::uint32_t>(it->second.hashes.size()) - 1;
    it->second.last_used = tick_;
    for (std::uint32_t line = std::max(first, seg_first); line <= std::min(last, seg_last);
         ++line) {
      hashes[line - first] = it->second.hashes[line - seg_first];
      known[line - first] = true;
    }
  }
  // Hash each run of missing lines from one slice of the text.
  bool computed = false;
  for (std::uint32_t line = first; line <= last;) {
    if (known[line - first]) {
      ++line;
      continue;
    }
    std::uint32_t run_last = line;
    while (run_last < last && !known[run_last + 1 - first])
      ++run_last;
    const LineSlices texts = readLineSlices(text, line, run_last);
    for (std::uint32_t k = line; k <= run_last; ++k)
      hashes[k - first] = lineHash(texts.line(k - line));
    hashes_computed_ += run_last - line + 1;
    computed = true;
    line = run_last + 1;
  }
  if (computed) store(first, hashes); // a window the cache already held needs no merge
  return hashes;
}

void LineHashCache::store(std::uint32_t first, std::vector<std::uint64_t> hashes) {
  // Merge with every segment overlapping or adjacent to [first, last] into one segment.
  std::uint32_t new_first = first;
  std::uint32_t new_last = first + static_cast<std::uint32_t>(hashes.size()) - 1;
  auto it = segments_.upper_bound(first);
  if (it != segments_.begin()) --it;
  std::vector<std::map<std::uint32_t, Segment>::iterator> merged;
  for (; it != segments_.end() && it->first <= new_last + 1; ++it) {
    const std::uint32_t seg_last =
        it->first + static_cast<std::uint32_t>(it->second.hashes.size()) - 1;
    if (seg_last + 1 < first) continue;
    merged.push_back(it);
  }
  if (!merged.empty() &&
      std::max<std::size_t>(new_last,
                            merged.back()->first + merged.back()->second.hashes.size() - 1) -
              std::min(new_first, merged.front()->first) + 1 >
          kMaxSegmentLines) {
    // Too large to carry cheaply: keep just this window.
    for (auto m : merged)
      segments_.erase(m);
    merged.clear();
  }
  if (!merged.empty()) {
    new_first = std::min(new_first, merged.front()->first);
    for (auto m : merged)
      new_last =
          std::max(new_last, m->first + static_cast<std::uint32_t>(m->second.hashes.size()) - 1);
  }
  Segment combined;
  combined.hashes.assign(new_last - new_first + 1, 0);
  for (auto m : merged)
    std::copy(m->second.hashes.begin(), m->second.hashes.end(),
              combined.hashes.begin() + (m->first - new_first));
  std::copy(hashes.begin(), hashes.end(), combined.hashes.begin() + (first - new_first));
  combined.last_used = tick_;
  for (auto m : merged)
    segments_.erase(m);
  segments_[new_first] = std::move(combined);
  evict();
}

void LineHashCache::evict() {
  std::size_t total = cachedLines();
  while ((total > max_lines_ || segments_.size() > max_segments_) && segments_.size() > 1) {
    auto oldest = segments_.begin();
    for (auto it = segments_.begin(); it != segments_.end(); ++it)
      if (it->second.last_used < oldest->second.last_used) oldest = it;
    total -= oldest->second.hashes.size();
    segments_.erase(oldest);
  }
  if (total > max_lines_) segments_.clear();
}

} // namespace hashline
