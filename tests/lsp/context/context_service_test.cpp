// The user's selection through the real binary (lsp/context/context_service.h): the test plays an
// editor whose plugin sends hashline/context; the `context` method answers with the selection's
// live text and anchored rows (counted as read: an edit follows them), the latest selection after
// a click elsewhere, the visible documents, and says when nothing was reported.
#include "tests/lsp/support/service_fixture.h"

#include <gmock/gmock.h>

namespace hashline::test {
namespace {

using json = nlohmann::json;
using ::testing::HasSubstr;

class ContextServiceTest : public ServiceFixture {
protected:
  static json range(int start_line, int start_character, int end_line, int end_character) {
    return {{"start", {{"line", start_line}, {"character", start_character}}},
            {"end", {{"line", end_line}, {"character", end_character}}}};
  }
  void report(const std::string& name, std::int64_t version, json selections,
              json visible = json::array()) {
    client_->notify(
        "hashline/context",
        {{"active", {{"uri", uriOf(name)}, {"version", version}, {"selections", selections}}},
         {"visible", visible}});
  }
  static std::vector<std::string> rowsOf(const json& selection) {
    std::vector<std::string> rows;
    std::string text = selection.value("rows", std::string());
    for (std::size_t start = 0; start < text.size();) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      rows.push_back(text.substr(start, end - start));
      start = end + 1;
    }
    return rows;
  }
};

TEST_F(ContextServiceTest, NothingReportedSaysSo) {
  open("a.txt", "one\n");
  json answer = service("context", json::object());
  EXPECT_EQ(answer["status"], "ok");
  EXPECT_EQ(answer["available"], false);
  EXPECT_THAT(answer["note"].get<std::string>(), HasSubstr("share_selection"));
}

TEST_F(ContextServiceTest, TheSelectionComesWithItsLiveTextAndRowsAnEditCanFollow) {
  open("a.txt", "alpha\nbeta\ngamma\ndelta\n");
  type("a.txt", 0, 0, "typed\n"); // unsaved: version 2, "typed" is line 1
  report("a.txt", 2, json::array({range(2, 0, 4, 0)}),
         {{{"uri", uriOf("a.txt")}, {"ranges", json::array({range(0, 0, 4, 0)})}}});
  json answer = service("context", {{"session", "agent"}});
  ASSERT_EQ(answer["available"], true) << answer.dump();
  const json& active = answer["active"];
  EXPECT_EQ(active["path"], pathOf("a.txt"));
  EXPECT_EQ(active["version"], 2);
  EXPECT_EQ(active["documentVersion"], 2);
  EXPECT_FALSE(active.contains("note"));
  const json& selection = active["selections"][0];
  EXPECT_EQ(selection["empty"], false);
  EXPECT_EQ(selection["from"]["line"], 3); // 1-based, as rows are
  EXPECT_EQ(selection["text"], "beta\ngamma\n");
  std::vector<std::string> rows = rowsOf(selection);
  ASSERT_EQ(rows.size(), 2u)
      << selection.dump(); // line 5 is not taken: the range ends at its start
  json read = service("read", {{"uri", uriOf("a.txt")}});
  EXPECT_EQ(rows[0].substr(0, rows[0].find("\xE2\x86\x92")), anchorOf(read, 3));
  ASSERT_EQ(answer["visible"].size(), 1u);
  EXPECT_EQ(answer["visible"][0]["ranges"][0]["from"], 1);
  EXPECT_EQ(answer["visible"][0]["ranges"][0]["to"], 5);

  // An agent session that only asked for the context edits from its rows.
  std::int64_t id =
      startService("edit", {{"uri", uriOf("a.txt")},
                            {"session", "agent"},
                            {"edits",
                             {{{"op", "replace"},
                               {"anchor", rows[1].substr(0, rows[1].find("\xE2\x86\x92"))},
                               {"content", "GAMMA"}}}}});
  applyAndConfirm(nextApplyEdit());
  json edited = finish(id);
  EXPECT_EQ(edited["status"], "applied") << edited.dump();
  EXPECT_EQ(model("a.txt").text, "typed\nalpha\nbeta\nGAMMA\ndelta\n");
}

TEST_F(ContextServiceTest, TheLatestSelectionOutlivesAClickElsewhereAndOldPositionsAreNoted) {
  open("a.txt", "alpha\nbeta\n");
  report("a.txt", 1, json::array({range(1, 1, 1, 3)})); // "et"
  report("a.txt", 1, json::array({range(0, 2, 0, 2)})); // then the cursor elsewhere
  json answer = service("context", json::object());
  EXPECT_EQ(answer["active"]["selections"][0]["empty"], true);
  EXPECT_EQ(answer["active"]["selections"][0]["text"], "");
  ASSERT_TRUE(answer.contains("latestSelection")) << answer.dump();
  EXPECT_EQ(answer["latestSelection"]["selection"]["text"], "et");
  EXPECT_GE(answer["latestSelection"]["ageMs"].get<int>(), 0);
  // The user typed after the report: the answer says the positions are the report's.
  type("a.txt", 0, 0, "x");
  answer = service("context", json::object());
  EXPECT_THAT(answer["active"]["note"].get<std::string>(), HasSubstr("version 1"));
}

TEST_F(ContextServiceTest, BadReportsAreIgnoredAndOutsideDocumentsLeftOut) {
  open("a.txt", "alpha\n");
  client_->notify("hashline/context", json::array({1}));
  client_->notify("hashline/context", {{"active", {{"uri", 3}}}});
  EXPECT_EQ(service("context", json::object())["available"], false);
  client_->notify(
      "hashline/context",
      {{"active",
        {{"uri", "file:///etc/passwd"}, {"selections", json::array({range(0, 0, 3, 0)})}}},
       {"visible",
        {{{"uri", "file:///etc/hosts"}, {"ranges", json::array({range(0, 0, 1, 0)})}}}}});
  json answer = service("context", json::object());
  EXPECT_EQ(answer["available"], true);
  EXPECT_TRUE(answer["active"].is_null()) << answer.dump(); // never the text of /etc/passwd
  EXPECT_TRUE(answer["visible"].empty());
  // Past the end of the document: a note, no text.
  report("a.txt", 1, json::array({range(0, 0, 50, 0)}));
  answer = service("context", json::object());
  EXPECT_THAT(answer["active"]["selections"][0]["note"].get<std::string>(),
              HasSubstr("past the end"));
  EXPECT_FALSE(answer["active"]["selections"][0].contains("text"));
}

TEST_F(ContextServiceTest, AHugeSelectionIsCutWithAHint) {
  std::string text;
  for (int i = 0; i < 1000; ++i)
    text += "line " + std::to_string(i) + " " + std::string(100, 'x') + "\n";
  open("big.txt", text);
  report("big.txt", 1, json::array({range(0, 0, 1000, 0)}));
  json answer = service("context", json::object());
  const json& selection = answer["active"]["selections"][0];
  EXPECT_EQ(selection["truncated"], true);
  EXPECT_LE(selection["text"].get<std::string>().size(), 64u * 1024);
  EXPECT_EQ(rowsOf(selection).size(), 200u);
  EXPECT_THAT(selection["hint"].get<std::string>(), HasSubstr("--from"));
}

} // namespace
} // namespace hashline::test
