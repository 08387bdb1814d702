// The agent service on documents open in the editor, through the real binary: reads, anchored
// edits through versioned workspace/applyEdit, and every way the editor can fail to apply.
#include "tests/lsp/support/service_fixture.h"

#include <gmock/gmock.h>

namespace hashline::test {
namespace {

using json = nlohmann::json;
using ::testing::HasSubstr;

class BufferEditTest : public ServiceFixture {};

TEST_F(BufferEditTest, ReadShowsRowsOfTheUnsavedBuffer) {
  writeFile("a.txt", "on disk\n");
  open("a.txt", "alpha\nbeta\ngamma\n");
  json read = service("read", {{"uri", uriOf("a.txt")}});
  EXPECT_EQ(read["status"], "ok");
  EXPECT_EQ(read["lineCount"], 3); // no phantom line
  EXPECT_EQ(read["version"], 1);
  EXPECT_EQ(read["tier"], "block");
  ASSERT_EQ(read["lines"].size(), 3u);
  EXPECT_EQ(read["lines"][1]["text"], "beta");
  EXPECT_THAT(read["text"].get<std::string>(), HasSubstr("\xE2\x86\x92"
                                                         "beta"));
  // by path too
  json by_path = service("read", {{"path", "a.txt"}, {"from", 2}, {"to", 2}, {"tier", "line"}});
  EXPECT_EQ(by_path["lines"].size(), 1u);
  EXPECT_EQ(by_path["tier"], "line");
  EXPECT_EQ(by_path["uri"], uriOf("a.txt"));
}

TEST_F(BufferEditTest, ReadFormatLeavesOutRowsOrText) {
  open("a.txt", "alpha\nbeta\ngamma\n");
  json both = service("read", {{"uri", uriOf("a.txt")}, {"format", "both"}});
  json rows = service("read", {{"uri", uriOf("a.txt")}, {"format", "rows"}});
  json text = service("read", {{"uri", uriOf("a.txt")}, {"format", "text"}});
  EXPECT_EQ(rows["lines"], both["lines"]);
  EXPECT_FALSE(rows.contains("text")) << rows.dump();
  EXPECT_EQ(text["text"], both["text"]);
  EXPECT_FALSE(text.contains("lines")) << text.dump();
  EXPECT_EQ(text["version"], 1);
  EXPECT_EQ(text["lineCount"], 3);
  // An anchor read in the text format verifies like any other.
  const std::string rows_text = text["text"];
  const std::string first_anchor = rows_text.substr(0, rows_text.find("\xE2\x86\x92"));
  json preview = service(
      "edit", {{"uri", uriOf("a.txt")},
               {"dry_run", true},
               {"edits", {{{"op", "replace"}, {"anchor", first_anchor}, {"content", "ALPHA"}}}}});
  EXPECT_EQ(preview["status"], "preview") << preview.dump();
  json bad = client_->callError("hashline/read", {{"uri", uriOf("a.txt")}, {"format", "xml"}});
  EXPECT_EQ(bad["code"], -32602);
  EXPECT_THAT(bad["message"].get<std::string>(), HasSubstr("rows, text or both"));
}

TEST_F(BufferEditTest, EditLandsInTheBufferAndNotOnDisk) {
  writeFile("a.txt", "disk\n");
  open("a.txt", "alpha\nbeta\ngamma\n");
  json read = service("read", {{"uri", uriOf("a.txt")}});
  std::int64_t id = startService(
      "edit",
      {{"uri", uriOf("a.txt")},
       {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, 2)}, {"content", "BETA"}}}}});
  json request = nextApplyEdit();
  const json& change = request["params"]["edit"]["documentChanges"];
  ASSERT_EQ(change.size(), 1u);
  EXPECT_EQ(change[0]["textDocument"]["uri"], uriOf("a.txt"));
  EXPECT_EQ(change[0]["edits"].size(), 1u); // minimal: one word
  applyAndConfirm(request);
  json result = finish(id);
  EXPECT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(result["version"], 2);
  EXPECT_EQ(result["versionBefore"], 1);
  EXPECT_EQ(result["backend"], "buffer");
  EXPECT_THAT(result["diff"].get<std::string>(), HasSubstr("-beta\n+BETA\n"));
  EXPECT_EQ(model("a.txt").text, "alpha\nBETA\ngamma\n");
  EXPECT_EQ(readFile("a.txt"), "disk\n");
  expectMirrorMatches("a.txt");

  // Chained edit with the fresh anchors of the result, no re-read.
  std::string fresh;
  for (const json& row : result["anchors"])
    if (row["line"] == 3) fresh = row["anchor"];
  ASSERT_FALSE(fresh.empty());
  id = startService(
      "edit", {{"uri", uriOf("a.txt")},
               {"edits", {{{"op", "insert_after"}, {"anchor", fresh}, {"content", "delta"}}}}});
  applyAndConfirm(nextApplyEdit());
  result = finish(id);
  EXPECT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(model("a.txt").text, "alpha\nBETA\ngamma\ndelta\n");
}

TEST_F(BufferEditTest, UserTypedAboveTheEditRebases) {
  open("a.txt", "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n");
  json read = service("read", {{"uri", uriOf("a.txt")}});
  typeLineAt("a.txt", 0, "typed 1");
  typeLineAt("a.txt", 0, "typed 2");
  std::int64_t id = startService(
      "edit",
      {{"uri", uriOf("a.txt")},
       {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, 10)}, {"content", "TEN"}}}}});
  applyAndConfirm(nextApplyEdit());
  json result = finish(id);
  ASSERT_EQ(result["status"], "applied") << result.dump();
  ASSERT_EQ(result["rebased"].size(), 1u);
  EXPECT_EQ(result["rebased"][0]["from"], 10);
  EXPECT_EQ(result["rebased"][0]["to"], 12);
  EXPECT_EQ(model("a.txt").lines()[11], "TEN");
  expectMirrorMatches("a.txt");
}

TEST_F(BufferEditTest, ChangedTargetLineIsStaleWithFreshAnchors) {
  open("a.txt", "one\ntwo\nthree\n");
  json read = service("read", {{"uri", uriOf("a.txt")}});
  auto [begin, end] = model("a.txt").lineBytes(1);
  type("a.txt", begin, end, "TWO by the user");
  json result = service(
      "edit",
      {{"uri", uriOf("a.txt")},
       {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, 2)}, {"content", "agent"}}}}});
  ASSERT_EQ(result["status"], "refused");
  EXPECT_EQ(result["error"]["code"], "STALE_ANCHOR");
  EXPECT_FALSE(result["error"]["data"]["freshAnchors"].empty());
  EXPECT_EQ(model("a.txt").text, "one\nTWO by the user\nthree\n");
}

TEST_F(BufferEditTest, AppliedTrueWithoutChangeIsNotApplied) {
  open("a.txt", "one\ntwo\n");
  json read = service("read", {{"uri", uriOf("a.txt")}});
  std::int64_t id = startService(
      "edit",
      {{"uri", uriOf("a.txt")},
       {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, 1)}, {"content", "ONE"}}}}});
  json request = nextApplyEdit();
  client_->respond(request["id"], {{"applied", true}}); // Neovim 0.7's silent drop
  json result = finish(id);
  EXPECT_EQ(result["status"], "refused") << result.dump();
  EXPECT_EQ(result["error"]["code"], "EDITOR_REJECTED");
  expectMirrorMatches("a.txt");
}

TEST_F(BufferEditTest, AppliedFalseIsRejected) {
  open("a.txt", "one\ntwo\n");
  json read = service("read", {{"uri", uriOf("a.txt")}});
  std::int64_t id =
      startService("replace", {{"uri", uriOf("a.txt")}, {"old", "two"}, {"new", "TWO"}});
  json request = nextApplyEdit();
  client_->respond(request["id"], {{"applied", false}, {"failureReason", "nope"}});
  json result = finish(id);
  EXPECT_EQ(result["error"]["code"], "EDITOR_REJECTED") << result.dump();
  EXPECT_THAT(result["error"]["message"].get<std::string>(), HasSubstr("nope"));
}

TEST_F(BufferEditTest, ErrorReplyIsRejected) {
  open("a.txt", "one\ntwo\n");
  service("read", {{"uri", uriOf("a.txt")}});
  std::int64_t id =
      startService("replace", {{"uri", uriOf("a.txt")}, {"old", "two"}, {"new", "2"}});
  client_->respondError(nextApplyEdit()["id"], -32603, "internal");
  EXPECT_EQ(finish(id)["error"]["code"], "EDITOR_REJECTED");
}

TEST_F(BufferEditTest, NoReplyTimesOut) {
  open("a.txt", "one\ntwo\n");
  service("read", {{"uri", uriOf("a.txt")}});
  std::int64_t id =
      startService("replace", {{"uri", uriOf("a.txt")}, {"old", "two"}, {"new", "2"}});
  nextApplyEdit(); // never answered
  json result = finish(id);
  EXPECT_EQ(result["error"]["code"], "EDITOR_TIMEOUT") << result.dump();
}

TEST_F(BufferEditTest, EditThatTimedOutButLandsLateIsJournaled) {
  open("a.txt", "one\ntwo\nthree\n");
  service("read", {{"uri", uriOf("a.txt")}});
  std::int64_t id =
      startService("replace", {{"uri", uriOf("a.txt")}, {"old", "two"}, {"new", "2"}});
  json request = nextApplyEdit();
  json result = finish(id);
  ASSERT_EQ(result["error"]["code"], "EDITOR_TIMEOUT") << result.dump();
  EXPECT_TRUE(service("log", json::object())["ops"].empty());
  // The slow editor applies the edit after all (its version still matches: nobody typed).
  applyAndConfirm(request);
  EXPECT_EQ(model("a.txt").text, "one\n2\nthree\n");
  expectMirrorMatches("a.txt");
  json log = service("log", json::object());
  ASSERT_EQ(log["ops"].size(), 1u) << log.dump();
  // Journaled, so it can be undone without touching what the user typed since.
  typeLineAt("a.txt", 0, "zero");
  const std::string op = std::to_string(log["ops"][0]["op"].get<std::int64_t>());
  std::int64_t undo = startService("undo", {{"op", op}});
  applyAndConfirm(nextApplyEdit());
  EXPECT_EQ(finish(undo)["status"], "applied");
  EXPECT_EQ(model("a.txt").text, "zero\none\ntwo\nthree\n");
}

TEST_F(BufferEditTest, UserTypedBetweenVerifyAndApplyIsRetried) {
  open("a.txt", "one\ntwo\nthree\n");
  json read = service("read", {{"uri", uriOf("a.txt")}});
  std::int64_t id = startService(
      "edit",
      {{"uri", uriOf("a.txt")},
       {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, 3)}, {"content", "THREE"}}}}});
  json first = nextApplyEdit();
  EXPECT_EQ(first["params"]["edit"]["documentChanges"][0]["textDocument"]["version"], 1);
  typeLineAt("a.txt", 0, "zero"); // the user was faster: VS Code refuses the stale version
  client_->respond(first["id"], {{"applied", false}});
  json second = nextApplyEdit();
  EXPECT_EQ(second["params"]["edit"]["documentChanges"][0]["textDocument"]["version"], 2);
  applyAndConfirm(second);
  json result = finish(id);
  ASSERT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(result["attempts"], 2);
  EXPECT_EQ(model("a.txt").text, "zero\none\ntwo\nTHREE\n");
  expectMirrorMatches("a.txt");
}

TEST_F(BufferEditTest, NeovimDropAfterTypingIsRetried) {
  open("a.txt", "one\ntwo\nthree\n");
  json read = service("read", {{"uri", uriOf("a.txt")}});
  std::int64_t id = startService(
      "edit",
      {{"uri", uriOf("a.txt")},
       {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, 1)}, {"content", "ONE"}}}}});
  json first = nextApplyEdit();
  auto at = model("a.txt").text.size();
  type("a.txt", at, at, "four\n");                    // the buffer is newer...
  client_->respond(first["id"], {{"applied", true}}); // ...so Neovim dropped it, says true
  json second = nextApplyEdit();
  applyAndConfirm(second);
  json result = finish(id);
  ASSERT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(model("a.txt").text, "ONE\ntwo\nthree\nfour\n");
}

TEST_F(BufferEditTest, RetryRefusedWhenTheTargetLinesChanged) {
  open("a.txt", "one\ntwo\nthree\n");
  json read = service("read", {{"uri", uriOf("a.txt")}});
  std::int64_t id = startService(
      "edit",
      {{"uri", uriOf("a.txt")},
       {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, 2)}, {"content", "TWO"}}}}});
  json first = nextApplyEdit();
  auto [begin, end] = model("a.txt").lineBytes(1);
  type("a.txt", begin, end, "two!");
  client_->respond(first["id"], {{"applied", false}});
  json result = finish(id);
  EXPECT_EQ(result["status"], "refused") << result.dump();
  EXPECT_EQ(model("a.txt").text, "one\ntwo!\nthree\n");
}

TEST_F(BufferEditTest, EditSplitOverSeveralNotificationsIsConfirmed) {
  open("a.txt", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n");
  json read = service("read", {{"uri", uriOf("a.txt")}, {"tier", "line"}});
  std::int64_t id = startService(
      "edit", {{"uri", uriOf("a.txt")},
               {"edits",
                {{{"op", "replace"}, {"anchor", anchorOf(read, 1)}, {"content", "A"}},
                 {{"op", "replace"}, {"anchor", anchorOf(read, 9)}, {"content", "I"}}}}});
  json request = nextApplyEdit();
  const json& edits = request["params"]["edit"]["documentChanges"][0]["edits"];
  ASSERT_EQ(edits.size(), 2u);
  // Apply each TextEdit as its own didChange (Neovim sends one per nvim_buf_set_text).
  EditorModel& buffer = model("a.txt");
  for (int i = int(edits.size()) - 1; i >= 0; --i) {
    std::vector<json> changes = buffer.applyTextEdits(json::array({edits[i]}));
    buffer.version += 1;
    client_->didChange(buffer.uri, buffer.version, changes);
  }
  client_->respond(request["id"], {{"applied", true}});
  json result = finish(id);
  EXPECT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(buffer.text, "A\nb\nc\nd\ne\nf\ng\nh\nI\nj\n");
}

TEST_F(BufferEditTest, EditsToOneDocumentAreSerialized) {
  open("a.txt", "one\ntwo\nthree\n");
  json read = service("read", {{"uri", uriOf("a.txt")}, {"tier", "line"}});
  std::int64_t first = startService(
      "edit",
      {{"uri", uriOf("a.txt")},
       {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, 1)}, {"content", "ONE"}}}}});
  std::int64_t second = startService(
      "edit",
      {{"uri", uriOf("a.txt")},
       {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, 3)}, {"content", "THREE"}}}}});
  json request = nextApplyEdit();
  EXPECT_EQ(request["params"]["edit"]["documentChanges"][0]["textDocument"]["version"], 1);
  applyAndConfirm(request);
  request = nextApplyEdit(); // only now: planned on version 2
  EXPECT_EQ(request["params"]["edit"]["documentChanges"][0]["textDocument"]["version"], 2);
  applyAndConfirm(request);
  EXPECT_EQ(finish(first)["status"], "applied");
  EXPECT_EQ(finish(second)["status"], "applied");
  EXPECT_EQ(model("a.txt").text, "ONE\ntwo\nTHREE\n");
}

TEST_F(BufferEditTest, NotObservedAndDesyncAndCommandForm) {
  open("a.txt", "one\n");
  json result = service("replace", {{"uri", uriOf("a.txt")}, {"old", "one"}, {"new", "1"}});
  EXPECT_EQ(result["error"]["code"], "NOT_OBSERVED");
  // executeCommand with arguments: [ {...} ]
  json read =
      client_->callResult("workspace/executeCommand", {{"command", "hashline.read"},
                                                       {"arguments", {{{"uri", uriOf("a.txt")}}}}});
  EXPECT_EQ(read["lineCount"], 1);
  json bad = client_->callError("hashline/read", {{"uri", 42}});
  EXPECT_EQ(bad["code"], -32602);
  json status = service("status", json::object());
  EXPECT_EQ(status["documents"].size(), 1u);
  EXPECT_EQ(status["encoding"], "utf-16");
  EXPECT_EQ(status["workspaceRoots"][0], root_.string());
}

TEST_F(BufferEditTest, ClosedDocumentsGoToDiskInsideTheWorkspaceOnly) {
  writeFile("b.txt", "x\ny\n");
  json read = service("read", {{"path", "b.txt"}});
  EXPECT_EQ(read["uri"], uriOf("b.txt"));
  json result = service(
      "edit", {{"path", "b.txt"}, {"edits", {{{"op", "delete"}, {"anchor", anchorOf(read, 1)}}}}});
  EXPECT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(result["backend"], "disk");
  EXPECT_EQ(readFile("b.txt"), "y\n");
  json outside = service("read", {{"path", "/etc/hostname"}});
  EXPECT_EQ(outside["error"]["code"], "OUTSIDE_WORKSPACE");
}

} // namespace
} // namespace hashline::test
