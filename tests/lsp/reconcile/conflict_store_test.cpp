// The open conflicts on disk (lsp/reconcile/conflict_store.h): what is saved is read back whole,
// a damaged entry or file is dropped without failing, a restored id is kept and later ids follow
// it, and a conflict read back holds only while the buffer still has the user's side, the disk
// the writer's, and the two differ.
#include "lsp/reconcile/conflict_store.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace hashline::lsp {
namespace {

OpenConflict sample(const std::string& id) {
  OpenConflict conflict;
  conflict.id = id;
  conflict.key = "file:///w/a.txt";
  conflict.uri = "file:///w/a.txt";
  conflict.path = "/w/a.txt";
  conflict.line = 9;
  conflict.ours = "mine 10\n";
  conflict.theirs = "theirs 10\n";
  conflict.version = 7;
  return conflict;
}

std::string tempPath() {
  return testing::TempDir() + "conflicts-" + std::to_string(::getpid()) + ".json";
}

TEST(ConflictStore, WhatIsSavedIsReadBackWhole) {
  const std::string path = tempPath();
  OpenConflict first = sample("c3"), second = sample("c4");
  second.key = second.uri = "file:///w/b.txt";
  ASSERT_TRUE(saveConflicts(path, {&first, &second}));
  std::vector<OpenConflict> loaded = loadConflicts(path);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[0].id, "c3");
  EXPECT_EQ(loaded[0].line, 9u);
  EXPECT_EQ(loaded[0].ours, "mine 10\n");
  EXPECT_EQ(loaded[0].theirs, "theirs 10\n");
  EXPECT_EQ(loaded[0].version, 7);
  EXPECT_EQ(loaded[1].key, "file:///w/b.txt");
  std::remove(path.c_str());
}

TEST(ConflictStore, AMissingOrDamagedFileIsEmptyAndADamagedEntryIsDropped) {
  const std::string path = tempPath();
  EXPECT_TRUE(loadConflicts(path).empty());
  std::ofstream(path)
      << "[{\"id\":\"c1\"},{\"id\":\"c2\",\"key\":\"k\",\"uri\":\"u\",\"path\":\"p\","
         "\"line\":0,\"ours\":\"\",\"theirs\":\"t\\n\",\"version\":1}";
  EXPECT_TRUE(loadConflicts(path).empty()); // cut short: not JSON
  std::ofstream(path)
      << "[{\"id\":\"c1\"},{\"id\":\"c2\",\"key\":\"k\",\"uri\":\"u\",\"path\":\"p\","
         "\"line\":0,\"ours\":\"\",\"theirs\":\"t\\n\",\"version\":1}]";
  std::vector<OpenConflict> loaded = loadConflicts(path);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0].id, "c2");
  std::remove(path.c_str());
}

TEST(ConflictStore, ARestoredIdIsKeptAndLaterIdsFollowIt) {
  ConflictList list;
  EXPECT_EQ(list.restore(sample("c5")).id, "c5");
  EXPECT_EQ(list.restore(sample("c5")).id, "c6"); // taken: a new one
  EXPECT_EQ(list.add(sample("")).id, "c7");
  EXPECT_NE(list.find("c5"), nullptr);
}

TEST(ConflictStore, AConflictHoldsOnlyWhileBothSidesAreWhereTheyWere) {
  const OpenConflict conflict = sample("c1");
  std::string buffer, disk;
  for (int i = 1; i <= 12; ++i) {
    buffer += (i == 10 ? "mine 10" : "line " + std::to_string(i)) + "\n";
    disk += (i == 10 ? "theirs 10" : "line " + std::to_string(i)) + "\n";
  }
  EXPECT_TRUE(conflictStillHolds(conflict, Rope(buffer), disk));
  EXPECT_FALSE(conflictStillHolds(conflict, Rope(disk), disk)); // saved or reloaded: equal
  std::string saved = buffer;                                   // the user saved their side
  EXPECT_FALSE(conflictStillHolds(conflict, Rope(buffer + "more\n"), saved));
  std::string typed_over = disk; // the user changed their line since
  EXPECT_FALSE(conflictStillHolds(conflict, Rope(typed_over + "x\n"), disk));
}

} // namespace
} // namespace hashline::lsp
