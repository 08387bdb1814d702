// Myers line diff with prefix/suffix trimming and a cost cap; see line_diff.h.
#include "engine/diff/line_diff.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>

namespace hashline {

std::vector<std::string_view> splitLinesKeepingEnds(std::string_view text) {
  std::vector<std::string_view> lines;
  const char* const data = text.data();
  const std::size_t size = text.size();
  std::size_t start = 0;
  std::size_t lf_at = 0; // the next LF at or after `start` (size: none); found again once passed
  bool lf_known = false;
  while (start < size) {
    // memchr for LF finds most breaks fast; a lone CR before it also ends a line.
    if (!lf_known || lf_at < start) {
      const void* lf = std::memchr(data + start, '\n', size - start);
      lf_at = lf ? static_cast<std::size_t>(static_cast<const char*>(lf) - data) : size;
      lf_known = true;
    }
    const void* cr = std::memchr(data + start, '\r', lf_at - start);
    std::size_t end; // one past the terminator
    if (cr) {
      const std::size_t cr_at = static_cast<std::size_t>(static_cast<const char*>(cr) - data);
      end = (cr_at + 1 < size && data[cr_at + 1] == '\n') ? cr_at + 2 : cr_at + 1;
    } else {
      end = lf_at < size ? lf_at + 1 : size;
    }
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

namespace {

void pushEdit(std::vector<DiffRegion>& regions, DiffRegion edit) {
  if (!regions.empty() && regions.back().old_end == edit.old_begin &&
      regions.back().new_end == edit.new_begin) {
    regions.back().old_end = edit.old_end;
    regions.back().new_end = edit.new_end;
  } else {
    regions.push_back(edit);
  }
}

/// Myers over two sequences of lengths n0 and m0 compared by `equal(i, j)`. Common prefix and
/// suffix are trimmed first; V holds only the diagonals the cost cap allows, so memory is
/// O(max_cost²) at worst and O(D²) in practice, never O(n).
template <class Equal>
std::vector<DiffRegion> myersDiff(std::size_t n0, std::size_t m0, const Equal& equal,
                                  std::size_t max_cost) {
  std::size_t prefix = 0;
  while (prefix < n0 && prefix < m0 && equal(prefix, prefix))
    ++prefix;
  std::size_t suffix = 0;
  while (suffix < n0 - prefix && suffix < m0 - prefix && equal(n0 - 1 - suffix, m0 - 1 - suffix))
    ++suffix;
  const std::int64_t n = static_cast<std::int64_t>(n0 - prefix - suffix);
  const std::int64_t m = static_cast<std::int64_t>(m0 - prefix - suffix);
  if (n == 0 && m == 0) return {};
  const auto whole_middle = [&] {
    return std::vector<DiffRegion>{
        DiffRegion{prefix, prefix + std::size_t(n), prefix, prefix + std::size_t(m)}};
  };
  if (n == 0 || m == 0) return whole_middle();
  auto same = [&](std::int64_t x, std::int64_t y) {
    return equal(prefix + std::size_t(x), prefix + std::size_t(y));
  };

  // Forward Myers; trace[d] keeps V[k] for k in [-d, d] after round d.
  const std::int64_t max_d = std::min<std::int64_t>(n + m, static_cast<std::int64_t>(max_cost));
  std::vector<std::vector<std::int64_t>> trace;
  std::vector<std::int64_t> v(static_cast<std::size_t>(2 * max_d + 3), 0);
  const std::int64_t offset = max_d + 1;
  std::int64_t found_d = -1;
  for (std::int64_t d = 0; d <= max_d && found_d < 0; ++d) {
    for (std::int64_t k = -d; k <= d; k += 2) {
      std::int64_t x;
      if (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
        x = v[offset + k + 1];
      else
        x = v[offset + k - 1] + 1;
      std::int64_t y = x - k;
      while (x < n && y < m && same(x, y)) {
        ++x;
        ++y;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) found_d = d;
    }
    trace.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
  }
  if (found_d < 0) return whole_middle(); // too different: one region for the whole middle

  std::vector<DiffRegion> reversed;
  std::int64_t x = n, y = m;
  for (std::int64_t d = found_d; d > 0; --d) {
    const auto& prev = trace[d - 1]; // index k + (d - 1)
    auto at = [&](std::int64_t k) { return prev[k + d - 1]; };
    const std::int64_t k = x - y;
    const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
    const std::int64_t prev_k = down ? k + 1 : k - 1;
    const std::int64_t prev_x = at(prev_k);
    const std::int64_t prev_y = prev_x - prev_k;
    if (down) // insertion of B[prev_y] before A[prev_x]
      reversed.push_back(DiffRegion{std::size_t(prev_x), std::size_t(prev_x), std::size_t(prev_y),
                                    std::size_t(prev_y + 1)});
    else // deletion of A[prev_x]
      reversed.push_back(DiffRegion{std::size_t(prev_x), std::size_t(prev_x + 1),
                                    std::size_t(prev_y), std::size_t(prev_y)});
    x = prev_x;
    y = prev_y;
  }
  std::vector<DiffRegion> regions;
  for (auto it = reversed.rbegin(); it != reversed.rend(); ++it)
    pushEdit(regions, DiffRegion{it->old_begin + prefix, it->old_end + prefix,
                                 it->new_begin + prefix, it->new_end + prefix});
  return regions;
}

thread_local std::size_t lines_diffed = 0;

} // namespace

std::size_t linesDiffedOnThisThread() {
  return lines_diffed;
}

std::vector<DiffRegion> diffSequences(std::span<const std::uint32_t> a,
                                      std::span<const std::uint32_t> b, std::size_t max_cost) {
  return myersDiff(
      a.size(), b.size(), [&](std::size_t i, std::size_t j) { return a[i] == b[j]; }, max_cost);
}

std::vector<DiffRegion> diffLines(const std::vector<std::string_view>& before,
                                  const std::vector<std::string_view>& after,
                                  std::size_t max_cost) {
  // Trim the common prefix and suffix by plain comparison, then compare the middle by a hash
  // per line confirmed by the bytes: exact, with no interning table (no allocation per line).
  const std::size_t n = before.size(), m = after.size();
  lines_diffed += n + m;
  std::size_t prefix = 0;
  while (prefix < n && prefix < m && before[prefix] == after[prefix])
    ++prefix;
  std::size_t suffix = 0;
  while (suffix < n - prefix && suffix < m - prefix &&
         before[n - 1 - suffix] == after[m - 1 - suffix])
    ++suffix;
  const std::size_t middle_n = n - prefix - suffix, middle_m = m - prefix - suffix;
  auto hashes = [&](const std::vector<std::string_view>& lines, std::size_t count) {
    std::vector<std::size_t> out(count);
    const std::hash<std::string_view> hash;
    for (std::size_t i = 0; i < count; ++i)
      out[i] = hash(lines[prefix + i]);
    return out;
  };
  const std::vector<std::size_t> hash_a = hashes(before, middle_n);
  const std::vector<std::size_t> hash_b = hashes(after, middle_m);
  std::vector<DiffRegion> regions = myersDiff(
      middle_n, middle_m,
      [&](std::size_t i, std::size_t j) {
        return hash_a[i] == hash_b[j] && before[prefix + i] == after[prefix + j];
      },
      max_cost);
  for (DiffRegion& region : regions) {
    region.old_begin += prefix;
    region.old_end += prefix;
    region.new_begin += prefix;
    region.new_end += prefix;
  }
  return regions;
}

} // namespace hashline
