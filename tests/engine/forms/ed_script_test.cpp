// Tests of the ed-script form (engine/forms/ed_script.h): parsing, each command, the batch
// semantics (original numbering, overlaps), pluggable address resolution, CRLF and BOM.
#include "engine/forms/ed_script.h"
#include "engine/text/document.h"
#include "tests/engine/forms/forms_test_util.h"

#include <gtest/gtest.h>

namespace hashline::forms {
namespace {

using testing::applied;

Result<EditPlan> runEd(const std::string& text, const std::string& script) {
  Result<EdScript> parsed = parseEdScript(script);
  if (!parsed) return std::move(parsed).error();
  return planEdScript(Rope(text), 4, *parsed, makeLineNumberResolver(LineHistory{nullptr, 4}, 4));
}

std::string edited(const std::string& text, const std::string& script) {
  Result<EditPlan> plan = runEd(text, script);
  EXPECT_TRUE(plan.ok()) << (plan.ok() ? "" : plan.error().message);
  return plan.ok() ? applied(text, *plan) : "<error>";
}

const std::string kSix = "a\nb\nc\nd\ne\nf\n";

TEST(EdParse, AddressesAndCommands) {
  Result<EdScript> script =
      parseEdScript("3a\nnew\n.\n2,4d\n$i\nx\n.\n,s/a/b/g\n5m0\n12:c3d:rstd\n1,2t$\nw\nq\n");
  ASSERT_TRUE(script.ok()) << script.error().message;
  ASSERT_EQ(script->commands.size(), 7u);
  EXPECT_EQ(script->commands[0].name, 'a');
  EXPECT_EQ(script->commands[0].text, std::vector<std::string>{"new"});
  EXPECT_EQ(script->commands[1].range.last->line, 4u);
  EXPECT_EQ(script->commands[2].range.first.kind, EdAddress::Last);
  EXPECT_TRUE(script->commands[3].global);
  EXPECT_EQ(script->commands[4].destination->line, 0u);
  EXPECT_EQ(script->commands[5].range.first.kind, EdAddress::Anchor);
  EXPECT_EQ(script->commands[5].range.first.anchor, "12:c3d:rst");
  EXPECT_EQ(script->commands[5].name, 'd');
  EXPECT_EQ(script->commands[6].destination->kind, EdAddress::Last);
}

TEST(EdParse, SyntaxErrorsNameTheLine) {
  for (const char* bad :
       {"3a\nno end", "d", "3x", "1,s/a/b/", "3s", "3s/a", "3m", "", "3a text\n."}) {
    Result<EdScript> script = parseEdScript(bad);
    ASSERT_FALSE(script.ok()) << bad;
    EXPECT_EQ(script.error().code, ErrorCode::PatchInvalid) << bad;
    EXPECT_NE(script.error().message.find("ed script line"), std::string::npos) << bad;
  }
}

TEST(Ed, EachCommand) {
  EXPECT_EQ(edited(kSix, "2a\nB2\n.\n"), "a\nb\nB2\nc\nd\ne\nf\n");
  EXPECT_EQ(edited(kSix, "0a\ntop\n.\n"), "top\na\nb\nc\nd\ne\nf\n");
  EXPECT_EQ(edited(kSix, "1i\ntop\n.\n"), "top\na\nb\nc\nd\ne\nf\n");
  EXPECT_EQ(edited(kSix, "$a\nend\n.\n"), kSix + "end\n");
  EXPECT_EQ(edited(kSix, "2,3c\nX\n.\n"), "a\nX\nd\ne\nf\n");
  EXPECT_EQ(edited(kSix, "2,5d\n"), "a\nf\n");
  EXPECT_EQ(edited(kSix, "5,6m0\n"), "e\nf\na\nb\nc\nd\n");
  EXPECT_EQ(edited(kSix, "1,2m$\n"), "c\nd\ne\nf\na\nb\n");
  EXPECT_EQ(edited(kSix, "1t3\n"), "a\nb\nc\na\nd\ne\nf\n");
}

TEST(Ed, SubstituteFlagsAndReplacementSyntax) {
  EXPECT_EQ(edited("aaa\nxax\n", "1,2s/a/b/\n"), "baa\nxbx\n");
  EXPECT_EQ(edited("aaa\nxax\n", ",s/a/b/g\n"), "bbb\nxbx\n");
  EXPECT_EQ(edited("aaa\n", "1s/a/b/2\n"), "aba\n");
  EXPECT_EQ(edited("Foo\n", "1s/foo/bar/i\n"), "bar\n");
  EXPECT_EQ(edited("key=value\n", "1s/(\\w+)=(\\w+)/\\2=\\1 [&] \\& $1/\n"),
            "value=key [key=value] & $1\n");
  EXPECT_EQ(edited("a,b\n", "1s|,|\\n|\n"), "a\nb\n");
  EXPECT_EQ(edited("a/b\n", "1s/\\//-/\n"), "a-b\n");
}

TEST(Ed, SubstituteWithoutMatchIsNotFound) {
  Result<EditPlan> plan = runEd(kSix, "1,3s/zzz/y/\n");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().code, ErrorCode::NotFound);
  EXPECT_NE(plan.error().message.find("command 1 (script line 1)"), std::string::npos);
  EXPECT_EQ(runEd(kSix, "1s/(/y/\n").error().code, ErrorCode::PatchInvalid);
}

TEST(Ed, SubstituteEmptyMatchesAdvanceAsEdDoes) {
  EXPECT_EQ(edited("abc\n", "1s/x*/-/g\n"), "-a-b-c-\n");
  // An empty match right after a match is not another one (ed, sed; not Perl's -b--c-).
  EXPECT_EQ(edited("baaac\n", "1s/a*/-/g\n"), "-b-c-\n");
  EXPECT_EQ(edited("baaac\n", "1s/a*/-/2\n"), "b-c\n");
  // Empty matches step over whole UTF-8 characters.
  EXPECT_EQ(edited("\xC3\xA9\xE2\x86\x92\n", "1s/x*/-/g\n"), "-\xC3\xA9-\xE2\x86\x92-\n");
  EXPECT_EQ(edited("\n", "1s/^/> /\n"), "> \n");
}

TEST(Ed, SubstituteContextAndReplacementDetails) {
  // Later searches see the text before them: ^ and \b keep their meaning under g.
  EXPECT_EQ(edited("aaa\n", "1s/^a/x/g\n"), "xaa\n");
  EXPECT_EQ(edited("foo food foo\n", "1s/\\bfoo\\b/bar/g\n"), "bar food bar\n");
  // A group that did not take part in the match is empty; \\ is a backslash, \$ a dollar.
  EXPECT_EQ(edited("ab\n", "1s/(a)|b/[\\1]/g\n"), "[a][]\n");
  EXPECT_EQ(edited("a\n", "1s/a/\\\\ \\$ $& \\x/\n"), "\\ $ $a x\n");
  // UTF-8 aware: . is one character, i folds non-ASCII letters.
  EXPECT_EQ(edited("\xC3\xA9t\xC3\xA9\n", "1s/^./E/\n"), "Et\xC3\xA9\n");
  EXPECT_EQ(edited("\xC3\x89t\xC3\xA9\n", "1s/\xC3\xA9/e/gi\n"), "ete\n");
  // Lazy quantifiers and Perl classes (RE2 syntax) work.
  EXPECT_EQ(edited("<a><b>\n", "1s/<.+?>/X/\n"), "X<b>\n");
  EXPECT_EQ(edited("x  1\t22\n", "1s/\\s+\\d+/;/g\n"), "x;;\n");
}

TEST(Ed, UnsupportedRegexIsPatchInvalidWithAHint) {
  for (const char* script : {"1s/(a)\\1/x/\n", "1s/a(?=b)/x/\n", "1s/(?<!b)a/x/\n",
                             "1s/(?<name>a)/x/\n", "1s/a**/x/\n", "1s/\xFF/x/\n"}) {
    Result<EditPlan> plan = runEd(kSix, script);
    ASSERT_FALSE(plan.ok()) << script;
    EXPECT_EQ(plan.error().code, ErrorCode::PatchInvalid) << script;
    EXPECT_NE(plan.error().message.find("invalid regular expression"), std::string::npos);
    EXPECT_NE(plan.error().hint.find("RE2"), std::string::npos) << plan.error().hint;
  }
  Result<EditPlan> backreference = runEd("aa\n", "1s/(a)\\1/x/\n");
  EXPECT_NE(backreference.error().message.find("'(a)\\1'"), std::string::npos);
  EXPECT_NE(backreference.error().message.find("backreferences"), std::string::npos);
  EXPECT_NE(backreference.error().hint.find("backreferences"), std::string::npos);
  EXPECT_NE(runEd("ab\n", "1s/a(?=b)/x/\n").error().message.find("lookaround"), std::string::npos);
  EXPECT_NE(runEd("ab\n", "1s/(?<=a)b/x/\n").error().message.find("lookaround"), std::string::npos);
  EXPECT_NE(runEd("ab\n", "1s/(?<n>a)/x/\n").error().message.find("(?P<name>"), std::string::npos);
  // A replacement naming a group the pattern lacks is refused, not silently emptied.
  Result<EditPlan> missing = runEd("ab\n", "1s/(a)b/\\2/\n");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::PatchInvalid);
  EXPECT_NE(missing.error().message.find("group \\2"), std::string::npos);
}

TEST(Ed, NestedQuantifiersRunInLinearTime) {
  // The fuzz regression (tests/fuzz/regressions/ed/timeout-99f06c46…): std::regex backtracked
  // for 24+ s on this 14-byte line; RE2 refuses `**` at once.
  std::string script = "%s-\x93**.*****\x0f\\%\\";
  script += '\0';
  script += "a\\s-/A/\xAB";
  Result<EditPlan> regression = runEd("GalplpbaAlpA \n", script);
  ASSERT_FALSE(regression.ok());
  EXPECT_EQ(regression.error().code, ErrorCode::PatchInvalid);
  // Classic catastrophic backtracking for a backtracking engine: (a|aa)*c on 5000 a's.
  const std::string many_a(5000, 'a');
  Result<EditPlan> exponential = runEd(many_a + "\n", "1s/(a|aa)*c/x/\n");
  ASSERT_FALSE(exponential.ok());
  EXPECT_EQ(exponential.error().code, ErrorCode::NotFound);
  EXPECT_EQ(edited(many_a + "c\n", "1s/(a*)*c/x/\n"), "x\n");
}

TEST(Ed, MegabyteLineNeedsNoRecursion) {
  // libstdc++'s std::regex recursed per character and overflowed the stack on such a line.
  std::string line;
  for (int i = 0; i < (1 << 19); ++i)
    line += "ab";
  EXPECT_EQ(edited(line + "c\nrest\n", "1s/(a|b)*c/x/\n"), "x\nrest\n");
  Result<EditPlan> none = runEd(line + "\n", "1s/(a|b)*c/x/\n");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, ErrorCode::NotFound);
  std::string upper;
  for (int i = 0; i < (1 << 19); ++i)
    upper += "Ab";
  EXPECT_EQ(edited(line + "\n", "1s/a/A/g\n"), upper + "\n");
}

TEST(Ed, BatchUsesOriginalNumberingAndKeepsInsertOrder) {
  // Top-down script: each address refers to the original lines.
  EXPECT_EQ(edited(kSix, "1d\n3c\nC\n.\n5a\nafter-e\n.\n5a\nafter-e2\n.\n"),
            "b\nC\nd\ne\nafter-e\nafter-e2\nf\n");
}

TEST(Ed, OverlapsAndRangeErrors) {
  Result<EditPlan> overlap = runEd(kSix, "2,4d\n3s/c/x/\n");
  ASSERT_FALSE(overlap.ok());
  EXPECT_EQ(overlap.error().code, ErrorCode::OverlappingEdits);
  EXPECT_NE(overlap.error().message.find("command 1"), std::string::npos);
  EXPECT_NE(overlap.error().message.find("command 2"), std::string::npos);
  EXPECT_EQ(runEd(kSix, "2,4m3\n").error().code, ErrorCode::OverlappingEdits);
  EXPECT_EQ(runEd(kSix, "7d\n").error().code, ErrorCode::OutOfRange);
  EXPECT_EQ(runEd(kSix, "4,2d\n").error().code, ErrorCode::OutOfRange);
  EXPECT_EQ(runEd(kSix, "0d\n").error().code, ErrorCode::OutOfRange);
  EXPECT_EQ(runEd(kSix, "2c\nb\n.\n").error().code, ErrorCode::NoChange);
}

TEST(Ed, AnchorsNeedAResolver) {
  Result<EditPlan> plan = runEd(kSix, "2:abc:defd\n");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().code, ErrorCode::MalformedAnchor);
}

TEST(Ed, PluggableResolverForAnchors) {
  // A stand-in verifier: anchor "N:..." means the line currently holding "line-N".
  EdAddressResolver fallback = makeLineNumberResolver(LineHistory{nullptr, 1}, 1);
  EdAddressResolver resolver = [&](const EdRange& range,
                                   const LineTable& table) -> Result<EdLines> {
    auto one = [&](const EdAddress& a) -> Result<std::uint32_t> {
      if (a.kind != EdAddress::Anchor) return a.line;
      for (std::size_t line = 0; line < table.lineCount(); ++line)
        if (table.content(line) == "line-" + std::to_string(a.line))
          return static_cast<std::uint32_t>(line + 1);
      return Error::make(ErrorCode::StaleAnchor, "anchor " + a.anchor + " is stale");
    };
    Result<std::uint32_t> first = one(range.first);
    if (!first) return std::move(first).error();
    Result<std::uint32_t> last = range.last ? one(*range.last) : first;
    if (!last) return std::move(last).error();
    return EdLines{*first, *last, std::nullopt};
  };
  std::string text = "top\nline-1\nline-2\nline-3\n";
  Result<EdScript> script = parseEdScript("1:aaa:bbb,2:ccc:dddd\n3:eee:fffs/3/three/\n");
  ASSERT_TRUE(script.ok());
  Result<EditPlan> plan = planEdScript(Rope(text), 1, *script, resolver);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(applied(text, *plan), "top\nline-three\n");
  Result<EdScript> stale = parseEdScript("9:aaa:bbbd\n");
  ASSERT_TRUE(stale.ok());
  Result<EditPlan> refused = planEdScript(Rope(text), 1, *stale, resolver);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::StaleAnchor);
}

TEST(Ed, LineNumbersAtAnOlderVersionAreRebased) {
  Document doc(1, "a\nb\nc\n");
  ASSERT_TRUE(doc.applyByteEdit(2, 0, 0, "new\n").ok());
  Result<EdScript> script = parseEdScript("2s/b/B/\n");
  ASSERT_TRUE(script.ok());
  EdAddressResolver resolver =
      makeLineNumberResolver(LineHistory{&doc.changeLog(), doc.version()}, 1);
  Result<EditPlan> plan = planEdScript(doc.text(), doc.version(), *script, resolver);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(applyPlan(doc.text(), *plan).toString(), "new\na\nB\nc\n");
  EXPECT_EQ(plan->rebased, (std::vector<Rebase>{{2, 3}}));
  // A stated version without history is stale.
  EdAddressResolver no_history = makeLineNumberResolver(LineHistory{nullptr, doc.version()}, 1);
  EXPECT_EQ(planEdScript(doc.text(), doc.version(), *script, no_history).error().code,
            ErrorCode::StaleVersion);
}

TEST(Ed, CrlfAndBom) {
  std::string text = "\xEF\xBB\xBF"
                     "a\r\nb\r\nc\r\n";
  EXPECT_EQ(edited(text, "1a\nx\ny\n.\n3s/c/C/\n"), "\xEF\xBB\xBF"
                                                    "a\r\nx\r\ny\r\nb\r\nC\r\n");
  EXPECT_EQ(edited(text, "1d\n"), "\xEF\xBB\xBF"
                                  "b\r\nc\r\n");
  EXPECT_EQ(edited("a\nb", "$a\nc\n.\n"), "a\nb\nc");
}

} // namespace
} // namespace hashline::forms
