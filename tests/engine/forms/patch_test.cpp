// Tests of the codex patch form (engine/forms/patch_parser.h, patch_plan.h): grammar leniencies,
// the seek ladder, hashline's deliberate differences from codex (ambiguity, @@ additions,
// whole-patch verification), CRLF and BOM files.
#include "engine/forms/patch_plan.h"

#include <gtest/gtest.h>
#include <map>

namespace hashline::forms {
namespace {

using Files = std::map<std::string, std::string>;

PatchFileReader readerOf(const Files& files) {
  return [&files](const std::string& path) -> Result<std::optional<FileSnapshot>> {
    auto it = files.find(lexicalPath(path));
    if (it == files.end()) return std::optional<FileSnapshot>();
    return std::optional<FileSnapshot>(FileSnapshot{Rope(it->second), 3});
  };
}

Result<PatchPlan> plan(const std::string& patch, const Files& files) {
  return planPatch(patch, readerOf(files));
}

// The new text of the single file a patch updates.
std::string updated(const std::string& patch, const std::string& before) {
  Files files{{"f.txt", before}};
  Result<PatchPlan> result = plan(patch, files);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
  if (!result.ok() || result->files.size() != 1 || !result->files[0].new_text) return "<error>";
  return result->files[0].new_text->toString();
}

std::string update(const std::string& body) {
  return "*** Begin Patch\n*** Update File: f.txt\n" + body + "*** End Patch\n";
}

TEST(PatchParser, ParsesAllOperations) {
  Result<Patch> patch =
      parsePatch("*** Begin Patch\n*** Add File: a.txt\n+x\n+\n*** Delete File: "
                 "b.txt\n*** Update File: c.txt\n*** Move to: d.txt\n@@ def f():\n"
                 " ctx\n-old\n+new\n*** End of File\n*** End Patch");
  ASSERT_TRUE(patch.ok()) << patch.error().message;
  ASSERT_EQ(patch->hunks.size(), 3u);
  EXPECT_EQ(patch->hunks[0].kind, PatchHunk::Add);
  EXPECT_EQ(patch->hunks[0].add_content, "x\n\n");
  EXPECT_EQ(patch->hunks[1].kind, PatchHunk::Delete);
  EXPECT_EQ(patch->hunks[1].path, "b.txt");
  const PatchHunk& u = patch->hunks[2];
  EXPECT_EQ(u.move_to, std::optional<std::string>("d.txt"));
  ASSERT_EQ(u.chunks.size(), 1u);
  EXPECT_EQ(u.chunks[0].contexts, std::vector<std::string>{"def f():"});
  EXPECT_TRUE(u.chunks[0].end_of_file);
  ASSERT_EQ(u.chunks[0].lines.size(), 3u);
  EXPECT_EQ(u.chunks[0].lines[1].kind, PatchLine::Remove);
  EXPECT_EQ(u.chunks[0].lines[1].text, "old");
}

TEST(PatchParser, HeredocCrlfAndEnvironmentId) {
  Result<Patch> patch =
      parsePatch("<<'EOF'\r\n*** Begin Patch\r\n*** Environment ID: env-1\r\n*** Add File: "
                 "a\r\n+x\r\n*** End Patch\r\nEOF\r\n");
  ASSERT_TRUE(patch.ok()) << patch.error().message;
  EXPECT_EQ(patch->environment_id, std::optional<std::string>("env-1"));
  EXPECT_EQ(patch->hunks.at(0).add_content, "x\n");
  // Mismatched heredoc quotes are not unwrapped.
  EXPECT_FALSE(
      parsePatch("<<\"EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF").ok());
}

TEST(PatchParser, ToleratesDuplicatedEndButNotTrailingText) {
  EXPECT_TRUE(parsePatch("*** Begin Patch\n*** Delete File: a\n*** End Patch\n*** End Patch").ok());
  Result<Patch> bad = parsePatch("*** Begin Patch\n*** Delete File: a\n*** End Patch\nhello\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::PatchInvalid);
}

TEST(PatchParser, ErrorsCarryLineNumbers) {
  Result<Patch> patch =
      parsePatch("*** Begin Patch\n*** Update File: f\n@@\n ok\nbogus\n*** End Patch");
  ASSERT_FALSE(patch.ok());
  EXPECT_EQ(patch.error().code, ErrorCode::PatchInvalid);
  EXPECT_NE(patch.error().message.find("line 5"), std::string::npos);
  EXPECT_NE(patch.error().message.find("Expected update hunk to start with a @@ context marker"),
            std::string::npos);
  Result<Patch> header = parsePatch("*** Begin Patch\n*** Frobnicate File: x\n*** End Patch");
  ASSERT_FALSE(header.ok());
  EXPECT_NE(header.error().message.find("is not a valid hunk header"), std::string::npos);
  EXPECT_FALSE(parsePatch("*** Begin Patch\n*** Add File: a\n+x\n").ok());
  EXPECT_FALSE(parsePatch("hello\n*** End Patch").ok());
  Result<Patch> empty_update = parsePatch("*** Begin Patch\n*** Update File: f\n*** End Patch");
  ASSERT_FALSE(empty_update.ok());
  EXPECT_NE(empty_update.error().message.find("is empty"), std::string::npos);
  EXPECT_FALSE(parsePatch("*** Begin Patch\n*** Update File: f\n@@\n*** End Patch").ok());
}

TEST(PatchParser, StackedContextHeadersAreASuperset) {
  Result<Patch> patch = parsePatch(
      "*** Begin Patch\n*** Update File: f\n@@ class A\n@@ def f():\n-x\n+y\n*** End Patch");
  ASSERT_TRUE(patch.ok()) << patch.error().message;
  EXPECT_EQ(patch->hunks[0].chunks[0].contexts, (std::vector<std::string>{"class A", "def f():"}));
}

TEST(PatchPlan, AmbiguousContextIsRefusedWhereCodexPicksTheFirst) {
  // codex 0.171 edits the first "x" silently; hashline refuses and lists both places.
  Files files{{"f.txt", "x\ny\nx\ny\n"}};
  Result<PatchPlan> result = plan(update("@@\n-x\n+z\n"), files);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::Ambiguous);
  EXPECT_EQ(result.error().data.candidate_lines, (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(result.error().data.path, std::optional<std::string>("f.txt"));
}

TEST(PatchPlan, ContextHeaderDisambiguates) {
  std::string before = "def a():\n    x = 1\ndef b():\n    x = 1\n";
  EXPECT_EQ(updated(update("@@ def b():\n-    x = 1\n+    x = 2\n"), before),
            "def a():\n    x = 1\ndef b():\n    x = 2\n");
}

TEST(PatchPlan, AmbiguousHeaderLeadingToDifferentPlacesIsRefused) {
  Files files{{"f.txt", "def f():\n    return 1\ndef f():\n    return 1\n"}};
  Result<PatchPlan> result = plan(update("@@ def f():\n-    return 1\n+    return 2\n"), files);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::Ambiguous);
}

TEST(PatchPlan, StackedHeadersNarrowInTurn) {
  std::string before = "class A:\n  def f():\n    v\nclass B:\n  def f():\n    v\n";
  EXPECT_EQ(updated(update("@@ class B:\n@@   def f():\n-    v\n+    w\n"), before),
            "class A:\n  def f():\n    v\nclass B:\n  def f():\n    w\n");
}

TEST(PatchPlan, PureAdditionHonoursContextHeader) {
  // codex appends at EOF (issue #30946); hashline inserts after the @@ line.
  EXPECT_EQ(updated(update("@@ def f():\n+    pass\n"), "def f():\ndef g():\n    return\n"),
            "def f():\n    pass\ndef g():\n    return\n");
  // Without a header the addition goes to the end (codex scenario 016).
  EXPECT_EQ(updated(update("@@\n+tail\n"), "a\nb\n"), "a\nb\ntail\n");
}

TEST(PatchPlan, HeaderLineMayBeTheFirstOldLine) {
  // codex fails with "failed to find expected lines"; hashline accepts it.
  EXPECT_EQ(
      updated(update("@@ def f():\n-def f():\n+def g():\n     pass\n"), "x\ndef f():\n    pass\n"),
      "x\ndef g():\n    pass\n");
}

TEST(PatchPlan, LaterExactBeatsEarlierFuzzy) {
  EXPECT_EQ(updated(update("@@\n-x\n+z\n"), "x \nx\n"), "x \nz\n");
}

TEST(PatchPlan, SeekLadderTrimAndPunctuationFold) {
  // trim: pattern without indentation matches an indented line (replacement as written).
  EXPECT_EQ(updated(update("@@\n-foo\n+bar\n"), "    foo\n"), "bar\n");
  // punctuation fold: typographic quotes and an en dash in the file.
  EXPECT_EQ(updated(update("@@\n-say(\"hi\") - now\n+ok\n"),
                    "say(\xE2\x80\x9Chi\xE2\x80\x9D) \xE2\x80\x93 now\n"),
            "ok\n");
}

TEST(PatchPlan, ContextLinesKeepTheirBytes) {
  // Fuzzy-matched context lines are not rewritten (codex preserve mode).
  std::string before = "a  \n\xE2\x80\x9Cq\xE2\x80\x9D\nold\n";
  EXPECT_EQ(updated(update("@@\n a\n \"q\"\n-old\n+new\n"), before),
            "a  \n\xE2\x80\x9Cq\xE2\x80\x9D\nnew\n");
}

TEST(PatchPlan, EndOfFileAnchorsToTheLastLines) {
  EXPECT_EQ(updated(update("@@\n-x\n+y\n*** End of File\n"), "x\nm\nx\n"), "x\nm\ny\n");
  Files files{{"f.txt", "x\nm\n"}};
  Result<PatchPlan> result = plan(update("@@\n-x\n+y\n*** End of File\n"), files);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::NotFound);
  EXPECT_NE(result.error().message.find("last lines"), std::string::npos);
}

TEST(PatchPlan, ChunksMustBeInFileOrder) {
  Files files{{"f.txt", "a\nb\nc\n"}};
  EXPECT_FALSE(plan(update("@@\n-c\n+C\n@@\n-a\n+A\n"), files).ok());
  EXPECT_EQ(updated(update("@@\n-a\n+A\n@@\n-c\n+C\n"), "a\nb\nc\n"), "A\nb\nC\n");
}

TEST(PatchPlan, TrailingEmptyOldLineRetry) {
  EXPECT_EQ(updated(update("@@\n a\n-b\n+B\n \n"), "a\nb\n"), "a\nB\n");
}

TEST(PatchPlan, NotFoundQuotesTheLinesWithClosestMatch) {
  Files files{{"f.txt", "alpha\nbeta\ngamma\n"}};
  Result<PatchPlan> result = plan(update("@@\n alpha\n-betta\n+b\n"), files);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::NotFound);
  EXPECT_NE(result.error().message.find("failed to find expected lines"), std::string::npos);
  EXPECT_NE(result.error().message.find("betta"), std::string::npos);
  ASSERT_TRUE(result.error().data.current_text.has_value());
  EXPECT_NE(result.error().data.current_text->find("   1: alpha"), std::string::npos);
  Result<PatchPlan> context = plan(update("@@ nothing here\n-alpha\n+a\n"), files);
  ASSERT_FALSE(context.ok());
  EXPECT_NE(context.error().message.find("failed to find context 'nothing here'"),
            std::string::npos);
}

TEST(PatchPlan, WholePatchVerifiedBeforeAnything) {
  Files files{{"a.txt", "one\n"}, {"b.txt", "two\n"}};
  Result<PatchPlan> result =
      plan("*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** Update File: b.txt\n@@\n"
           "-three\n+3\n*** End Patch",
           files);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::NotFound);
  EXPECT_EQ(result.error().data.path, std::optional<std::string>("b.txt"));
}

TEST(PatchPlan, MissingFilesAndDuplicateTargets) {
  Files files{{"a.txt", "x\n"}};
  Result<PatchPlan> del = plan("*** Begin Patch\n*** Delete File: nope\n*** End Patch", files);
  ASSERT_FALSE(del.ok());
  EXPECT_EQ(del.error().code, ErrorCode::FileNotFound);
  Result<PatchPlan> dup = plan(
      "*** Begin Patch\n*** Delete File: a.txt\n*** Add File: ./a.txt\n+y\n*** End Patch", files);
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().code, ErrorCode::PatchInvalid);
  EXPECT_EQ(plan("*** Begin Patch\n*** End Patch", files).error().code, ErrorCode::PatchInvalid);
}

TEST(PatchPlan, ReaderErrorsPassThrough) {
  PatchFileReader failing = [](const std::string&) -> Result<std::optional<FileSnapshot>> {
    return Error::make(ErrorCode::NotText, "binary");
  };
  Result<PatchPlan> result =
      planPatch("*** Begin Patch\n*** Update File: x\n@@\n-a\n+b\n*** End Patch", failing);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, ErrorCode::NotText);
}

TEST(PatchPlan, PlanKindsPathsAndEditPlans) {
  Files files{{"m.txt", "keep\nold\n"}, {"d.txt", "gone\n"}};
  Result<PatchPlan> result =
      plan("*** Begin Patch\n*** Add File: n.txt\n+new\n*** Delete File: d.txt\n*** Update File: "
           "m.txt\n*** Move to: sub/m2.txt\n@@\n keep\n-old\n+fresh\n*** End Patch",
           files);
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result->files.size(), 3u);
  EXPECT_EQ(result->files[0].kind, PatchFileKind::Add);
  EXPECT_FALSE(result->files[0].base.has_value());
  EXPECT_EQ(result->files[1].kind, PatchFileKind::Delete);
  EXPECT_FALSE(result->files[1].new_text.has_value());
  const PatchFilePlan& move = result->files[2];
  EXPECT_EQ(move.kind, PatchFileKind::Move);
  EXPECT_EQ(move.new_path, "sub/m2.txt");
  EXPECT_EQ(move.plan.base_version, 3);
  ASSERT_EQ(move.plan.edits.size(), 1u);
  EXPECT_EQ(move.plan.edits[0], (ByteEdit{5, 9, "fresh\n"}));
  EXPECT_EQ(move.new_text->toString(), "keep\nfresh\n");
}

TEST(PatchPlan, MoveWithoutChunksIsARename) {
  Files files{{"a.txt", "x\n"}};
  Result<PatchPlan> result =
      plan("*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch", files);
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result->files[0].new_text->toString(), "x\n");
  EXPECT_TRUE(result->files[0].plan.edits.empty());
}

TEST(PatchPlan, CrlfFileGetsCrlfLines) {
  EXPECT_EQ(updated(update("@@\n a\n-b\n+B\n+C\n"), "a\r\nb\r\nc\r\n"), "a\r\nB\r\nC\r\nc\r\n");
}

TEST(PatchPlan, BomIsIgnoredForMatchingAndKept) {
  // codex cannot patch line 1 of a BOM file (issue #27784); hashline can.
  EXPECT_EQ(updated(update("@@\n-first\n+FIRST\n second\n"), "\xEF\xBB\xBF"
                                                             "first\nsecond\n"),
            "\xEF\xBB\xBF"
            "FIRST\nsecond\n");
}

TEST(PatchPlan, UnterminatedLastLineUntouchedStaysUnterminated) {
  EXPECT_EQ(updated(update("@@\n-a\n+A\n b\n"), "a\nb"), "A\nb");
  EXPECT_EQ(updated(update("@@\n a\n+b\n"), "a"), "a\nb\n");
}

TEST(PatchPlan, EmptyFileAcceptsAddition) {
  EXPECT_EQ(updated(update("@@\n+x\n"), ""), "x\n");
}

} // namespace
} // namespace hashline::forms
