// The seek index of the codex patch form; see line_index.h.
#include "engine/forms/line_index.h"

#include "engine/forms/text_fold.h"

#include <algorithm>
#include <bit>
#include <xxhash.h>

namespace hashline::forms {
namespace {

std::uint64_t hashOf(std::string_view key) {
  return XXH3_64bits(key.data(), key.size());
}

} // namespace

LineIndex::LineIndex(const LineTable& table) : table_(table) {
  count_ = table.lineCount();
  if (count_ == 1 && table.contentBegin(0) == table.contentEnd(0) && !table.endsWithBreak())
    count_ = 0;
}

std::string LineIndex::tierKey(std::string_view line, std::size_t tier) {
  switch (tier) {
  case 0:
    return std::string(line);
  case 1:
    return std::string(trimEndUnicode(line));
  case 2:
    return std::string(trimUnicode(line));
  default:
    return looseLineKey(line);
  }
}

std::size_t LineIndex::builtTiers() const {
  return static_cast<std::size_t>(std::count(built_.begin(), built_.end(), true));
}

std::string_view LineIndex::key(std::size_t tier, std::size_t line) const {
  if (tier == 0) return table_.content(line);
  auto& keys = keys_[tier];
  if (keys.empty()) {
    keys.reserve(count_);
    for (std::size_t l = 0; l < count_; ++l)
      keys.push_back(tierKey(table_.content(l), tier));
  }
  return keys[line];
}

const LineIndex::Buckets& LineIndex::buckets(std::size_t tier) const {
  Buckets& table = buckets_[tier];
  if (built_[tier]) return table;
  built_[tier] = true;
  const std::size_t size = std::bit_ceil(std::max<std::size_t>(16, 2 * count_));
  table.mask = size - 1;
  std::vector<std::uint32_t> bucket_of(count_);
  table.heads.assign(size + 1, 0);
  for (std::size_t line = 0; line < count_; ++line) {
    bucket_of[line] = static_cast<std::uint32_t>(hashOf(key(tier, line)) & table.mask);
    ++table.heads[bucket_of[line] + 1];
  }
  for (std::size_t b = 0; b < size; ++b)
    table.heads[b + 1] += table.heads[b];
  table.lines.resize(count_);
  std::vector<std::uint32_t> next(table.heads.begin(), table.heads.end() - 1);
  for (std::size_t line = 0; line < count_; ++line) // ascending within each bucket
    table.lines[next[bucket_of[line]]++] = static_cast<std::uint32_t>(line);
  return table;
}

bool LineIndex::matchesAt(std::size_t tier, const std::vector<std::string>& keys,
                          std::size_t at) const {
  for (std::size_t k = 0; k < keys.size(); ++k)
    if (key(tier, at + k) != keys[k]) return false;
  return true;
}

std::vector<std::size_t> LineIndex::seekAt(std::size_t tier, const std::vector<std::string>& keys,
                                           std::size_t lo) const {
  const Buckets& table = buckets(tier);
  const std::size_t p = keys.size();
  // The pattern line with the fewest candidates (its bucket's size bounds its occurrences).
  std::size_t pivot = 0, best = SIZE_MAX;
  std::vector<std::uint64_t> bucket(p);
  for (std::size_t k = 0; k < p; ++k) {
    bucket[k] = hashOf(keys[k]) & table.mask;
    const std::size_t candidates = table.heads[bucket[k] + 1] - table.heads[bucket[k]];
    if (candidates < best) best = candidates, pivot = k;
  }
  auto first = table.lines.begin() + table.heads[bucket[pivot]];
  auto last = table.lines.begin() + table.heads[bucket[pivot] + 1];
  std::vector<std::size_t> found;
  for (auto it = std::lower_bound(first, last, lo + pivot); it != last; ++it) {
    const std::size_t at = *it - pivot;
    if (at + p > count_) break;
    if (matchesAt(tier, keys, at)) found.push_back(at);
  }
  return found;
}

std::vector<std::size_t> LineIndex::seek(const std::vector<std::string>& pattern, std::size_t start,
                                         bool eof) const {
  const std::size_t n = size(), p = pattern.size();
  std::vector<std::size_t> found;
  if (p > n) return found;
  const std::size_t lo = eof ? n - p : start;
  if (lo < start) return found;
  if (p == 0) { // matches everywhere
    for (std::size_t at = lo; at <= n; ++at)
      found.push_back(at);
    return found;
  }
  for (std::size_t tier = 0; tier < kTiers && found.empty(); ++tier) {
    std::vector<std::string> keys;
    keys.reserve(p);
    for (const std::string& line : pattern)
      keys.push_back(tierKey(line, tier));
    if (eof) { // one place to check: no index needed
      if (matchesAt(tier, keys, lo)) found.push_back(lo);
    } else {
      found = seekAt(tier, keys, lo);
    }
  }
  return found;
}

} // namespace hashline::forms
