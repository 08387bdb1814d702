// SearchMatcher::matchingLines (lsp/context/search_matcher.h) against the definition of a hit: a
// read line (engine/anchors/read_lines.h: LF, CRLF and lone CR end lines, a BOM is not part of
// line 1, no phantom line after a final break) that the line expression matches. Fixed cases
// (CRLF and `$`, lone CR and `^`, BOM, first / last line, no final newline, \A, \z, (?-m)), then
// random texts against every listed pattern and random patterns; and the required literal the
// literal pass looks for (every match contains it).
#include "engine/anchors/read_lines.h"
#include "lsp/context/search_matcher.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace hashline::context {
namespace {

std::shared_ptr<const SearchMatcher> compiled(const std::string& pattern, bool literal = false,
                                              bool ignore_case = false) {
  auto matcher = SearchMatcher::compile(pattern, {literal, ignore_case});
  EXPECT_TRUE(matcher.ok()) << pattern;
  return matcher.ok() ? *matcher : nullptr;
}

/// The definition: every read line, decided by the line expression.
std::vector<std::uint32_t> referenceLines(const SearchMatcher& matcher, const std::string& text) {
  const Rope rope(text);
  const LineSlices slices = readLineSlices(rope, 1, readLineCount(rope));
  std::vector<std::uint32_t> lines;
  for (std::size_t i = 0; i < slices.size(); ++i)
    if (matcher.lineMatches(slices.line(i))) lines.push_back(static_cast<std::uint32_t>(i + 1));
  return lines;
}

std::vector<std::uint32_t> lines(const std::string& pattern, const std::string& text,
                                 bool literal = false) {
  return compiled(pattern, literal)->matchingLines(text, 1000);
}

using Lines = std::vector<std::uint32_t>;

TEST(SearchMatcherLines, FirstAndLastLinesWithAndWithoutAFinalNewline) {
  EXPECT_EQ(lines("needle", "needle\nx\nneedle"), (Lines{1, 3}));
  EXPECT_EQ(lines("needle", "needle\nx\nneedle\n"), (Lines{1, 3}));
  EXPECT_EQ(lines("needle", "needle", true), (Lines{1}));
  EXPECT_EQ(lines("e$", "needle\nx\nneedle"), (Lines{1, 3}));
  EXPECT_EQ(lines("^n", "needle\nx\nneedle"), (Lines{1, 3}));
  EXPECT_EQ(lines("needle", "x\nneedle needle needle\nx\n"), (Lines{2})) << "one row per line";
  // No phantom line after the final break; an empty text is one empty line.
  EXPECT_EQ(lines("^$", "a\n"), Lines{});
  EXPECT_EQ(lines("^$", "a\n\n"), (Lines{2}));
  EXPECT_EQ(lines("^$", ""), (Lines{1}));
  EXPECT_EQ(lines("x*", "a\nb\n"), (Lines{1, 2}));
  EXPECT_EQ(lines("$", "a\r\nb\r"), (Lines{1, 2}));
}

TEST(SearchMatcherLines, CrlfAndLoneCrLinesAsTheReaderSeesThem) {
  // `$` before the CR of CRLF and before a lone CR: the line ends there.
  EXPECT_EQ(lines("needle$", "needle\r\nx\r\nneedle\r\n"), (Lines{1, 3}));
  EXPECT_EQ(lines("needle$", "needle\rx\rneedle"), (Lines{1, 3}));
  // `^` after a lone CR starts a line too.
  EXPECT_EQ(lines("^needle", "x\rneedle\r\nneedle"), (Lines{2, 3}));
  // A match through a CR is no hit: the CR is a line break, not text.
  EXPECT_EQ(lines("a.b", "a\rb\na b"), (Lines{3}));
  EXPECT_EQ(lines("a\\s+b", "a\rb\r\na  b"), (Lines{3}));
  EXPECT_EQ(lines("\\r", "a\r\nb\r"), Lines{});
  EXPECT_EQ(lines("o\\b", "foo\r\nfoo\rfoox"), (Lines{1, 2}));
  // Literals in CRLF files.
  EXPECT_EQ(lines("needle", "x\r\nneedle\r\nneedle", true), (Lines{2, 3}));
}

TEST(SearchMatcherLines, ABomIsNotPartOfLineOne) {
  const std::string bom = "\xEF\xBB\xBF";
  EXPECT_EQ(lines("^needle", bom + "needle\nneedle"), (Lines{1, 2}));
  EXPECT_EQ(lines("\\bneedle", bom + "needle\n"), (Lines{1}));
  EXPECT_EQ(lines("needle", bom + "needle\n", true), (Lines{1}));
  EXPECT_EQ(lines("^$", bom), (Lines{1}));
  EXPECT_EQ(lines("\xEF\xBB\xBF", bom + "x\n", true), Lines{});
}

TEST(SearchMatcherLines, TextAnchorsSeeOneLine) {
  EXPECT_EQ(lines("\\Aneedle", "needle\nneedle\nx needle"), (Lines{1, 2}));
  EXPECT_EQ(lines("needle\\z", "x\nneedle\nneedle x"), (Lines{2}));
  EXPECT_EQ(lines("(?-m)^needle$", "needle\nneedle\n"), (Lines{1, 2}));
}

TEST(SearchMatcherLines, LimitAndAnyMatch) {
  auto matcher = compiled("needle");
  const std::string text = "needle\nx\nneedle\nneedle\n";
  EXPECT_EQ(matcher->matchingLines(text, 2), (Lines{1, 3}));
  EXPECT_EQ(matcher->matchingLines(text, 0), Lines{});
  EXPECT_TRUE(matcher->anyMatch(text));
  EXPECT_FALSE(matcher->anyMatch("needl\ne\n"));
  auto dollar = compiled("needle$");
  EXPECT_TRUE(dollar->anyMatch("x\r\nneedle\r\n")) << "CRLF: found, not only let through";
  EXPECT_FALSE(dollar->anyMatch("needle x\r\n"));
}

TEST(SearchMatcherLiteral, TheRequiredLiteralOfARegex) {
  auto of = [](const char* pattern) { return SearchMatcher::requiredLiteralOf(pattern); };
  EXPECT_EQ(of("\\bmark_[a-z]{3}_[0-9]{3}\\b"), "mark_");
  EXPECT_EQ(of("foo|bar"), "");
  EXPECT_EQ(of("(foo|bar)bazz"), "bazz");
  EXPECT_EQ(of("abc?def"), "def");
  EXPECT_EQ(of("xab*"), "xa");
  EXPECT_EQ(of("xab{0,2}cd"), "xa");
  EXPECT_EQ(of("ab{2}c"), "ab");
  EXPECT_EQ(of("x\\.y"), "x.y");
  EXPECT_EQ(of("(?i)foo"), "");
  EXPECT_EQ(of("a(?i:b)cde"), "");
  EXPECT_EQ(of("foo\\d+bars"), "bars");
  EXPECT_EQ(of("a[|]bc"), "bc");
  EXPECT_EQ(of("\\Qa|b\\Exy"), "xy");
  EXPECT_EQ(of("caf\\x{e9}s"), "caf");
  EXPECT_EQ(of("\\pLfoo\\p{Greek}ab"), "foo");
  EXPECT_EQ(of("\\12345"), "45");
  EXPECT_EQ(of("a{,3}bc"), "");
  EXPECT_EQ(of("fo+?barr"), "barr");
  EXPECT_EQ(of("[]a]foo[^]x]"), "foo");
  EXPECT_EQ(of("[[:digit:]]foo"), "foo");
  EXPECT_EQ(of("\xC3\xA9t\xC3\xA9?"), "\xC3\xA9t");
  EXPECT_EQ(compiled("x(ab)*y")->requiredLiteral(), "") << "one byte: not worth a pass";
  EXPECT_EQ(compiled("needle", true)->requiredLiteral(), "needle");
  EXPECT_EQ(compiled("needle", true, true)->requiredLiteral(), "") << "ignore_case: RE2";
  EXPECT_EQ(compiled("needle", false, true)->requiredLiteral(), "");
}

/// Random texts over pieces that meet at line breaks, BOMs and word boundaries.
std::string randomText(std::mt19937& rng) {
  static const std::vector<std::string> pieces = {
      "a",  "b",  "ab", " ",  "\n", "\n", "\r\n", "\r", "foo", "bar", "\xC3\xA9",     "needle",
      "x$", "\t", "_",  "99", "o",  "fo", "(",    ")",  ".",   "|",   "mark_abc_123", "needles"};
  std::string text = rng() % 8 == 0 ? "\xEF\xBB\xBF" : "";
  for (int n = static_cast<int>(rng() % 24); n > 0; --n)
    text += pieces[rng() % pieces.size()];
  return text;
}

void expectDefinition(const SearchMatcher& matcher, const std::string& pattern,
                      const std::string& text, bool ignore_case) {
  const Lines want = referenceLines(matcher, text);
  ASSERT_EQ(matcher.matchingLines(text, 100000), want)
      << "pattern " << pattern << " text " << ::testing::PrintToString(text);
  if (!want.empty()) {
    EXPECT_EQ(matcher.matchingLines(text, 1), Lines{want.front()});
  }
  EXPECT_EQ(matcher.anyMatch(text), !want.empty());
  if (ignore_case) return;
  const std::string required = SearchMatcher::requiredLiteralOf(pattern);
  const Rope rope(text);
  for (std::uint32_t line : want)
    ASSERT_NE(readLineText(rope, line).find(required), std::string::npos)
        << "pattern " << pattern << " required '" << required << "' line " << line;
}

TEST(SearchMatcherLines, RandomTextsMatchTheDefinition) {
  const std::vector<std::string> regexes = {"foo",
                                            "^foo",
                                            "foo$",
                                            "^$",
                                            "^",
                                            "$",
                                            "\\bfoo\\b",
                                            "\\Afoo",
                                            "foo\\z",
                                            "(?-m)^foo",
                                            "a.b",
                                            "a\\s*b",
                                            "[^a]foo",
                                            "o\\r?$",
                                            "\\r",
                                            "\\s$",
                                            "^\\s*$",
                                            "x*",
                                            "(foo|bar)$",
                                            "foo|^b",
                                            "ne+dle",
                                            "ne?dle",
                                            "(?i)FOO",
                                            "foo\\.?",
                                            "needle\\b",
                                            "\xC3\xA9",
                                            "b{2}",
                                            "b{0,1}a",
                                            "\\Cfoo",
                                            "(?s:.)foo",
                                            "foo(?m:$)",
                                            "[[:alpha:]]+\\d",
                                            "\\bmark_[a-z]{3}_[0-9]{3}\\b",
                                            "x\\$",
                                            "a\\tb|^_",
                                            "(ab)+",
                                            "o(o)?$",
                                            "^\\W",
                                            "\\B"};
  std::mt19937 rng(21);
  for (const std::string& pattern : regexes) {
    for (bool ignore_case : {false, true}) {
      auto matcher = compiled(pattern, false, ignore_case);
      for (int trial = 0; trial < 300; ++trial)
        expectDefinition(*matcher, pattern, randomText(rng), ignore_case);
    }
  }
  for (const std::string literal : {"foo", "a\tb", "\xC3\xA9", "$", "^", "o\\", ".", "needle"}) {
    for (bool ignore_case : {false, true}) {
      auto matcher = compiled(literal, true, ignore_case);
      for (int trial = 0; trial < 300; ++trial) {
        const std::string text = randomText(rng);
        ASSERT_EQ(matcher->matchingLines(text, 100000), referenceLines(*matcher, text))
            << "literal " << literal << " text " << ::testing::PrintToString(text);
      }
    }
  }
}

TEST(SearchMatcherLines, RandomPatternsMatchTheDefinition) {
  static const std::vector<std::string> tokens = {
      "a",    "b",    "o",    "fo",  "|", "(",  ")",     "*",   "+",   "?",   "{2}",  "{0,1}",
      "{1,}", "[ab]", "[^a]", ".",   "^", "$",  "\\b",   "\\.", "\\d", "(?:", "\\s",  "\\w",
      "x",    "\\r",  "\\A",  "\\z", "_", "oo", "\\x61", "[$]", "\\$", "e",   "(?-m)"};
  std::mt19937 rng(42);
  int valid = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string pattern;
    for (int n = 1 + static_cast<int>(rng() % 6); n > 0; --n)
      pattern += tokens[rng() % tokens.size()];
    auto matcher = SearchMatcher::compile(pattern, {false, false});
    if (!matcher.ok()) continue;
    ++valid;
    for (int k = 0; k < 20; ++k)
      expectDefinition(**matcher, pattern, randomText(rng), false);
  }
  EXPECT_GT(valid, 1000);
}

} // namespace
} // namespace hashline::context
