// mergeJsonc / unmergeJsonc (lsp/cli/setup_jsonc_edit.h) on Zed-style settings with comments:
// entries go in as text after the object's `{`, every comment and other byte stays, a second
// merge changes nothing, the undo gives the original back, and what is not JSONC is refused.
#include "lsp/cli/setup_jsonc_edit.h"

#include <gtest/gtest.h>

namespace hashline::cli::setup {
namespace {

const OrderedJson kEntry = {{"type", "custom"},
                            {"command", "/bin/hashline"},
                            {"args", OrderedJson::array({"acp", "--", "/bin/gemini", "--acp"})},
                            {"env", OrderedJson::object()}};

const char* kZedDefault = "// Zed settings\n"
                          "//\n"
                          "// For information on how to configure Zed, see the Zed documentation.\n"
                          "{\n"
                          "  \"ui_font_size\": 16, // bigger\n"
                          "  /* the theme */\n"
                          "  \"theme\": { \"mode\": \"system\", \"dark\": \"One Dark\" },\n"
                          "}\n";

std::vector<JsonChange> change(const std::string& name, OrderedJson value = kEntry) {
  return {{{"agent_servers", name}, std::move(value)}};
}

EditOutcome merged(const std::string& text, const std::vector<JsonChange>& changes) {
  auto result = mergeJsonc(text, changes);
  EXPECT_EQ(result.index(), 0u) << (result.index() == 1 ? std::get<1>(result) : "");
  return result.index() == 0 ? std::get<0>(result) : EditOutcome{};
}

std::string unmerged(const std::string& text, const OrderedJson& record, UnmergeCount* count) {
  auto result = unmergeJsonc(text, record, count);
  EXPECT_EQ(result.index(), 0u) << (result.index() == 1 ? std::get<1>(result) : "");
  return result.index() == 0 ? std::get<0>(result) : std::string();
}

OrderedJson parsed(const std::string& text) {
  return OrderedJson::parse(text, nullptr, false, /*ignore_comments=*/true);
}

TEST(JsoncEdit, InsertsAnObjectAndKeepsEveryComment) {
  std::string text = kZedDefault;
  auto out = merged(text, change("Gemini CLI (hashline)"));
  EXPECT_NE(out.text.find("// Zed settings\n//\n// For information"), std::string::npos);
  EXPECT_NE(out.text.find("\"ui_font_size\": 16, // bigger\n  /* the theme */"), std::string::npos);
  // Trailing comma kept as the user wrote it; the rest still reads as JSONC.
  std::string without_trailing = out.text;
  without_trailing.erase(without_trailing.rfind(','), 1);
  OrderedJson document = parsed(without_trailing);
  ASSERT_FALSE(document.is_discarded()) << out.text;
  EXPECT_EQ(document["agent_servers"]["Gemini CLI (hashline)"], kEntry);
  EXPECT_EQ(document["ui_font_size"], 16);
  ASSERT_EQ(out.record.size(), 1u);
  EXPECT_EQ(out.record[0]["created_parents"], 1);
}

TEST(JsoncEdit, SecondMergeChangesNothing) {
  auto once = merged(kZedDefault, change("Gemini CLI (hashline)"));
  auto twice = merged(once.text, change("Gemini CLI (hashline)"));
  EXPECT_EQ(twice.text, once.text);
  EXPECT_TRUE(twice.record.empty());
}

TEST(JsoncEdit, AddsBesideTheUsersOwnAgentAndUndoesToTheOriginal) {
  std::string text = "{\n"
                     "  // my agents\n"
                     "  \"agent_servers\": {\n"
                     "    \"Mine\": { \"command\": \"mine\" } // keep\n"
                     "  }\n"
                     "}\n";
  auto out = merged(text, change("Claude Code (hashline)"));
  OrderedJson document = parsed(out.text);
  ASSERT_FALSE(document.is_discarded()) << out.text;
  EXPECT_EQ(document["agent_servers"].size(), 2u);
  EXPECT_EQ(out.record[0]["created_parents"], 0);
  UnmergeCount count;
  EXPECT_EQ(unmerged(out.text, out.record, &count), text);
  EXPECT_EQ(count.removed, 1u);
}

TEST(JsoncEdit, UndoAfterTheUserEditedTheFileRemovesOnlyHashlinesEntries) {
  auto out = merged(kZedDefault, change("Gemini CLI (hashline)"));
  std::string edited = out.text;
  edited.insert(edited.find("\"ui_font_size\""), "\"vim_mode\": true, // added later\n  ");
  UnmergeCount count;
  std::string back = unmerged(edited, out.record, &count);
  EXPECT_EQ(count.removed, 1u);
  EXPECT_EQ(back.find("agent_servers"), std::string::npos) << back;
  EXPECT_NE(back.find("\"vim_mode\": true, // added later"), std::string::npos) << back;
  EXPECT_NE(back.find("// Zed settings"), std::string::npos);
}

TEST(JsoncEdit, AnEntryTheUserChangedIsLeftAlone) {
  auto out = merged(kZedDefault, change("Gemini CLI (hashline)"));
  std::string edited = out.text;
  std::size_t at = edited.find("/bin/hashline");
  edited.replace(at, std::string("/bin/hashline").size(), "/opt/other");
  UnmergeCount count;
  EXPECT_EQ(unmerged(edited, out.record, &count), edited);
  EXPECT_EQ(count.foreign, 1u);
}

TEST(JsoncEdit, ReplacesAnotherValueAndPutsItBack) {
  std::string text = "{\"agent_servers\": {\"Gemini CLI (hashline)\": {\"command\": \"old\"}}}\n";
  auto out = merged(text, change("Gemini CLI (hashline)"));
  EXPECT_EQ(parsed(out.text)["agent_servers"]["Gemini CLI (hashline)"], kEntry);
  ASSERT_TRUE(out.record[0].contains("previous"));
  UnmergeCount count;
  EXPECT_EQ(
      parsed(unmerged(out.text, out.record, &count))["agent_servers"]["Gemini CLI (hashline)"],
      OrderedJson({{"command", "old"}}));
}

TEST(JsoncEdit, EmptyAndNewFiles) {
  for (const char* text : {"", "{}", "{\n}\n", "  // only a comment\n{\n  // nothing yet\n}\n"}) {
    auto out = merged(text, change("goose (hashline)"));
    OrderedJson document = parsed(out.text);
    ASSERT_FALSE(document.is_discarded()) << out.text;
    EXPECT_EQ(document["agent_servers"]["goose (hashline)"], kEntry) << out.text;
  }
}

TEST(JsoncEdit, RefusesWhatIsNotAJsoncObject) {
  for (const char* text : {"[1, 2]", "{\"a\": }", "{\"a\": 1", "/* open comment {}", "{} {}"}) {
    auto result = mergeJsonc(text, change("x"));
    EXPECT_EQ(result.index(), 1u) << text;
  }
  auto through = mergeJsonc("{\"agent_servers\": 3}", change("x"));
  EXPECT_EQ(through.index(), 1u);
}

TEST(JsoncEdit, ParsesCommentsAndTrailingCommas) {
  auto document = parseJsonc(kZedDefault);
  ASSERT_TRUE(document.has_value());
  EXPECT_EQ((*document)["theme"]["dark"], "One Dark");
  EXPECT_EQ((*document)["ui_font_size"], 16);
  auto strings = parseJsonc("{\"a\": \"// not a comment, /* nor this */\", \"b\": [1, 2,],}");
  ASSERT_TRUE(strings.has_value());
  EXPECT_EQ((*strings)["a"], "// not a comment, /* nor this */");
  EXPECT_EQ((*strings)["b"].size(), 2u);
  EXPECT_FALSE(parseJsonc("{\"a\": 1,, }").has_value());
  EXPECT_FALSE(parseJsonc("[]").has_value());
}

} // namespace
} // namespace hashline::cli::setup
