// Reading the plugins' hashline/diagnostics params, and telling an edit's introduced diagnostics
// from the ones that only moved (lsp/context/diagnostics_report.h).
#include "engine/text/rope.h"
#include "lsp/context/diagnostics_report.h"

#include <gtest/gtest.h>

namespace hashline::context {
namespace {

using nlohmann::json;

EditorDiagnostic diag(std::uint32_t line, std::string message, std::string line_text,
                      Severity severity = Severity::Error) {
  EditorDiagnostic d;
  d.line = d.end_line = line;
  d.severity = severity;
  d.source = "clang";
  d.message = std::move(message);
  d.line_text = std::move(line_text);
  return d;
}

TEST(DiagnosticsNotice, ReadsLspDiagnosticsAndSkipsUnusableOnes) {
  json params = {
      {"uri", "file:///w/a.cpp"},
      {"version", 7},
      {"diagnostics",
       {{{"range",
          {{"start", {{"line", 3}, {"character", 2}}}, {"end", {{"line", 4}, {"character", 0}}}}},
         {"severity", 2},
         {"source", "clang"},
         {"code", {{"value", "unused"}}},
         {"message", "unused variable"}},
        {{"range", {{"start", {{"line", -1}}}}}, {"message", "bad line"}},
        {{"range", {{"start", {{"line", 1}}}}}, {"message", ""}},
        "not an object",
        {{"range", {{"start", {{"line", 0}}}}},
         {"severity", 9},
         {"code", 12},
         {"message", "default severity"}}}}};
  DiagnosticsNotice notice;
  ASSERT_FALSE(parseDiagnosticsNotice(params, notice).has_value());
  EXPECT_EQ(notice.uri, "file:///w/a.cpp");
  EXPECT_EQ(notice.version, 7);
  ASSERT_EQ(notice.items.size(), 2u);
  EXPECT_EQ(notice.items[0].line, 3u);
  EXPECT_EQ(notice.items[0].end_line, 4u);
  EXPECT_EQ(notice.items[0].character, 2u);
  EXPECT_EQ(notice.items[0].severity, Severity::Warning);
  EXPECT_EQ(notice.items[0].code, "unused");            // VS Code's {value, target} code
  EXPECT_EQ(notice.items[1].severity, Severity::Error); // out of range: the default
  EXPECT_EQ(notice.items[1].code, "12");
}

TEST(DiagnosticsNotice, RefusesParamsWithoutUriOrList) {
  DiagnosticsNotice notice;
  EXPECT_TRUE(parseDiagnosticsNotice(json::array(), notice).has_value());
  EXPECT_TRUE(parseDiagnosticsNotice({{"diagnostics", json::array()}}, notice).has_value());
  EXPECT_TRUE(parseDiagnosticsNotice({{"uri", "file:///a"}, {"diagnostics", 3}}, notice));
}

TEST(CompareDiagnostics, AMovedDiagnosticIsNeitherIntroducedNorRemoved) {
  // The agent inserted two lines above: the warning moved from line 4 to 6, same line text.
  std::vector<EditorDiagnostic> before = {diag(4, "unused variable 'x'", "int x;")};
  std::vector<EditorDiagnostic> after = {diag(6, "unused variable 'x'", "int x;"),
                                         diag(1, "unknown type 'foo'", "foo y;")};
  DiagnosticsDelta delta = compareDiagnostics(before, after);
  EXPECT_EQ(delta.unchanged, 1u);
  ASSERT_EQ(delta.introduced, (std::vector<std::size_t>{1}));
  EXPECT_TRUE(delta.removed.empty());
}

TEST(CompareDiagnostics, TheSameProblemOnAnEditedLineIsMatchedToTheNearestOne) {
  std::vector<EditorDiagnostic> before = {diag(2, "no viable call", "f(1, \"a\");"),
                                          diag(40, "no viable call", "f(2, \"b\");")};
  // Line 2 was edited but still calls f wrongly; line 40's call was fixed.
  std::vector<EditorDiagnostic> after = {diag(2, "no viable call", "f(1, \"c\");")};
  DiagnosticsDelta delta = compareDiagnostics(before, after);
  EXPECT_EQ(delta.unchanged, 1u);
  EXPECT_TRUE(delta.introduced.empty());
  EXPECT_EQ(delta.removed, (std::vector<std::size_t>{1}));
}

TEST(CompareDiagnostics, DuplicatesCountAsAMultiset) {
  std::vector<EditorDiagnostic> before = {diag(3, "m", "t")};
  std::vector<EditorDiagnostic> after = {diag(3, "m", "t"), diag(3, "m", "t")};
  DiagnosticsDelta delta = compareDiagnostics(before, after);
  EXPECT_EQ(delta.unchanged, 1u);
  EXPECT_EQ(delta.introduced.size(), 1u);
  delta = compareDiagnostics(after, before);
  EXPECT_EQ(delta.removed.size(), 1u);
}

TEST(DiagnosticRows, AnchoredOnTheLineWhenItExistsElsePlainLineNumber) {
  Rope text("int main() {\n  return x;\n}\n");
  EditorDiagnostic d = diag(1, "use of undeclared identifier 'x'", "return x;");
  d.code = "undeclared_var_use";
  AnchorSource where;
  where.text = &text;
  where.version = 3;
  json row = diagnosticToJSON(d, where);
  ASSERT_TRUE(row.contains("anchor"));
  const std::string anchor = row["anchor"];
  EXPECT_EQ(anchor.rfind("2:", 0), 0u) << anchor;
  EXPECT_EQ(row["row"], anchor + " error clang [undeclared_var_use]: use of undeclared "
                                 "identifier 'x'");
  EXPECT_EQ(row["line"], 2);

  EditorDiagnostic gone = diag(10, "two\nlines", "");
  json plain = diagnosticToJSON(gone, where);
  EXPECT_FALSE(plain.contains("anchor"));
  EXPECT_EQ(plain["row"], "11 error clang: two lines");
  EXPECT_EQ(lineTextForMatching(text, 1), "return x;");
  EXPECT_EQ(lineTextForMatching(text, 99), "");
}

TEST(DiagnosticsStore, BoundsItemsMessagesAndDocuments) {
  DiagnosticsStore store;
  DiagnosticsSet set;
  set.key = "file:///a";
  for (std::size_t i = 0; i < DiagnosticsStore::kMaxItemsPerDocument + 5; ++i)
    set.items.push_back(diag(0, std::string(DiagnosticsStore::kMaxMessageBytes + 10, 'm'), ""));
  store.update(set);
  auto stored = store.find("file:///a");
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->items.size(), DiagnosticsStore::kMaxItemsPerDocument);
  EXPECT_EQ(stored->dropped, 5u);
  EXPECT_LT(stored->items[0].message.size(), DiagnosticsStore::kMaxMessageBytes + 5);
  for (std::size_t i = 0; i <= DiagnosticsStore::kMaxDocuments; ++i) {
    DiagnosticsSet other;
    other.key = "file:///doc" + std::to_string(i);
    store.update(other);
  }
  EXPECT_EQ(store.all().size(), DiagnosticsStore::kMaxDocuments);
  EXPECT_FALSE(store.find("file:///a")); // the one updated longest ago went first
}

TEST(DiagnosticsStore, WaitersHearSetsForTheirVersionOrLater) {
  DiagnosticsStore store;
  std::vector<std::int64_t> heard;
  const auto id = store.waitFor(
      "k", 5, [&](const DiagnosticsSetPtr& set) { heard.push_back(set->version.value_or(-1)); });
  for (std::int64_t version : {3, 5, 6}) {
    DiagnosticsSet set;
    set.key = "k";
    set.version = version;
    store.update(set);
  }
  DiagnosticsSet other;
  other.key = "elsewhere";
  other.version = 9;
  store.update(other);
  EXPECT_EQ(heard, (std::vector<std::int64_t>{5, 6}));
  store.cancel(id);
  DiagnosticsSet late;
  late.key = "k";
  late.version = 7;
  store.update(late);
  EXPECT_EQ(heard.size(), 2u);
}

} // namespace
} // namespace hashline::context
