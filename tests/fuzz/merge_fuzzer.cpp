// Fuzzes the three-way line merge (engine/merge/three_way.h) and the block line index it reads
// base through (engine/text/flat_lines.h).
//
// The input is base, ours and theirs separated by 0x1F, then a byte choosing the rope's leaf size
// and FlatLines' block size (small, so lines, CRLF pairs and blocks cross each other). Texts
// favour line breaks of every kind. Properties:
// - FlatLines has exactly splitLinesKeepingEnds' lines: count, starts, line numbers of offsets;
// - the merge of ours held as a Rope equals the merge of the same text held flat (edits,
//   conflicts, taken hunks);
// - its edits are sorted, non-overlapping and inside ours;
// - with ours == base it takes theirs whole: no conflict, and the edits turn ours into theirs;
//   with theirs == base, or theirs == ours, there is nothing to do.
#include "engine/diff/line_diff.h"
#include "engine/merge/three_way.h"
#include "engine/text/flat_lines.h"
#include "tests/engine/text/rope_pieces.h"
#include "tests/fuzz/fuzz_target.h"

#include <string>
#include <vector>

namespace {

using hashline::Rope;
using hashline::merge::MergeResult;

std::string applyEdits(std::string text, const std::vector<hashline::ByteEdit>& edits) {
  for (auto it = edits.rbegin(); it != edits.rend(); ++it)
    text.replace(it->begin, it->end - it->begin, it->text);
  return text;
}

void checkFlatLines(std::string_view text, std::size_t block) {
  const std::vector<std::string_view> lines = hashline::splitLinesKeepingEnds(text);
  const hashline::FlatLines flat(text, block);
  FUZZ_CHECK(flat.size() == lines.size());
  std::size_t start = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    FUZZ_CHECK(flat.lineStart(i) == start, "line " + std::to_string(i));
    FUZZ_CHECK(flat.linesBefore(start) == i, "line " + std::to_string(i));
    if (lines[i].size() > 1) FUZZ_CHECK(flat.linesBefore(start + 1) == i);
    start += lines[i].size();
  }
  FUZZ_CHECK(flat.lineStart(lines.size()) == text.size());
  FUZZ_CHECK(flat.linesBefore(text.size()) == lines.size());
}

std::string quotedForReport(std::string_view text) {
  std::string out = "\"";
  for (char c : text)
    out += c == '\n' ? std::string("\\n") : c == '\r' ? std::string("\\r") : std::string(1, c);
  return out + "\"";
}

std::string describe(std::string_view base, std::string_view ours, std::string_view theirs,
                     const MergeResult& result) {
  std::string out = "base " + quotedForReport(base) + ", ours " + quotedForReport(ours) +
                    ", theirs " + quotedForReport(theirs) + "; edits";
  for (const hashline::ByteEdit& edit : result.edits)
    out += " [" + std::to_string(edit.begin) + "," + std::to_string(edit.end) +
           ")=" + quotedForReport(edit.text);
  return out;
}

bool sameMerge(const MergeResult& a, const MergeResult& b) {
  if (a.differs != b.differs || a.edits.size() != b.edits.size() ||
      a.conflicts.size() != b.conflicts.size() || a.taken.size() != b.taken.size())
    return false;
  for (std::size_t i = 0; i < a.edits.size(); ++i)
    if (a.edits[i].begin != b.edits[i].begin || a.edits[i].end != b.edits[i].end ||
        a.edits[i].text != b.edits[i].text)
      return false;
  for (std::size_t i = 0; i < a.conflicts.size(); ++i)
    if (a.conflicts[i].ours_text != b.conflicts[i].ours_text ||
        a.conflicts[i].theirs_text != b.conflicts[i].theirs_text ||
        !(a.conflicts[i].base == b.conflicts[i].base) ||
        !(a.conflicts[i].ours == b.conflicts[i].ours))
      return false;
  for (std::size_t i = 0; i < a.taken.size(); ++i)
    if (!(a.taken[i].base == b.taken[i].base) || !(a.taken[i].theirs == b.taken[i].theirs))
      return false;
  return true;
}

} // namespace

HASHLINE_FUZZ_TARGET(merge) {
  hashline::fuzz::ByteReader input(data, size);
  const std::string base(input.until('\x1f'));
  const std::string ours(input.until('\x1f'));
  const std::string theirs(input.until('\x1f'));
  const std::uint8_t shape = input.byte();
  const std::size_t leaf = 1 + shape % 7;
  const std::size_t block = 1 + shape / 7 % 9;

  checkFlatLines(base, block);
  checkFlatLines(theirs, block);

  const MergeResult flat = hashline::merge::mergeThreeWay(base, ours, theirs);
  const MergeResult roped = hashline::merge::mergeThreeWay(
      base, hashline::testing_model::ropeOfPieces(ours, leaf), theirs);
  FUZZ_CHECK(sameMerge(flat, roped), "the Rope overload merges differently");
  std::size_t end = 0;
  for (const hashline::ByteEdit& edit : flat.edits) {
    FUZZ_CHECK(edit.begin >= end && edit.begin <= edit.end && edit.end <= ours.size(),
               describe(base, ours, theirs, flat));
    end = edit.end;
  }
  if (ours == base) {
    FUZZ_CHECK(flat.conflicts.empty());
    FUZZ_CHECK(applyEdits(ours, flat.edits) == theirs, "a clean buffer must take theirs whole");
  }
  if (theirs == base || theirs == ours) {
    FUZZ_CHECK(flat.edits.empty() && flat.conflicts.empty());
  }
  return 0;
}
