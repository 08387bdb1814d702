// Tests of the journal model, hunk splitting, hunk location, undo rebase and conflicts, rewind
// and net diffs (engine/journal).
#include "engine/diff/line_diff.h"
#include "engine/journal/hunk_locator.h"
#include "engine/journal/hunk_split.h"
#include "engine/journal/journal.h"
#include "engine/journal/rewind_planner.h"

#include <gtest/gtest.h>
#include <random>
#include <string>

namespace hashline::journal {
namespace {

std::string numbered(int count, int changed_from = 0, int changed_to = -1, std::string tag = "") {
  std::string text;
  for (int i = 1; i <= count; ++i)
    text += (i >= changed_from && i <= changed_to ? tag : std::string("line ")) +
            std::to_string(i) + "\n";
  return text;
}

std::string replaceLine(std::string text, int line1, const std::string& with) {
  std::size_t at = 0;
  for (int i = 1; i < line1; ++i)
    at = text.find('\n', at) + 1;
  std::size_t end = text.find('\n', at);
  return text.substr(0, at) + with + text.substr(end);
}

std::string insertLine(std::string text, int before_line1, const std::string& line) {
  std::size_t at = 0;
  for (int i = 1; i < before_line1; ++i)
    at = text.find('\n', at) + 1;
  return text.substr(0, at) + line + "\n" + text.substr(at);
}

JournalOp makeOp(std::uint64_t id, const std::string& before, const std::string& after,
                 std::int64_t turn = 1) {
  JournalOp op;
  op.id = id;
  op.method = "edit";
  op.turn = turn;
  op.name = "f.txt";
  op.hunks = splitIntoHunks(before, after);
  return op;
}

Result<std::string> undo(const std::string& current, const JournalOp& op) {
  std::vector<ReversalItem> items;
  for (const JournalHunk& hunk : op.hunks)
    if (hunk.state != HunkState::Reverted) items.push_back({{op.id, hunk.index}, &hunk});
  Result<Reversal> reversal = planReversal(current, items, op.name);
  if (!reversal) return reversal.error();
  return reversal->text_after;
}

TEST(HunkRef, ParsesAndFormats) {
  EXPECT_EQ(parseHunkRef("12"), (HunkRef{12, 0}));
  EXPECT_EQ(parseHunkRef("12#3"), (HunkRef{12, 3}));
  EXPECT_EQ(parseHunkRef("op7#1"), (HunkRef{7, 1}));
  EXPECT_FALSE(parseHunkRef("x"));
  EXPECT_FALSE(parseHunkRef("0"));
  EXPECT_FALSE(parseHunkRef("3#"));
  EXPECT_FALSE(parseHunkRef("3#0"));
  EXPECT_EQ(formatHunkRef({4, 2}), "4#2");
  EXPECT_EQ(formatHunkRef({4, 0}), "4");
}

TEST(HunkSplit, OneHunkPerChangedRunWithContext) {
  std::string before = numbered(30);
  std::string after = replaceLine(replaceLine(before, 5, "five"), 20, "twenty");
  std::vector<JournalHunk> hunks = splitIntoHunks(before, after);
  ASSERT_EQ(hunks.size(), 2u);
  EXPECT_EQ(hunks[0].index, 1u);
  EXPECT_EQ(hunks[0].before_line, 4u);
  EXPECT_EQ(hunks[0].before_text, "line 5\n");
  EXPECT_EQ(hunks[0].after_text, "five\n");
  ASSERT_EQ(hunks[0].context_before.size(), 3u);
  EXPECT_EQ(hunks[0].context_before.back(), "line 4\n");
  EXPECT_EQ(hunks[0].context_after.front(), "line 6\n");
  EXPECT_FALSE(hunks[0].context_reaches_start);
  EXPECT_EQ(hunks[1].index, 2u);
  EXPECT_EQ(hunks[1].after_line, 19u);
}

TEST(HunkSplit, IdenticalTextsHaveNoHunks) {
  EXPECT_TRUE(splitIntoHunks("a\nb\n", "a\nb\n").empty());
}

TEST(Undo, RestoresLinesAndKeepsUserTypingElsewhere) {
  std::string before = numbered(50);
  std::string after = before;
  for (int line = 10; line <= 12; ++line)
    after = replaceLine(after, line, "agent " + std::to_string(line));
  JournalOp op = makeOp(1, before, after);
  ASSERT_EQ(op.hunks.size(), 1u);
  // The user edits line 40 and adds two lines at the top.
  std::string current =
      insertLine(insertLine(replaceLine(after, 40, "user 40"), 1, "top"), 1, "top2");
  Result<std::string> undone = undo(current, op);
  ASSERT_TRUE(undone) << undone.error().message;
  std::string expected =
      insertLine(insertLine(replaceLine(before, 40, "user 40"), 1, "top"), 1, "top2");
  EXPECT_EQ(*undone, expected);
}

TEST(Undo, ConflictWhenTheUserChangedTheLines) {
  std::string before = numbered(50);
  std::string after = before;
  for (int line = 10; line <= 12; ++line)
    after = replaceLine(after, line, "agent " + std::to_string(line));
  JournalOp op = makeOp(3, before, after);
  std::string current = replaceLine(after, 11, "agent 11 plus user");
  Result<std::string> undone = undo(current, op);
  ASSERT_FALSE(undone);
  EXPECT_EQ(undone.error().code, ErrorCode::Conflict);
  EXPECT_NE(undone.error().message.find("lines 10-12"), std::string::npos)
      << undone.error().message;
  EXPECT_NE(undone.error().message.find("3#1"), std::string::npos);
  EXPECT_EQ(undone.error().data.candidate_lines, (std::vector<std::uint32_t>{10, 11, 12}));
}

TEST(Undo, DuplicateTextIsFoundByItsContextNotTheFirstMatch) {
  std::string before = "a\nx\nb\nc\nd\ne\nf\ng\nx\nh\n";
  std::string after = "a\nx\nb\nc\nd\ne\nf\ng\nY\nh\n"; // line 9 x → Y
  JournalOp op = makeOp(1, before, after);
  // Elsewhere the user writes another Y with different neighbours, above the hunk.
  std::string current = "a\nY\nb\nc\nd\ne\nf\ng\nY\nh\n";
  Result<std::string> undone = undo(current, op);
  ASSERT_TRUE(undone) << undone.error().message;
  EXPECT_EQ(*undone, "a\nY\nb\nc\nd\ne\nf\ng\nx\nh\n");
}

TEST(Undo, RefusesWhenBothNeighboursChangedAndTheTextIsElsewhere) {
  std::string before = numbered(20);
  std::string after = replaceLine(before, 10, "common");
  JournalOp op = makeOp(1, before, after);
  // The user rewrote line 10's whole neighbourhood; "common" also appears at line 2.
  std::string current = after;
  for (int line = 7; line <= 13; ++line)
    if (line != 10) current = replaceLine(current, line, "user " + std::to_string(line));
  current = replaceLine(current, 2, "common");
  Result<std::string> undone = undo(current, op);
  ASSERT_FALSE(undone);
  EXPECT_EQ(undone.error().code, ErrorCode::Conflict);
}

TEST(Undo, PureInsertionAndDeletion) {
  std::string before = numbered(10);
  std::string inserted = insertLine(before, 5, "new");
  JournalOp insert = makeOp(1, before, inserted);
  Result<std::string> back = undo(replaceLine(inserted, 1, "user"), insert);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, replaceLine(before, 1, "user"));

  std::string deleted = numbered(10);
  deleted.erase(deleted.find("line 5\n"), 7);
  JournalOp remove = makeOp(2, before, deleted);
  Result<std::string> restored = undo(insertLine(deleted, 1, "top"), remove);
  ASSERT_TRUE(restored) << restored.error().message;
  EXPECT_EQ(*restored, insertLine(before, 1, "top"));
}

TEST(Undo, LastLineWithoutNewline) {
  JournalOp op = makeOp(1, "a\nb", "a\nc");
  Result<std::string> back = undo("z\na\nc", op);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(*back, "z\na\nb");
}

// The definition of where a hunk is: every place its after-lines match, best context score,
// then nearest to where the op left it, then the first. A scan of the whole text — what the
// indexed HunkLocator must answer exactly (place, or the same CONFLICT message).
Result<std::uint32_t> scanForHunk(const std::vector<std::string_view>& lines,
                                  const JournalHunk& hunk) {
  std::vector<std::string_view> wanted = splitLinesKeepingEnds(hunk.after_text);
  const std::size_t n = wanted.size();
  auto refuse = [](const char* why) { return Error::make(ErrorCode::Conflict, why); };
  if (lines.size() < n) return refuse("its lines are no longer there");
  const auto& above = hunk.context_before;
  const auto& below = hunk.context_after;
  int best = -1;
  std::size_t best_at = 0, candidates = 0;
  auto distance = [&](std::size_t at) {
    return at > hunk.after_line ? at - hunk.after_line : hunk.after_line - at;
  };
  for (std::size_t at = 0; at + n <= lines.size(); ++at) {
    bool same = true;
    for (std::size_t i = 0; i < n && same; ++i)
      same = lines[at + i] == wanted[i];
    if (!same) continue;
    ++candidates;
    int points = 0;
    std::size_t k = 0;
    while (k < above.size() && at >= k + 1 && lines[at - 1 - k] == above[above.size() - 1 - k])
      ++k, ++points;
    if (k == above.size() && hunk.context_reaches_start && at == above.size()) ++points;
    k = 0;
    while (k < below.size() && at + n + k < lines.size() && lines[at + n + k] == below[k])
      ++k, ++points;
    if (k == below.size() && hunk.context_reaches_end && at + n + below.size() == lines.size())
      ++points;
    if (points > best || (points == best && distance(at) < distance(best_at))) {
      best = points;
      best_at = at;
    }
  }
  if (candidates == 0) return refuse("its lines were changed since");
  bool had_neighbours =
      !above.empty() || !below.empty() || !hunk.context_reaches_start || !hunk.context_reaches_end;
  if (best <= 0 && (had_neighbours || n == 0))
    return refuse("the lines around it were changed since");
  return static_cast<std::uint32_t>(best_at);
}

TEST(HunkLocator, AnswersExactlyWhatAScanOfTheTextAnswers) {
  // Texts of few distinct lines (many duplicate places, ties, ends of text), hunks from real
  // splits of random edits, located in texts changed again since. Deletions, insertions,
  // replacements, hunks at both ends.
  std::mt19937 random(8);
  const char* alphabet[] = {"a\n", "b\n", "c\n", "d\r\n", "e\r"}; // CR ends lines too
  auto randomText = [&](std::size_t lines) {
    std::string text;
    for (std::size_t i = 0; i < lines; ++i)
      text += alphabet[random() % 5];
    return text;
  };
  auto mutate = [&](std::string text) {
    std::vector<std::string_view> lines = splitLinesKeepingEnds(text);
    std::size_t at = lines.empty() ? 0 : random() % (lines.size() + 1);
    std::size_t drop =
        std::min<std::size_t>(random() % 3, lines.size() - std::min(at, lines.size()));
    std::string out;
    for (std::size_t i = 0; i < at && i < lines.size(); ++i)
      out += lines[i];
    out += randomText(random() % 3);
    for (std::size_t i = at + drop; i < lines.size(); ++i)
      out += lines[i];
    return out;
  };
  std::size_t compared = 0, found = 0, refused = 0, in_place_found = 0;
  for (int round = 0; round < 1500; ++round) {
    std::string before = randomText(1 + random() % 14);
    std::string after = mutate(before);
    std::vector<JournalHunk> hunks = splitIntoHunks(before, after);
    std::string current = after;
    for (int k = static_cast<int>(random() % 3); k > 0; --k) // none: the hunks are in place
      current = mutate(current);
    std::vector<std::string_view> lines = splitLinesKeepingEnds(current);
    // Half the rounds give the locator every hunk up front, half let it index each on demand.
    std::vector<const JournalHunk*> given;
    if (round % 2 == 0)
      for (const JournalHunk& hunk : hunks)
        given.push_back(&hunk);
    // The locator reads the lines as a list of views in some rounds, in place on a rope in
    // others: both must answer as the scan does.
    const ViewLines as_views(lines);
    const Rope rope(current);
    const RopeLineSource as_rope(rope);
    HunkLocator locator(round % 3 == 0 ? static_cast<const LineSource&>(as_rope) : as_views, given);
    for (const JournalHunk& hunk : hunks) {
      Result<std::uint32_t> expected = scanForHunk(lines, hunk);
      Result<std::uint32_t> got = locator.locate(hunk, {1, hunk.index}, "f.txt");
      // The fast path answers only when it answers exactly what the locator does.
      if (std::optional<std::uint32_t> in_place = locateInPlace(Rope(current), hunk)) {
        ASSERT_TRUE(got) << "round " << round << ": in place at " << *in_place << ", but "
                         << got.error().message;
        ASSERT_EQ(*in_place, *got) << "round " << round;
        ++in_place_found;
      }
      ++compared;
      ASSERT_EQ(static_cast<bool>(got), static_cast<bool>(expected))
          << "round " << round << ": " << (got ? "found" : got.error().message);
      if (expected) {
        ASSERT_EQ(*got, *expected) << "round " << round;
        ++found;
      } else {
        ASSERT_NE(got.error().message.find(expected.error().message), std::string::npos)
            << "round " << round << ": " << got.error().message;
        ++refused;
      }
    }
  }
  // Both outcomes must have been exercised, or the comparison proves little.
  EXPECT_GT(found, 300u);
  EXPECT_GT(refused, 100u);
  EXPECT_GT(compared, 1000u);
  EXPECT_GT(in_place_found, 100u);
}

TEST(Reject, OneHunkOfThreeKeepsTheOthersAndTheTyping) {
  std::string before = numbered(60);
  std::string after = replaceLine(replaceLine(replaceLine(before, 10, "h1"), 30, "h2"), 50, "h3");
  JournalOp op = makeOp(1, before, after);
  ASSERT_EQ(op.hunks.size(), 3u);
  // The user types next to hunk 2 and above hunk 1.
  std::string current = insertLine(replaceLine(after, 31, "user near h2"), 2, "user top");
  std::vector<ReversalItem> items = {{{1, 1}, &op.hunks[0]}, {{1, 3}, &op.hunks[2]}};
  Result<Reversal> reversal = planReversal(current, items, "f.txt");
  ASSERT_TRUE(reversal) << reversal.error().message;
  std::string expected =
      insertLine(replaceLine(replaceLine(before, 30, "h2"), 31, "user near h2"), 2, "user top");
  EXPECT_EQ(reversal->text_after, expected);
  ASSERT_EQ(reversal->located.size(), 2u);
  EXPECT_EQ(reversal->located[0].line, 10u); // moved down one by the typing
}

TEST(JournalModel, IdsTurnsAndRevertBookkeeping) {
  Journal journal;
  JournalOp first = makeOp(0, "a\n", "b\n");
  const JournalOp& recorded = journal.record(first);
  EXPECT_EQ(recorded.id, 1u);
  EXPECT_EQ(journal.currentTurn("default"), 1);
  EXPECT_EQ(journal.beginTurn("default"), 2);
  EXPECT_EQ(journal.beginTurn("other", 7), 7);
  JournalOp undo_op = makeOp(0, "b\n", "a\n", 2);
  undo_op.method = "undo";
  undo_op.reverts = {{1, 0}};
  journal.record(undo_op);
  EXPECT_EQ(journal.find(1)->hunks[0].state, HunkState::Reverted);
  EXPECT_EQ(journal.find(1)->hunks[0].reverted_by, 2u);
  EXPECT_FALSE(journal.find(1)->inEffect());
  // Undoing the undo puts op 1 back in effect.
  JournalOp redo = makeOp(0, "a\n", "b\n", 2);
  redo.method = "undo";
  redo.reverts = {{2, 0}};
  journal.record(redo);
  EXPECT_EQ(journal.find(2)->hunks[0].state, HunkState::Reverted);
  EXPECT_EQ(journal.find(1)->hunks[0].state, HunkState::Pending);
  // Review state.
  EXPECT_EQ(journal.setHunkState({1, 1}, HunkState::Accepted).size(), 1u);
  EXPECT_TRUE(journal.setHunkState({1, 1}, HunkState::Accepted).empty());
  EXPECT_TRUE(journal.setHunkState({99, 0}, HunkState::Accepted).empty());
  LogFilter filter;
  filter.turn = 2;
  EXPECT_EQ(journal.query(filter).size(), 2u);
  filter.limit = 1;
  ASSERT_EQ(journal.query(filter).size(), 1u);
  EXPECT_EQ(journal.query(filter)[0]->id, 3u);
  journal.dropOldest(1);
  EXPECT_EQ(journal.find(1), nullptr);
  EXPECT_NE(journal.find(3), nullptr);
}

TEST(Rewind, ThreeOpsNewestFirstEvenWhenTheyOverlap) {
  std::string v0 = numbered(40);
  std::string v1 = replaceLine(v0, 10, "op1");
  std::string v2 = replaceLine(v1, 10, "op2 over op1"); // touches op1's line
  std::string v3 = insertLine(v2, 30, "op3");
  JournalOp op1 = makeOp(1, v0, v1), op2 = makeOp(2, v1, v2), op3 = makeOp(3, v2, v3);
  std::string current = replaceLine(v3, 1, "user");
  Result<RewindPlan> plan = planRewind(current, {&op1, &op2, &op3}, "f.txt");
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(plan->text_after, replaceLine(v0, 1, "user"));
  ASSERT_EQ(plan->reverts.size(), 3u);
  EXPECT_EQ(plan->reverts[0].op, 3u);
  EXPECT_EQ(plan->reverts[2].op, 1u);
}

TEST(Rewind, RefusedWholeOnAConflict) {
  std::string v0 = numbered(40);
  std::string v1 = replaceLine(v0, 10, "op1");
  std::string v2 = replaceLine(v1, 20, "op2");
  JournalOp op1 = makeOp(1, v0, v1), op2 = makeOp(2, v1, v2);
  std::string current = replaceLine(v2, 10, "user over op1");
  Result<RewindPlan> plan = planRewind(current, {&op1, &op2}, "f.txt");
  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.error().code, ErrorCode::Conflict);
  EXPECT_NE(plan.error().message.find("1#1"), std::string::npos);
}

TEST(NetDiff, EmptyWhenLaterOpsUndidEarlierOnes) {
  std::string v0 = numbered(20);
  std::string v1 = replaceLine(v0, 5, "changed");
  JournalOp op1 = makeOp(1, v0, v1);
  JournalOp op2 = makeOp(2, v1, v0);
  op2.method = "undo";
  op2.reverts = {{1, 0}};
  Journal journal;
  journal.record(op1);
  journal.record(op2);
  std::vector<const JournalOp*> ops = {journal.find(1), journal.find(2)};
  Result<std::string> diff = netDiff(v0, ops, "f.txt");
  ASSERT_TRUE(diff) << diff.error().message;
  EXPECT_EQ(*diff, "");
  // Only op1: the diff shows its change, not the user's typing.
  std::string typed = replaceLine(v1, 15, "user");
  Result<std::string> one = netDiff(typed, {&op1}, "f.txt");
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_NE(one->find("-line 5\n+changed\n"), std::string::npos) << *one;
  EXPECT_EQ(one->find("user"), std::string::npos) << *one;
}

TEST(CommitDiff, RendersHunksWithContext) {
  JournalOp op = makeOp(4, numbered(10), replaceLine(numbered(10), 5, "five"));
  std::string diff = commitDiff(op);
  EXPECT_NE(diff.find("--- a/f.txt\n+++ b/f.txt\n@@ -2,7 +2,7 @@ 4#1 pending\n"), std::string::npos)
      << diff;
  EXPECT_NE(diff.find(" line 4\n-line 5\n+five\n line 6\n"), std::string::npos) << diff;
}

// Decisions are not reviews (issue 34): the hunks of an op that reverts are `decision`, never
// pending; accept leaves them alone; undoing the decision makes the agent's hunk pending again.
TEST(Decision, AReversalIsNeverPendingAndUndoingItReinstatesTheAgentsHunk) {
  Journal journal;
  const std::string before = numbered(20);
  const std::string after = replaceLine(replaceLine(before, 3, "A3"), 15, "A15");
  journal.record(makeOp(0, before, after));
  ASSERT_EQ(journal.find(1)->hunks.size(), 2u);

  JournalOp reject = makeOp(0, after, replaceLine(after, 15, "line 15"));
  reject.method = "reject";
  reject.reverts = {{1, 2}};
  const JournalOp& recorded = journal.record(reject);
  EXPECT_TRUE(recorded.isDecision());
  ASSERT_EQ(recorded.hunks.size(), 1u);
  EXPECT_EQ(recorded.hunks[0].state, HunkState::Decision);
  EXPECT_EQ(hunkStateName(recorded.hunks[0].state), "decision");
  EXPECT_EQ(journal.find(1)->hunks[1].state, HunkState::Reverted);
  EXPECT_TRUE(journal.setHunkState({2, 0}, HunkState::Accepted).empty()); // not a review
  EXPECT_EQ(journal.find(2)->hunks[0].state, HunkState::Decision);

  // A journal of older hashlines recorded the reversal's hunks as pending: read as a decision.
  JournalOp old_style = makeOp(0, after, after + "x\n");
  old_style.reverts = {{1, 1}};
  old_style.hunks[0].state = HunkState::Pending;
  EXPECT_EQ(journal.record(old_style).hunks[0].state, HunkState::Decision);

  // Undo of the reject: the agent's hunk is back in effect, pending review again.
  JournalOp undo_reject = makeOp(0, after, after);
  undo_reject.method = "undo";
  undo_reject.reverts = {{2, 0}};
  journal.record(undo_reject);
  EXPECT_EQ(journal.find(2)->hunks[0].state, HunkState::Reverted);
  EXPECT_EQ(journal.find(1)->hunks[1].state, HunkState::Pending);
  EXPECT_EQ(hunkStateFromName("decision"), HunkState::Decision);
  EXPECT_EQ(hunkStateFromName("nonsense"), std::nullopt);
}

} // namespace
} // namespace hashline::journal
