// Tests of the old/new form (engine/forms/replace.h): pi / dsh / Claude Code behaviours and
// hashline-peers.md §9 scenarios 29-35.
#include "engine/forms/replace.h"
#include "tests/engine/forms/forms_test_util.h"

#include <gtest/gtest.h>

namespace hashline::forms {
namespace {

using testing::applied;
using testing::codeOf;

Result<EditPlan> replace(const std::string& text, std::vector<OldNewEdit> edits) {
  return planReplace(Rope(text), 7, edits);
}

std::string replaced(const std::string& text, std::vector<OldNewEdit> edits) {
  Result<EditPlan> plan = replace(text, edits);
  EXPECT_TRUE(plan.ok()) << (plan.ok() ? "" : plan.error().message);
  return plan.ok() ? applied(text, *plan) : "<error>";
}

TEST(Replace, ReplacesUniqueText) {
  Result<EditPlan> plan = replace("alpha\nbeta\ngamma\n", {{"beta", "BETA"}});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->base_version, 7);
  EXPECT_EQ(applied("alpha\nbeta\ngamma\n", *plan), "alpha\nBETA\ngamma\n");
}

TEST(Replace, Scenario29NotFoundHasExcerptAndClosestMatch) {
  std::string text = "alpha\nbeta\ngamma\ndelta\n";
  Result<EditPlan> plan = replace(text, {{"beta\ngamme\n", "x"}});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(codeOf(plan), ErrorCode::NotFound);
  ASSERT_TRUE(plan.error().data.current_text.has_value());
  EXPECT_NE(plan.error().data.current_text->find("   2: beta"), std::string::npos);
  ASSERT_FALSE(plan.error().data.notes.empty());
  EXPECT_NE(plan.error().data.notes[0].find("closest match at line 2"), std::string::npos);
  EXPECT_NE(plan.error().data.notes[0].find("gamme"), std::string::npos);
}

TEST(Replace, Scenario30AmbiguousCountsAndReplaceAll) {
  Result<EditPlan> plan = replace("foo foo foo\n", {{"foo", "bar"}});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(codeOf(plan), ErrorCode::Ambiguous);
  EXPECT_NE(plan.error().message.find("found 3 occurrences"), std::string::npos);
  EXPECT_EQ(plan.error().data.candidate_lines, std::vector<std::uint32_t>{1});
  EXPECT_EQ(replaced("foo foo foo\n", {{"foo", "bar", true}}), "bar bar bar\n");
}

TEST(Replace, AmbiguousListsLines) {
  Result<EditPlan> plan = replace("x = 1\ny\nx = 1\n", {{"x = 1", "x = 2"}});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().data.candidate_lines, (std::vector<std::uint32_t>{1, 3}));
}

TEST(Replace, Scenario31MatchesAgainstOriginalNotIncrementally) {
  EXPECT_EQ(replaced("foo\nbar\nbaz\n", {{"foo\n", "foo bar\n"}, {"bar\n", "BAR\n"}}),
            "foo bar\nBAR\nbaz\n");
}

TEST(Replace, Scenario32OverlapNamesBothEdits) {
  Result<EditPlan> plan = replace("one two three\n", {{"one two", "1 2"}, {"two three", "2 3"}});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(codeOf(plan), ErrorCode::OverlappingEdits);
  EXPECT_NE(plan.error().message.find("edit 1"), std::string::npos);
  EXPECT_NE(plan.error().message.find("edit 2"), std::string::npos);
}

TEST(Replace, Scenario32EmptyOldIsRefused) {
  Result<EditPlan> plan = replace("abc\n", {{"", "x"}});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(codeOf(plan), ErrorCode::NotFound);
  EXPECT_NE(plan.error().message.find("empty"), std::string::npos);
}

TEST(Replace, EmptyBatchIsRefused) {
  EXPECT_FALSE(replace("abc\n", {}).ok());
}

TEST(Replace, BatchErrorNamesTheEdit) {
  Result<EditPlan> plan = replace("a\nb\n", {{"a", "A"}, {"zzz", "Z"}});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().data.edit_index, 1u);
  EXPECT_EQ(plan.error().message.rfind("edit 2/2: ", 0), 0u);
}

TEST(Replace, Scenario33FuzzyLadderKeepsUntouchedBytes) {
  // “hello”, an NBSP, an en dash and trailing spaces in the file; the agent writes ASCII.
  std::string text = "keep   \nsay(\xE2\x80\x9Chello\xE2\x80\x9D)  \na\xC2\xA0"
                     "b \xE2\x80\x93 c\nlast\t\n";
  std::string out = replaced(text, {{"say(\"hello\")\na b - c\n", "say(\"bye\")\na b - c\n"}});
  // The changed line keeps the file's typographic quote style (Claude Code).
  EXPECT_EQ(out, "keep   \nsay(\xE2\x80\x9C"
                 "bye\xE2\x80\x9D)\na\xC2\xA0"
                 "b \xE2\x80\x93 c\nlast\t\n");
}

TEST(Replace, Scenario33DuplicatesCountedAfterNormalization) {
  Result<EditPlan> plan = replace("hello world   \nhello world\n", {{"hello world\n", "x\n"}});
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(codeOf(plan), ErrorCode::Ambiguous);
  EXPECT_NE(plan.error().message.find("found 2 occurrences"), std::string::npos);
}

TEST(Replace, TrailingWhitespaceTier) {
  EXPECT_EQ(replaced("a  \nb\n", {{"a\nb", "A\nB"}}), "A\nB\n");
}

TEST(Replace, NfkcFullwidthAndCombiningAccent) {
  // ＡＢＣ１２３ in the file, ASCII in the needle.
  EXPECT_EQ(
      replaced("x \xEF\xBC\xA1\xEF\xBC\xA2\xEF\xBC\xA3\xEF\xBC\x91\xEF\xBC\x92\xEF\xBC\x93 y\n",
               {{"ABC123", "abc"}}),
      "x abc y\n");
  // café written with a combining acute in the file, precomposed in the needle.
  EXPECT_EQ(replaced("cafe\xCC\x81 ok\n", {{"caf\xC3\xA9", "tea"}}), "tea ok\n");
  // Fullwidth CJK punctuation: （，） vs (,)
  EXPECT_EQ(replaced("f\xEF\xBC\x88"
                     "a\xEF\xBC\x8C"
                     "b\xEF\xBC\x89\n",
                     {{"f(a,b)", "g()"}}),
            "g()\n");
  // ligature ﬁ and ellipsis
  EXPECT_EQ(replaced("\xEF\xAC\x81nd\xE2\x80\xA6\n", {{"find...", "seek"}}), "seek\n");
}

TEST(Replace, SmartQuotesDashesNbsp) {
  EXPECT_EQ(replaced("it\xE2\x80\x99s \xE2\x80\x94 ok\n", {{"it's - ok", "fine"}}), "fine\n");
  EXPECT_EQ(replaced("a\xC2\xA0=\xC2\xA0"
                     "1\n",
                     {{"a = 1", "a = 2"}}),
            "a = 2\n");
}

TEST(Replace, ExactPreferredOverFuzzy) {
  std::string text = "const x = 'exact';\nconst y = \xE2\x80\x98other\xE2\x80\x99;\n";
  EXPECT_EQ(replaced(text, {{"const x = 'exact';", "const x = 1;"}}),
            "const x = 1;\nconst y = \xE2\x80\x98other\xE2\x80\x99;\n");
}

TEST(Replace, StillFailsWhenAbsentAfterNormalization) {
  EXPECT_EQ(codeOf(replace("a \xE2\x80\x9C"
                           "b\xE2\x80\x9D\n",
                           {{"a 'c'", "x"}})),
            ErrorCode::NotFound);
}

TEST(Replace, FuzzyInMultiEdit) {
  EXPECT_EQ(replaced("x\xC2\xA0y\nz  \n", {{"x y", "XY"}, {"z\n", "Z\n"}}), "XY\nZ\n");
}

TEST(Replace, Scenario34DollarSequencesAreLiteral) {
  EXPECT_EQ(replaced("price\n", {{"price", "$& $1 $$ $` \\n"}}), "$& $1 $$ $` \\n\n");
}

TEST(Replace, NoChangeIsRefused) {
  EXPECT_EQ(codeOf(replace("abc\n", {{"abc", "abc"}})), ErrorCode::NoChange);
}

TEST(Replace, NoChangeEditInBatchIsAWarning) {
  Result<EditPlan> plan = replace("a\nb\n", {{"a", "a"}, {"b", "B"}});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(applied("a\nb\n", *plan), "a\nB\n");
  EXPECT_FALSE(plan->warnings.empty());
}

TEST(Replace, CrlfDocumentLfNeedleKeepsCrlf) {
  EXPECT_EQ(replaced("a\r\nb\r\nc\r\n", {{"b\nc\n", "B\nX\nC\n"}}), "a\r\nB\r\nX\r\nC\r\n");
}

TEST(Replace, CrlfNeedleMatchesLfDocument) {
  EXPECT_EQ(replaced("a\nb\nc\n", {{"a\r\nb", "A\r\nB"}}), "A\nB\nc\n");
}

TEST(Replace, MixedEndingsStayMixed) {
  // pi 1.6.0: a\r\nb\nc\r\n, edit b,c → a\r\nB\nC\r\n
  EXPECT_EQ(replaced("a\r\nb\nc\r\n", {{"b\nc", "B\nC"}}), "a\r\nB\nC\r\n");
}

TEST(Replace, DuplicatesAcrossCrlfAndLfVariants) {
  EXPECT_EQ(codeOf(replace("x\r\ny\nx\ny\r\n", {{"x\ny", "z"}})), ErrorCode::Ambiguous);
}

TEST(Replace, BomIsKept) {
  EXPECT_EQ(replaced("\xEF\xBB\xBF"
                     "first\nsecond\n",
                     {{"first", "FIRST"}}),
            "\xEF\xBB\xBF"
            "FIRST\nsecond\n");
}

TEST(Replace, BomPlusCrlfMultiEdit) {
  EXPECT_EQ(replaced("\xEF\xBB\xBF"
                     "a\r\nb\r\nc\r\n",
                     {{"a\n", "A\nA2\n"}, {"c", "C"}}),
            "\xEF\xBB\xBF"
            "A\r\nA2\r\nb\r\nC\r\n");
}

TEST(Replace, UnchangedLinesInsideMatchKeepTheirBytes) {
  // The agent's unchanged line uses ASCII quotes; the file's typographic ones survive.
  std::string text = "x = \xE2\x80\x9C"
                     "a\xE2\x80\x9D\ny = 1\n";
  EXPECT_EQ(replaced(text, {{"x = \"a\"\ny = 1", "x = \"a\"\ny = 2"}}), "x = \xE2\x80\x9C"
                                                                        "a\xE2\x80\x9D\ny = 2\n");
}

TEST(Replace, CorrectOccurrenceKeptWhenReplacementEqualsNeighbour) {
  EXPECT_EQ(replaced("a\nb\nc\n", {{"c", "b"}}), "a\nb\nb\n");
}

TEST(Replace, InvalidUtf8ElsewhereIsCarriedUntouched) {
  EXPECT_EQ(replaced("\xFF\xFE\n\xC3 abc\n", {{"abc", "xyz"}}), "\xFF\xFE\n\xC3 xyz\n");
}

TEST(Replace, FuzzyLevelsOnCrlfDocuments) {
  EXPECT_EQ(replaced("a  \r\nb\r\nc\r\n", {{"a\nb", "A\nB"}}), "A\r\nB\r\nc\r\n");
  EXPECT_EQ(replaced("x = \xE2\x80\x9C"
                     "1\xE2\x80\x9D\r\ny\r\n",
                     {{"x = \"1\"\ny", "x = \"2\"\ny"}}),
            "x = \xE2\x80\x9C"
            "2\xE2\x80\x9D\r\ny\r\n");
}

TEST(Replace, NeverMatchesInsideOneCharacter) {
  // "cafe" is a prefix of the decomposition of "café" (e + U+0301) but not of its characters.
  EXPECT_EQ(replace("caf\xC3\xA9\n", {{"cafe", "x"}}).error().code, ErrorCode::NotFound);
  // The fullwidth "Ａ" folds to "A": matching it whole is fine.
  EXPECT_EQ(replaced("\xEF\xBC\xA1"
                     "B\n",
                     {{"AB", "ok"}}),
            "ok\n");
}

TEST(Replace, TypographicQuoteStyleIsPreserved) {
  // Claude Code: straight quotes in old match curly ones, and the file's style is kept.
  std::string text = "She said \xE2\x80\x9Chello\xE2\x80\x9D to Bob\xE2\x80\x99s dog.\n";
  Result<EditPlan> plan = replace(text, {{"said \"hello\" to Bob's", "said \"goodbye\" to Bob's"}});
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(applied(text, *plan),
            "She said \xE2\x80\x9Cgoodbye\xE2\x80\x9D to Bob\xE2\x80\x99s dog.\n");
  // A file with straight quotes keeps straight quotes.
  EXPECT_EQ(replaced("say(\"a\")\n", {{"say(\"a\")", "say(\"b\")"}}), "say(\"b\")\n");
  // Curly-quote matches in a file that also uses straight ones: the agent's text as written.
  EXPECT_EQ(replaced("x = \"s\"; y = \xE2\x80\x9C"
                     "t\xE2\x80\x9D;\n",
                     {{"x = \"s\"; y = \"t\";", "x = \"s\"; y = \"u\";"}}),
            "x = \"s\"; y = \"u\";\n");
}

TEST(Replace, PlanEditsAreMinimalLines) {
  Result<EditPlan> plan = replace("l1\nl2\nl3\nl4\n", {{"l1\nl2\nl3\n", "l1\nL2\nl3\n"}});
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->edits.size(), 1u);
  EXPECT_EQ(plan->edits[0], (ByteEdit{3, 6, "L2\n"}));
}

TEST(Replace, ReplaceAllIsExactLevelOnly) {
  EXPECT_EQ(replaced("ab\nab  \nab\n", {{"ab\n", "X\n", true}}), "X\nab  \nX\n");
}

} // namespace
} // namespace hashline::forms
