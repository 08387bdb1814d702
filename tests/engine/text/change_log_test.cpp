// ChangeLog: mapLine / rangeTouched on the documented cases, bounded history, and a randomized
// check against a brute-force model that gives every line an identity.
#include "engine/text/change_log.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <vector>

namespace hashline {
namespace {

LineFate fate(LineFate::Kind kind, std::uint32_t line) {
  return LineFate{kind, line};
}

void expectFate(const ChangeLog& log, std::int64_t from, std::uint32_t line, LineFate expected) {
  auto actual = log.mapLine(from, line);
  ASSERT_TRUE(actual.has_value()) << "line " << line;
  EXPECT_EQ(actual->kind, expected.kind) << "line " << line;
  EXPECT_EQ(actual->line, expected.line) << "line " << line;
}

TEST(ChangeLog, TypingAboveMovesNothing) {
  ChangeLog log;
  log.reset(1);
  log.record({2, 3, 4, 4}); // typed inside line 3
  expectFate(log, 1, 7, fate(LineFate::Unchanged, 7));
  expectFate(log, 1, 2, fate(LineFate::Unchanged, 2));
  expectFate(log, 1, 3, fate(LineFate::Changed, 3));
  EXPECT_EQ(log.rangeTouched(1, 4, 9), false);
  EXPECT_EQ(log.rangeTouched(1, 0, 2), false);
  EXPECT_EQ(log.rangeTouched(1, 2, 4), true);
}

TEST(ChangeLog, EnterAtEndOfLineInsertsAfterIt) {
  ChangeLog log;
  log.reset(4);
  log.record({5, 8, 8, 9});
  expectFate(log, 4, 7, fate(LineFate::Unchanged, 7));
  expectFate(log, 4, 8, fate(LineFate::Moved, 9));
  expectFate(log, 4, 20, fate(LineFate::Moved, 21));
  // The new line lands between 7 and 8: a range holding both is touched, one ending at 7 isn't.
  EXPECT_EQ(log.rangeTouched(4, 7, 8), true);
  EXPECT_EQ(log.rangeTouched(4, 0, 7), false);
  EXPECT_EQ(log.rangeTouched(4, 8, 12), false);
}

TEST(ChangeLog, WholeLineInsertAndDelete) {
  ChangeLog log;
  log.reset(1);
  log.record({2, 3, 3, 5}); // two lines inserted before line 3
  expectFate(log, 1, 2, fate(LineFate::Unchanged, 2));
  expectFate(log, 1, 3, fate(LineFate::Moved, 5));
  log.record({3, 4, 5, 4}); // line 4 deleted (at version 2)
  expectFate(log, 2, 4, fate(LineFate::Changed, 4));
  expectFate(log, 2, 5, fate(LineFate::Moved, 4));
  expectFate(log, 1, 3, fate(LineFate::Moved, 4)); // 3 → 5 → 4
  expectFate(log, 1, 4, fate(LineFate::Moved, 5)); // 4 → 6 → 5
  expectFate(log, 1, 2, fate(LineFate::Unchanged, 2));
  expectFate(log, 3, 9, fate(LineFate::Unchanged, 9));
  EXPECT_EQ(log.rangeTouched(2, 0, 3), false);
  EXPECT_EQ(log.rangeTouched(2, 3, 5), true);
  EXPECT_EQ(log.rangeTouched(1, 3, 6), false); // lines 3..6 at v1 are 5..8 at v2, 4..7 now
}

TEST(ChangeLog, MultiChangeNotificationSharesAVersion) {
  // One didChange (version 7) with two changes, each relative to the text after the previous.
  ChangeLog log;
  log.reset(6);
  log.record({7, 10, 11, 11}); // line 10 edited
  log.record({7, 2, 2, 3});    // a line inserted before line 2
  EXPECT_EQ(log.currentVersion(), 7);
  expectFate(log, 6, 10, fate(LineFate::Changed, 11));
  expectFate(log, 6, 5, fate(LineFate::Moved, 6));
  expectFate(log, 6, 1, fate(LineFate::Unchanged, 1));
  expectFate(log, 7, 5, fate(LineFate::Unchanged, 5));
  EXPECT_EQ(log.rangeTouched(7, 0, 100), false);
}

TEST(ChangeLog, UncoveredVersionsHaveNoAnswer) {
  ChangeLog log;
  log.reset(5);
  EXPECT_FALSE(log.mapLine(4, 0).has_value());
  EXPECT_FALSE(log.mapLine(6, 0).has_value());
  EXPECT_FALSE(log.rangeTouched(4, 0, 1).has_value());
  expectFate(log, 5, 3, fate(LineFate::Unchanged, 3));
}

TEST(ChangeLog, HistoryIsBounded) {
  ChangeLog log(3);
  log.reset(1);
  for (std::int64_t v = 2; v <= 6; ++v)
    log.record({v, 0, 0, 1}); // a line inserted at the top
  EXPECT_EQ(log.size(), 3u);
  EXPECT_EQ(log.currentVersion(), 6);
  EXPECT_EQ(log.oldestVersion(), 3);
  EXPECT_FALSE(log.covers(2));
  EXPECT_FALSE(log.mapLine(2, 0).has_value());
  expectFate(log, 3, 0, fate(LineFate::Moved, 3));
  log.reset(10);
  EXPECT_EQ(log.size(), 0u);
  EXPECT_FALSE(log.covers(6));
}

TEST(ChangeLog, DroppingPartOfANotificationKeepsItsVersionMappable) {
  ChangeLog log(2);
  log.reset(1);
  log.record({2, 0, 0, 1});
  log.record({2, 5, 6, 6});
  log.record({3, 0, 0, 1}); // drops the first entry of version 2
  EXPECT_FALSE(log.covers(1));
  EXPECT_TRUE(log.covers(2));
  expectFate(log, 2, 4, fate(LineFate::Moved, 5));
}

// --- randomized against line identities ----------------------------------------------------------

TEST(ChangeLogRandomized, MatchesLineIdentityModel) {
  std::mt19937 rng(1234);
  constexpr std::size_t kMaxEntries = 40;
  ChangeLog log(kMaxEntries);
  std::vector<int> lines(30);
  int next_id = 0;
  for (int& id : lines)
    id = next_id++;
  std::int64_t version = 1;
  log.reset(version);
  std::map<std::int64_t, std::vector<int>> history{{version, lines}};
  std::size_t recorded = 0;
  std::map<std::int64_t, std::size_t> recorded_before; // entries recorded before each version

  for (int step = 0; step < 3000; ++step) {
    ++version;
    recorded_before[version] = recorded;
    const int changes = 1 + (rng() % 4 == 0 ? rng() % 3 : 0);
    for (int c = 0; c < changes; ++c) {
      std::uint32_t first = rng() % (lines.size() + 1);
      std::uint32_t old_end = first + rng() % std::min<std::size_t>(4, lines.size() - first + 1);
      std::uint32_t new_end = first + rng() % 4;
      if (lines.size() > 60) new_end = first;
      std::vector<int> fresh;
      for (std::uint32_t i = first; i < new_end; ++i)
        fresh.push_back(next_id++);
      lines.erase(lines.begin() + first, lines.begin() + old_end);
      lines.insert(lines.begin() + first, fresh.begin(), fresh.end());
      log.record({version, first, old_end, new_end});
      ++recorded;
    }
    history[version] = lines;

    // Ask about a few random earlier versions.
    for (int q = 0; q < 4; ++q) {
      std::int64_t from = 1 + rng() % version;
      const bool covered =
          from == version || recorded - recorded_before.at(from + 1) <= kMaxEntries;
      const std::vector<int>& then = history[from];
      if (then.empty()) continue;
      std::uint32_t line = rng() % then.size();
      auto mapped = log.mapLine(from, line);
      ASSERT_EQ(mapped.has_value(), covered) << "from " << from << " at " << version;
      if (!mapped) continue;
      auto found = std::find(lines.begin(), lines.end(), then[line]);
      if (found == lines.end()) {
        ASSERT_EQ(mapped->kind, LineFate::Changed);
        ASSERT_LE(mapped->line, lines.size());
      } else {
        std::uint32_t now = static_cast<std::uint32_t>(found - lines.begin());
        ASSERT_EQ(mapped->kind, now == line ? LineFate::Unchanged : LineFate::Moved);
        ASSERT_EQ(mapped->line, now);
      }
      std::uint32_t last = std::min<std::uint32_t>(line + rng() % 5, then.size() - 1);
      // Untouched: the lines are all still there, in order and adjacent.
      bool touched = false;
      std::size_t at = found - lines.begin();
      for (std::uint32_t i = line; i <= last && !touched; ++i, ++at)
        touched = at >= lines.size() || lines[at] != then[i];
      auto answer = log.rangeTouched(from, line, last);
      ASSERT_TRUE(answer.has_value());
      ASSERT_EQ(*answer, touched) << "lines " << line << ".." << last << " from " << from;
    }
  }
}

} // namespace
} // namespace hashline
