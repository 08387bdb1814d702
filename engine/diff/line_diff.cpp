// Myers line diff with prefix/suffix trimming and a cost cap; see line_diff.h.
#include "engine/diff/line_diff.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace hashline {

std::vector<std::string_view> splitLinesKeepingEnds(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || text[i] == '\r') {
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      lines.push_back(text.substr(start, i + 1 - start));
      start = i + 1;
    }
  }
  if (start < text.size()) lines.push_back(text.substr(start));
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

} // namespace

std::vector<DiffRegion> diffSequences(std::span<const std::uint32_t> a,
                                      std::span<const std::uint32_t> b, std::size_t max_cost) {
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
    ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  const auto A = a.subspan(prefix, a.size() - prefix - suffix);
  const auto B = b.subspan(prefix, b.size() - prefix - suffix);
  if (A.empty() && B.empty()) return {};
  const std::int64_t n = static_cast<std::int64_t>(A.size());
  const std::int64_t m = static_cast<std::int64_t>(B.size());
  if (n == 0 || m == 0) return {DiffRegion{prefix, prefix + A.size(), prefix, prefix + B.size()}};

  // Forward Myers; trace[d] keeps V[k] for k in [-d, d] after round d.
  const std::int64_t max_d = std::min<std::int64_t>(n + m, static_cast<std::int64_t>(max_cost));
  std::vector<std::vector<std::int64_t>> trace;
  std::vector<std::int64_t> v(2 * (n + m) + 3, 0);
  const std::int64_t offset = n + m + 1;
  std::int64_t found_d = -1;
  for (std::int64_t d = 0; d <= max_d && found_d < 0; ++d) {
    for (std::int64_t k = -d; k <= d; k += 2) {
      std::int64_t x;
      if (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
        x = v[offset + k + 1];
      else
        x = v[offset + k - 1] + 1;
      std::int64_t y = x - k;
      while (x < n && y < m && A[x] == B[y]) {
        ++x;
        ++y;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) found_d = d;
    }
    trace.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
  }
  if (found_d < 0) // too different: one region for the whole middle
    return {DiffRegion{prefix, prefix + A.size(), prefix, prefix + B.size()}};

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

std::vector<DiffRegion> diffLines(const std::vector<std::string_view>& before,
                                  const std::vector<std::string_view>& after,
                                  std::size_t max_cost) {
  std::unordered_map<std::string_view, std::uint32_t> ids;
  auto intern = [&](const std::vector<std::string_view>& lines) {
    std::vector<std::uint32_t> out;
    out.reserve(lines.size());
    for (auto line : lines)
      out.push_back(ids.emplace(line, static_cast<std::uint32_t>(ids.size())).first->second);
    return out;
  };
  const auto a = intern(before);
  const auto b = intern(after);
  return diffSequences(a, b, max_cost);
}

} // namespace hashline
