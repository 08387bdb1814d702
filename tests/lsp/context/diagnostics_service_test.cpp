// The editor's diagnostics through the real binary (lsp/context/diagnostics_service.h): the test
// plays an editor whose plugin forwards hashline/diagnostics; an agent edit's result carries what
// it introduced and removed once the set for its version arrives, or says the wait ran out.
#include "tests/lsp/support/service_fixture.h"

#include <gmock/gmock.h>

namespace hashline::test {
namespace {

using json = nlohmann::json;
using ::testing::HasSubstr;

class DiagnosticsServiceTest : public ServiceFixture {
protected:
  void publish(const std::string& name, std::int64_t version, json items) {
    client_->notify("hashline/diagnostics",
                    {{"uri", uriOf(name)}, {"version", version}, {"diagnostics", items}});
  }
  static json error(int line, const std::string& message) {
    return {{"range",
             {{"start", {{"line", line}, {"character", 4}}},
              {"end", {{"line", line}, {"character", 9}}}}},
            {"severity", 1},
            {"source", "fake-ls"},
            {"message", message}};
  }
  json replaceLine(const std::string& name, std::uint32_t line, const std::string& content,
                   json extra = json::object()) {
    json read = service("read", {{"uri", uriOf(name)}});
    json params = {
        {"uri", uriOf(name)},
        {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, line)}, {"content", content}}}}};
    params.update(extra);
    return params;
  }
};

TEST_F(DiagnosticsServiceTest, WithoutAnySetTheListSaysNoneAreAvailableAndEditsCarryNothing) {
  open("a.cpp", "int a;\nint b;\n");
  json listed = service("diagnostics", json::object());
  EXPECT_EQ(listed["available"], false);
  EXPECT_THAT(listed["note"].get<std::string>(), HasSubstr("plugin"));
  std::int64_t id = startService("edit", replaceLine("a.cpp", 2, "int c;"));
  applyAndConfirm(nextApplyEdit());
  json result = finish(id);
  EXPECT_EQ(result["status"], "applied");
  EXPECT_FALSE(result.contains("diagnostics")) << result.dump();
}

TEST_F(DiagnosticsServiceTest, AnEditGetsWhatItIntroducedOnceTheSetForItsVersionArrives) {
  open("a.cpp", "int main() {\n  return 0;\n}\n");
  publish("a.cpp", 1, json::array()); // the server's first, clean report
  std::int64_t id =
      startService("edit", replaceLine("a.cpp", 2, "  return x;", {{"diagnosticsWaitMs", 20000}}));
  applyAndConfirm(nextApplyEdit()); // the buffer is at version 2 now
  publish("a.cpp", 1,
          json::array({error(0, "stale: for the old text")})); // late report on version 1
  publish("a.cpp", 2, json::array({error(1, "use of undeclared identifier 'x'")}));
  json result = finish(id);
  ASSERT_EQ(result["status"], "applied") << result.dump();
  const json& d = result["diagnostics"];
  EXPECT_EQ(d["settled"], true) << d.dump();
  EXPECT_EQ(d["version"], 2);
  ASSERT_EQ(d["introduced"].size(), 1u) << d.dump();
  const json& row = d["introduced"][0];
  EXPECT_EQ(row["line"], 2);
  EXPECT_EQ(row["severity"], "error");
  EXPECT_EQ(row["row"],
            row["anchor"].get<std::string>() + " error fake-ls: use of undeclared identifier 'x'");
  json read = service("read", {{"uri", uriOf("a.cpp")}});
  EXPECT_EQ(row["anchor"], anchorOf(read, 2));
  EXPECT_TRUE(d["removed"].empty());
  EXPECT_EQ(d["counts"]["error"], 1);

  // The fix: the error is reported removed; the list agrees.
  id = startService("edit", replaceLine("a.cpp", 2, "  return 0;", {{"diagnosticsWaitMs", 20000}}));
  applyAndConfirm(nextApplyEdit());
  publish("a.cpp", 3, json::array());
  json fixed = finish(id);
  ASSERT_EQ(fixed["diagnostics"]["removed"].size(), 1u) << fixed.dump();
  EXPECT_EQ(fixed["diagnostics"]["removed"][0]["line"], 2);
  EXPECT_FALSE(fixed["diagnostics"]["removed"][0].contains("anchor"));
  EXPECT_TRUE(fixed["diagnostics"]["introduced"].empty());
  json listed = service("diagnostics", {{"path", "a.cpp"}});
  EXPECT_EQ(listed["available"], true);
  ASSERT_EQ(listed["files"].size(), 1u);
  EXPECT_TRUE(listed["files"][0]["diagnostics"].empty());
}

TEST_F(DiagnosticsServiceTest, TheWaitRunsOutWithANoteAndTheLatestSet) {
  open("a.cpp", "int a;\nint b;\n");
  publish("a.cpp", 1, json::array({error(0, "old warning")}));
  std::int64_t id =
      startService("edit", replaceLine("a.cpp", 2, "int c;", {{"diagnosticsWaitMs", 150}}));
  applyAndConfirm(nextApplyEdit());
  json result = finish(id); // no set for version 2 ever comes
  const json& d = result["diagnostics"];
  EXPECT_EQ(d["settled"], false) << d.dump();
  EXPECT_GE(d["waitedMs"].get<int>(), 150);
  EXPECT_THAT(d["note"].get<std::string>(), HasSubstr("version 2"));
  EXPECT_TRUE(d["introduced"].empty());
}

TEST_F(DiagnosticsServiceTest, ADocumentNoServerReportedOnAnswersAtOnceAndSkipIsHonoured) {
  open("a.cpp", "int a;\n");
  open("notes.txt", "one\ntwo\n");
  publish("a.cpp", 1, json::array());
  std::int64_t id =
      startService("edit", replaceLine("notes.txt", 2, "three", {{"diagnosticsWaitMs", 30000}}));
  applyAndConfirm(nextApplyEdit());
  json result = finish(id);
  EXPECT_EQ(result["diagnostics"]["available"], false) << result.dump();
  id = startService("edit", replaceLine("a.cpp", 1, "int b;", {{"diagnostics", false}}));
  applyAndConfirm(nextApplyEdit());
  EXPECT_FALSE(finish(id).contains("diagnostics"));
}

TEST_F(DiagnosticsServiceTest, BadInputIsRefusedOrIgnoredAndNothingBreaks) {
  open("a.cpp", "int a;\n");
  client_->notify("hashline/diagnostics", {{"uri", 7}});
  client_->notify("hashline/diagnostics", json::array({1, 2}));
  client_->notify("hashline/diagnostics", {{"uri", "file:///etc/passwd"},
                                           {"diagnostics", json::array({error(0, "outside")})}});
  // A huge set is bounded, not refused.
  json many = json::array();
  for (int i = 0; i < 3000; ++i)
    many.push_back(error(0, std::string(5000, 'm')));
  publish("a.cpp", 1, many);
  json listed = service("diagnostics", json::object());
  EXPECT_EQ(listed["available"], true);
  ASSERT_EQ(listed["files"].size(), 1u) << listed.dump().substr(0, 500); // not /etc/passwd
  EXPECT_EQ(listed["files"][0]["dropped"], 2500);
  EXPECT_EQ(listed["files"][0]["diagnostics"].size(), 500u);
  json outside = service("diagnostics", {{"path", "/etc/passwd"}});
  EXPECT_EQ(outside["status"], "refused");
  EXPECT_EQ(outside["error"]["code"], "OUTSIDE_WORKSPACE");
  json bad = client_->callError("hashline/diagnostics", {{"severity", "fatal"}});
  EXPECT_EQ(bad["code"], -32602);
}

} // namespace
} // namespace hashline::test
