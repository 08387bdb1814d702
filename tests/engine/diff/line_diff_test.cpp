// Tests for the Myers line diff (engine/diff/line_diff.h).
#include "engine/diff/line_diff.h"

#include <gtest/gtest.h>
#include <random>
#include <string>

namespace hashline {
namespace {

// Applies regions to `a` taking new lines from `b`; must give `b` back.
std::vector<std::uint32_t> applyRegions(const std::vector<std::uint32_t>& a,
                                        const std::vector<std::uint32_t>& b,
                                        const std::vector<DiffRegion>& regions) {
  std::vector<std::uint32_t> out;
  std::size_t at = 0;
  for (const auto& r : regions) {
    out.insert(out.end(), a.begin() + at, a.begin() + r.old_begin);
    out.insert(out.end(), b.begin() + r.new_begin, b.begin() + r.new_end);
    at = r.old_end;
  }
  out.insert(out.end(), a.begin() + at, a.end());
  return out;
}

std::size_t cost(const std::vector<DiffRegion>& regions) {
  std::size_t total = 0;
  for (const auto& r : regions)
    total += (r.old_end - r.old_begin) + (r.new_end - r.new_begin);
  return total;
}

// Edit distance (insert/delete only) by dynamic programming: the oracle for minimality.
std::size_t lcsCost(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  std::vector<std::vector<std::size_t>> lcs(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = a.size(); i-- > 0;)
    for (std::size_t j = b.size(); j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  return a.size() + b.size() - 2 * lcs[0][0];
}

TEST(SplitLines, KeepsTerminators) {
  EXPECT_TRUE(splitLinesKeepingEnds("").empty());
  EXPECT_EQ(splitLinesKeepingEnds("a\n"), (std::vector<std::string_view>{"a\n"}));
  EXPECT_EQ(splitLinesKeepingEnds("a\r\nb\rc\nd"),
            (std::vector<std::string_view>{"a\r\n", "b\r", "c\n", "d"}));
}

TEST(DiffSequences, SimpleCases) {
  EXPECT_TRUE(
      diffSequences(std::vector<std::uint32_t>{1, 2, 3}, std::vector<std::uint32_t>{1, 2, 3})
          .empty());
  EXPECT_EQ(diffSequences(std::vector<std::uint32_t>{1, 2, 3}, std::vector<std::uint32_t>{1, 9, 3}),
            (std::vector<DiffRegion>{{1, 2, 1, 2}}));
  EXPECT_EQ(diffSequences(std::vector<std::uint32_t>{1, 3}, std::vector<std::uint32_t>{1, 2, 3}),
            (std::vector<DiffRegion>{{1, 1, 1, 2}}));
  EXPECT_EQ(diffSequences(std::vector<std::uint32_t>{}, std::vector<std::uint32_t>{5}),
            (std::vector<DiffRegion>{{0, 0, 0, 1}}));
}

TEST(DiffSequences, RandomIsCorrectAndMinimal) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<std::uint32_t> a(rng() % 30), b;
    for (auto& x : a)
      x = rng() % 5;
    for (auto x : a) {
      if (rng() % 4 == 0) continue;
      if (rng() % 4 == 0) b.push_back(rng() % 5);
      b.push_back(x);
    }
    const auto regions = diffSequences(a, b);
    ASSERT_EQ(applyRegions(a, b, regions), b);
    ASSERT_EQ(cost(regions), lcsCost(a, b));
    for (std::size_t i = 1; i < regions.size(); ++i)
      ASSERT_LT(regions[i - 1].old_end, regions[i].old_begin); // separated by unchanged lines
  }
}

TEST(DiffSequences, CostCapStillGivesACorrectScript) {
  std::vector<std::uint32_t> a, b;
  for (std::uint32_t i = 0; i < 500; ++i) {
    a.push_back(i);
    b.push_back(i + 1000);
  }
  const auto regions = diffSequences(a, b, 10);
  EXPECT_EQ(applyRegions(a, b, regions), b);
}

} // namespace
} // namespace hashline
