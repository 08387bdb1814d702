// Every edit form through the sidecar onto open buffers (and patches mixing buffers and disk
// files, with rollback), through the real binary.
#include "tests/lsp/support/service_fixture.h"

#include <gmock/gmock.h>

namespace hashline::test {
namespace {

using json = nlohmann::json;
using ::testing::HasSubstr;

class FormsTest : public ServiceFixture {
protected:
  // Runs a form on a.txt, plays the editor, returns the result.
  json runForm(const std::string& method, json params) {
    params["uri"] = uriOf("a.txt");
    std::int64_t id = startService(method, std::move(params));
    applyAndConfirm(nextApplyEdit());
    return finish(id);
  }
};

TEST_F(FormsTest, ReplaceHeadTailRangeDraftEdOnABuffer) {
  open("a.txt", "int main() {\n  return 0;\n}\n\nvoid f() {\n  g();\n}\n");
  json read = service("read", {{"uri", uriOf("a.txt")}});

  json result = runForm("replace", {{"old", "return 0;"}, {"new", "return 1;"}});
  ASSERT_EQ(result["status"], "applied") << result.dump();
  EXPECT_THAT(model("a.txt").text, HasSubstr("return 1;"));

  result = runForm("headtail", {{"head", "void f() {"}, {"tail", "}"}, {"new", "void f() {}"}});
  ASSERT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(model("a.txt").text, "int main() {\n  return 1;\n}\n\nvoid f() {}\n");

  json read2 = service("read", {{"uri", uriOf("a.txt")}});
  result = runForm(
      "range", {{"start", 4}, {"end", 4}, {"content", "// gap"}, {"version", read2["version"]}});
  ASSERT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(model("a.txt").lines()[3], "// gap");

  result = runForm(
      "draft", {{"draft", "int main() {\n  // hello\n  return 1;\n// ... existing code ...\n"}});
  ASSERT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(model("a.txt").lines()[1], "  // hello");

  json read3 = service("read", {{"uri", uriOf("a.txt")}});
  result = runForm("ed", {{"script", "$a\n// end\n.\n"}, {"version", read3["version"]}});
  ASSERT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(model("a.txt").lines().back(), "// end");

  json read4 = service("read", {{"uri", uriOf("a.txt")}});
  result = runForm("ed", {{"script", anchorOf(read4, 1) + "s/main/start/\n"}});
  ASSERT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(model("a.txt").lines()[0], "int start() {");
  expectMirrorMatches("a.txt");
}

TEST_F(FormsTest, TextFormsAreStaleAfterTheUserChangedTheText) {
  open("a.txt", "one\ntwo\n");
  service("read", {{"uri", uriOf("a.txt")}});
  typeLineAt("a.txt", 0, "zero");
  json result = service("replace", {{"uri", uriOf("a.txt")}, {"old", "missing"}, {"new", "x"}});
  EXPECT_EQ(result["error"]["code"], "STALE_VERSION") << result.dump(); // stale before not-found
}

TEST_F(FormsTest, LineRangeAndEdNumbersRebaseThroughTheUsersTyping) {
  open("a.txt", "one\ntwo\nthree\n");
  json read = service("read", {{"uri", uriOf("a.txt")}});
  const std::int64_t version = read["version"];
  typeLineAt("a.txt", 0, "zero"); // every line moves down by one
  json range =
      runForm("range", {{"start", 1}, {"end", 1}, {"content", "ONE"}, {"version", version}});
  ASSERT_EQ(range["status"], "applied") << range.dump();
  EXPECT_EQ(model("a.txt").lines(), (std::vector<std::string>{"zero", "ONE", "two", "three"}));
  json ed = runForm("ed", {{"script", "3c\nTHREE\n.\n"}, {"at", version}});
  ASSERT_EQ(ed["status"], "applied") << ed.dump();
  EXPECT_EQ(model("a.txt").lines(), (std::vector<std::string>{"zero", "ONE", "two", "THREE"}));
  expectMirrorMatches("a.txt");
  // Lines the user changed since that version are refused, nothing applied.
  json stale = service(
      "range",
      {{"uri", uriOf("a.txt")}, {"start", 1}, {"end", 1}, {"content", "x"}, {"version", version}});
  EXPECT_EQ(stale["status"], "refused") << stale.dump();
  EXPECT_EQ(model("a.txt").lines()[1], "ONE");
}

TEST_F(FormsTest, DryRunPreviewsWithoutApplying) {
  open("a.txt", "one\ntwo\n");
  service("read", {{"uri", uriOf("a.txt")}});
  json preview = service(
      "replace", {{"uri", uriOf("a.txt")}, {"old", "two"}, {"new", "2"}, {"dry_run", true}});
  EXPECT_EQ(preview["status"], "preview");
  EXPECT_THAT(preview["diff"].get<std::string>(), HasSubstr("+2"));
  expectMirrorMatches("a.txt");
}

TEST_F(FormsTest, PatchAcrossABufferAndADiskFile) {
  open("a.txt", "alpha\nbeta\n");
  writeFile("a.txt", "on disk\n");
  writeFile("b.txt", "one\ntwo\n");
  service("read", {{"path", "a.txt"}});
  service("read", {{"path", "b.txt"}});
  std::string patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n alpha\n-beta\n+BETA\n"
                      "*** Update File: b.txt\n@@\n one\n-two\n+TWO\n*** Add File: c.txt\n+new\n"
                      "*** End Patch\n";
  std::int64_t id = startService("patch", {{"patch", patch}});
  applyAndConfirm(nextApplyEdit());
  json result = finish(id);
  ASSERT_EQ(result["status"], "applied") << result.dump();
  ASSERT_EQ(result["files"].size(), 3u);
  EXPECT_EQ(result["files"][0]["backend"], "buffer");
  EXPECT_EQ(result["files"][1]["backend"], "disk");
  EXPECT_EQ(model("a.txt").text, "alpha\nBETA\n");
  EXPECT_EQ(readFile("a.txt"), "on disk\n");
  EXPECT_EQ(readFile("b.txt"), "one\nTWO\n");
  EXPECT_EQ(readFile("c.txt"), "new\n");
}

TEST_F(FormsTest, PatchFailingPartWayRollsBackWhatItApplied) {
  writeFile("a.txt", "one\ntwo\n");
  open("b.txt", "alpha\nbeta\n");
  service("read", {{"path", "a.txt"}});
  service("read", {{"path", "b.txt"}});
  std::string patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n"
                      "*** Add File: new.txt\n+created\n"
                      "*** Update File: b.txt\n@@\n-beta\n+BETA\n*** End Patch\n";
  std::int64_t id = startService("patch", {{"patch", patch}});
  json request = nextApplyEdit(); // a.txt and new.txt are written by now
  EXPECT_EQ(readFile("a.txt"), "ONE\ntwo\n");
  client_->respond(request["id"], {{"applied", false}});
  json result = finish(id);
  ASSERT_EQ(result["status"], "refused") << result.dump();
  EXPECT_EQ(result["error"]["code"], "EDITOR_REJECTED");
  EXPECT_EQ(result["failedFile"], "b.txt");
  EXPECT_EQ(result["rolledBack"], json::array({"new.txt", "a.txt"}));
  EXPECT_EQ(result["applied"], json::array());
  EXPECT_EQ(readFile("a.txt"), "one\ntwo\n");
  EXPECT_FALSE(std::filesystem::exists(root_ / "new.txt"));
  EXPECT_EQ(model("b.txt").text, "alpha\nbeta\n");
}

TEST_F(FormsTest, PatchNeedsReadsAndRefusesToDeleteOpenBuffers) {
  writeFile("a.txt", "one\n");
  json result = service(
      "patch",
      {{"patch", "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** End Patch\n"}});
  EXPECT_EQ(result["error"]["code"], "NOT_OBSERVED");
  open("b.txt", "x\n");
  writeFile("b.txt", "x\n");
  service("read", {{"path", "b.txt"}});
  result =
      service("patch", {{"patch", "*** Begin Patch\n*** Delete File: b.txt\n*** End Patch\n"}});
  EXPECT_EQ(result["error"]["code"], "CONFLICT");
  EXPECT_TRUE(std::filesystem::exists(root_ / "b.txt"));
}

} // namespace
} // namespace hashline::test
