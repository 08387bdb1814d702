// openDiff answered only with what the user chose (issue 30; docs/claude-ide.md, "openDiff: who
// decides"), one test per path of that table: a file not open (the editor shows it; an editor
// that cannot leaves the call to Claude Code's prompt), a proposal over the user's unsaved typing
// (a conflict the user resolves, then Accept / Reject), a proposal the buffer already holds, a
// file deleted meanwhile, a proposal that is not text, two openDiffs of one file, and
// close_tab / closeAllDiffTabs / the connection closing while a review is undecided; and after a
// decision on a file that was not open, `hashline pending` and `hashline log` of the live sidecar
// (a CLI process over its agent socket) show the decision. The real binary over pipes (this test
// plays the editor) and a real WebSocket (it plays Claude Code).
// "Not answered yet" is shown by order, never by time: the sidecar answers a connection's
// messages in order, so a ping's reply arriving first proves no answer was sent before it.
#include "tests/lsp/ide/ide_test_util.h"
#include "tests/lsp/support/hashline_binary.h"
#include "tests/lsp/support/piped_process.h"

#include <optional>
#include <sys/stat.h>

namespace hashline::test {
namespace {

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The next frame is the reply to a fresh ping: nothing else was sent before it.
void expectNothingAnswered(IdeClient& ide) {
  json next = ide.call("ping");
  EXPECT_EQ(next["result"], json::object())
      << "answered although the user decided nothing: " << next.dump();
}

// The next window/showMessage holding `text` (others, e.g. the reconciler's, are skipped).
std::string waitMessage(LspClient& client, const std::string& text) {
  for (int seen = 0; seen < 8; ++seen) {
    json message = client.waitNotification("window/showMessage");
    if (message.is_null()) break;
    const std::string said = message["params"].value("message", "");
    if (said.find(text) != std::string::npos) return said;
  }
  ADD_FAILURE() << "no window/showMessage with \"" << text << "\"";
  return {};
}

json openDiffArguments(const fs::path& file, const std::string& contents, const std::string& tab) {
  return {{"old_file_path", file.string()},
          {"new_file_path", file.string()},
          {"new_file_contents", contents},
          {"tab_name", tab}};
}

// `hashline ARGS... --json` run in `cwd` as an agent does (it reaches the live sidecar of the
// workspace through its discovery record): its stdout, parsed.
json cliJson(const fs::path& cwd, std::vector<std::string> args) {
  args.insert(args.begin(), hashlineBinary());
  args.push_back("--json");
  PipedProcess cli(args, cwd.string());
  cli.closeInput();
  std::string out;
  cli.readUntilEnd([&out](std::string_view chunk) { out.append(chunk); });
  EXPECT_EQ(cli.waitForExit(std::chrono::seconds(30)), 0) << out << cli.log();
  return json::parse(out, nullptr, false);
}

// The next frame is the answer to call `id`: `kind` (FILE_SAVED, DIFF_REJECTED, TAB_CLOSED, ...)
// and, when given, the text after it.
void expectAnswer(IdeClient& ide, int id, const std::string& kind,
                  const std::optional<std::string>& text = std::nullopt) {
  json answer = ide.receive();
  EXPECT_EQ(answer["id"], id) << answer.dump();
  EXPECT_EQ(contentText(answer, 0), kind) << answer.dump();
  if (text) {
    EXPECT_EQ(contentText(answer, 1), *text);
  }
}

// The sidecar sent the editor no edit (after all it was sent so far).
void expectNoBufferEdit(LspClient& client) {
  client.sync();
  EXPECT_TRUE(client.takeServerRequests("workspace/applyEdit").empty());
}

// The editor (the sidecar's LspClient) and Claude Code (its IDE connection, initialized), and
// what each does in these tests.
struct Session {
  Session(std::unique_ptr<LspClient> editor, int port, const std::string& token)
      : client(std::move(editor)), ide(port, token) {
    ide.call("initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}});
  }
  /// The user opens `file` in the editor, its buffer holding `text`.
  EditorModel openBuffer(const fs::path& file, const std::string& text) {
    EditorModel buffer("file://" + file.string(), text);
    client->didOpen(buffer.uri, buffer.text, buffer.version);
    client->sync();
    return buffer;
  }
  /// Claude Code proposes `contents` for `file` in tab `tab`; the call's id (it is answered when
  /// the user decided).
  int openDiff(const fs::path& file, const std::string& contents, const std::string& tab) {
    return ide.startCall("openDiff", openDiffArguments(file, contents, tab));
  }
  /// The sidecar asks the editor to show `file` (not open): nothing is answered yet; the editor
  /// shows it and opens its buffer, holding `text`.
  EditorModel showAndOpen(const fs::path& file, const std::string& text) {
    json show = client->waitServerRequest("window/showDocument");
    EXPECT_EQ(show["params"]["uri"], "file://" + file.string()) << client->log();
    EXPECT_EQ(show["params"]["takeFocus"], true);
    expectNothingAnswered(ide);
    client->respond(show["id"], {{"success", true}});
    return openBuffer(file, text);
  }
  /// The user keeps Claude Code's pending op on `file` (hashline/accept); false when none.
  bool keep(const fs::path& file) { return decide("hashline/accept", file); }
  /// The user rejects it (hashline/reject, only sent: the editor applies the edit that follows).
  bool reject(const fs::path& file) { return decide("hashline/reject", file); }
  /// The editor's Accept / Reject question comes, with nothing answered to Claude Code yet; the
  /// user answers `title` (null: dismisses it). The question, for its text.
  json answerQuestion(const json& title) {
    json question = client->waitServerRequest("window/showMessageRequest");
    EXPECT_FALSE(question.is_null()) << client->log();
    expectNothingAnswered(ide);
    client->respond(question["id"], title.is_null() ? json(nullptr) : json{{"title", title}});
    return question;
  }

  std::unique_ptr<LspClient> client;
  IdeClient ide;

private:
  bool decide(const std::string& method, const fs::path& file) {
    const std::uint64_t op = pendingOp(*client, file.string());
    EXPECT_NE(op, 0u) << "no pending op on " << file << "\n" << client->log();
    if (op == 0) return false;
    if (method == "hashline/reject")
      client->request(method, {{"op", std::to_string(op)}});
    else
      client->callResult(method, {{"op", std::to_string(op)}});
    return true;
  }
};

const json kApplyEdit = {{"workspace", {{"applyEdit", true}}}};

class ClaudeOpenDiff : public ClaudeIdeTest {
protected:
  std::unique_ptr<Session> connect(json capabilities = json::object()) {
    auto client = start(root_ / "ws", std::move(capabilities));
    const int at = port();
    return std::make_unique<Session>(std::move(client), at, onlyLock()["authToken"]);
  }
  /// `name` in the workspace, holding `text` on disk.
  fs::path workspaceFile(const std::string& name, const std::string& text) {
    const fs::path file = root_ / "ws" / name;
    std::ofstream(file) << text;
    return file;
  }
};

TEST_F(ClaudeOpenDiff, AFileNotOpenIsShownInTheEditorAndReviewedThere) {
  const fs::path file = workspaceFile("g.txt", "alpha\nbeta\n");
  const fs::path other = workspaceFile("h.txt", "one\n");
  auto s = connect(kApplyEdit);
  LspClient& client = *s->client;
  IdeClient& ide = s->ide;

  int call = s->openDiff(file, "alpha\nBETA\n", "g (1)");
  EditorModel buffer = s->showAndOpen(file, "alpha\nbeta\n");
  applyNextEdit(client, buffer);
  EXPECT_EQ(buffer.text, "alpha\nBETA\n");
  expectNothingAnswered(ide);
  ASSERT_TRUE(s->reject(file));
  applyNextEdit(client, buffer);
  expectAnswer(ide, call, "DIFF_REJECTED", "g (1)");
  EXPECT_EQ(buffer.text, "alpha\nbeta\n");
  EXPECT_EQ(readFile(file), "alpha\nbeta\n");

  // Accepted: FILE_SAVED with the buffer's text, only after the user kept it.
  call = s->openDiff(other, "one\ntwo\n", "h (1)");
  EditorModel second = s->showAndOpen(other, "one\n");
  applyNextEdit(client, second);
  expectNothingAnswered(ide);
  ASSERT_TRUE(s->keep(other));
  expectAnswer(ide, call, "FILE_SAVED", "one\ntwo\n");
  EXPECT_EQ(readFile(other), "one\n") << "hashline wrote the file itself";
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

// Issue 34: after ✗ Reject and after ✓ Keep of an openDiff of a file that was not open, the live
// sidecar's `hashline pending` lists nothing of it and `hashline log` shows the decision — also
// once Claude Code wrote the kept text and the sidecar took that write for the buffer's.
TEST_F(ClaudeOpenDiff, ADecisionOnAFileThatWasNotOpenLeavesNothingPending) {
  const fs::path state = root_ / "state", run = root_ / "run", ws = root_ / "ws";
  fs::create_directories(state);
  fs::create_directories(run);
  ::chmod(run.c_str(), 0700);
  ::setenv("HASHLINE_STATE_DIR", state.c_str(), 1);
  ::setenv("HASHLINE_RUNTIME_DIR", run.c_str(), 1);
  const fs::path rejected = workspaceFile("nb.txt", "b1\nb2\nb3\n");
  const fs::path kept = workspaceFile("nc.txt", "c1\nc2\nc3\n");
  auto s = connect(kApplyEdit);
  LspClient& client = *s->client;
  IdeClient& ide = s->ide;
  auto pendingOf = [&ws](const fs::path& file) {
    return cliJson(ws, {"pending", "--path", file.string()});
  };
  // The hunk states of `file`'s ops in `hashline log`, by the op's method.
  auto statesOf = [&ws](const fs::path& file) {
    json log = cliJson(ws, {"log", "--path", file.string()});
    std::vector<std::string> states;
    for (const json& op : log.value("ops", json::array()))
      for (const json& hunk : op.value("hunks", json::array()))
        states.push_back(op.value("method", "") + " by " + op.value("agent", "") + ": " +
                         hunk.value("state", ""));
    return states;
  };

  int call = s->openDiff(rejected, "b1\nB2\nb3\n", "nb (1)");
  EditorModel b = s->showAndOpen(rejected, "b1\nb2\nb3\n");
  applyNextEdit(client, b);
  json pending = pendingOf(rejected);
  EXPECT_EQ(pending["count"], 1) << "the proposal is a pending review: " << pending.dump();
  // Answered by the live sidecar (only it knows the buffer), not from the journal on disk.
  EXPECT_EQ(pending["files"][0]["backend"], "buffer") << pending.dump();
  // ✗ Reject on the lens, as VS Code sends it: the hunk's id.
  const std::string hunk = pending["files"][0]["hunks"][0].value("id", "");
  const std::int64_t rejecting =
      client.request("workspace/executeCommand",
                     {{"command", "hashline.reject"}, {"arguments", {{{"hunk", hunk}}}}});
  applyNextEdit(client, b);
  EXPECT_TRUE(client.waitResponse(rejecting).contains("result"));
  expectAnswer(ide, call, "DIFF_REJECTED", "nb (1)");
  EXPECT_EQ(b.text, "b1\nb2\nb3\n");
  pending = pendingOf(rejected);
  EXPECT_EQ(pending["count"], 0) << pending.dump();
  EXPECT_EQ(statesOf(rejected), (std::vector<std::string>{"openDiff by claude-code: reverted",
                                                          "reject by user: decision"}));

  call = s->openDiff(kept, "c1\nC2\nc3\n", "nc (1)");
  EditorModel c = s->showAndOpen(kept, "c1\nc2\nc3\n");
  applyNextEdit(client, c);
  pending = pendingOf(kept);
  ASSERT_EQ(pending["count"], 1) << pending.dump();
  client.callResult("workspace/executeCommand",
                    {{"command", "hashline.accept"},
                     {"arguments", {{{"hunk", pending["files"][0]["hunks"][0]["id"]}}}}});
  expectAnswer(ide, call, "FILE_SAVED", "c1\nC2\nc3\n");
  pending = pendingOf(kept);
  EXPECT_EQ(pending["count"], 0) << pending.dump();
  // Claude Code writes the text it was answered; the sidecar finds it is the buffer's.
  std::ofstream(kept, std::ios::binary | std::ios::trunc) << "c1\nC2\nc3\n";
  json reconciled = client.waitNotification("hashline/reconciled");
  EXPECT_EQ(reconciled["params"]["path"], kept.string()) << reconciled;
  EXPECT_EQ(reconciled["params"]["bufferMatchesDisk"], true) << reconciled;
  pending = pendingOf(kept);
  EXPECT_EQ(pending["count"], 0) << pending.dump();
  EXPECT_EQ(statesOf(kept), std::vector<std::string>{"openDiff by claude-code: accepted"});
  pending = cliJson(ws, {"pending"});
  EXPECT_EQ(pending["count"], 0) << pending.dump();
  EXPECT_EQ(client.shutdownAndExit(), 0);
  ::unsetenv("HASHLINE_STATE_DIR");
  ::unsetenv("HASHLINE_RUNTIME_DIR");
}

TEST_F(ClaudeOpenDiff, AnEditorThatCannotShowTheFileLeavesTheCallToClaudeCode) {
  const fs::path file = workspaceFile("g.txt", "alpha\n");
  auto s = connect();
  LspClient& client = *s->client;
  IdeClient& ide = s->ide;

  // The editor says no: unanswered, the user told to answer in Claude Code's terminal.
  s->openDiff(file, "ALPHA\n", "g (1)");
  json show = client.waitServerRequest("window/showDocument");
  client.respond(show["id"], {{"success", false}});
  waitMessage(client, "the editor could not show it");
  expectNothingAnswered(ide);
  EXPECT_NE(client.log().find("not answered, Claude Code's own prompt decides"), std::string::npos)
      << client.log();
  // Claude Code's terminal decided and it closes the tab: TAB_CLOSED, and still no answer.
  int closing = ide.startCall("close_tab", {{"tab_name", "g (1)"}});
  expectAnswer(ide, closing, "TAB_CLOSED");
  expectNothingAnswered(ide);

  // An LSP client without showDocument: the same.
  s->openDiff(file, "ALPHA\n", "g (2)");
  show = client.waitServerRequest("window/showDocument");
  client.respondError(show["id"], -32601, "method not found");
  waitMessage(client, "Answer it in Claude Code's terminal");
  expectNothingAnswered(ide);
  // Claude Code goes away with the call open: dropped, the sidecar goes on.
  ide.close();
  IdeClient again(port(), onlyLock()["authToken"]);
  EXPECT_EQ(again.call("ping")["result"], json::object());
  EXPECT_EQ(readFile(file), "alpha\n");
  expectNoBufferEdit(client);
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST_F(ClaudeOpenDiff, AProposalOverUnsavedTypingIsAConflictTheUserResolvesThenDecides) {
  const fs::path file = workspaceFile("c.txt", "one\ntwo\nthree\n");
  auto s = connect(kApplyEdit);
  LspClient& client = *s->client;
  IdeClient& ide = s->ide;
  const std::string typed = "one\ntwo typed\nthree\n";
  EditorModel buffer = s->openBuffer(file, typed);

  // 1. Claude's lines shown in place of the user's; Reject puts the user's back (keep theirs);
  // then Accept: FILE_SAVED with exactly the user's text.
  int call = s->openDiff(file, "one\nTWO by claude\nthree\n", "c (1)");
  applyNextEdit(client, buffer);
  EXPECT_EQ(buffer.text, "one\nTWO by claude\nthree\n");
  const std::string warning = waitMessage(client, "overlaps your unsaved typing at line 2");
  EXPECT_NE(warning.find("two typed"), std::string::npos) << warning;
  EXPECT_NE(warning.find("TWO by claude"), std::string::npos) << warning;
  ASSERT_TRUE(s->reject(file));
  applyNextEdit(client, buffer);
  EXPECT_EQ(buffer.text, typed);
  json question = s->answerQuestion("Accept");
  EXPECT_EQ(question["params"]["actions"],
            json::array({{{"title", "Accept"}}, {{"title", "Reject"}}}));
  EXPECT_NE(question["params"]["message"].get<std::string>().find("overlapped your unsaved typing"),
            std::string::npos);
  expectAnswer(ide, call, "FILE_SAVED", typed);

  // 2. Take Claude's (Keep), then Reject the edit: Claude's lines go out again, DIFF_REJECTED.
  call = s->openDiff(file, "one\nTWO again\nthree\n", "c (2)");
  applyNextEdit(client, buffer);
  EXPECT_EQ(buffer.text, "one\nTWO again\nthree\n");
  ASSERT_TRUE(s->keep(file));
  s->answerQuestion("Reject");
  applyNextEdit(client, buffer); // the op taken out again
  EXPECT_EQ(buffer.text, typed);
  expectAnswer(ide, call, "DIFF_REJECTED");

  // 3. The user edits Claude's lines, keeps them, and accepts: FILE_SAVED with the edited text.
  call = s->openDiff(file, "one\nTWO third\nthree\n", "c (3)");
  applyNextEdit(client, buffer);
  const std::uint64_t third = pendingOp(client, file.string());
  ASSERT_NE(third, 0u);
  const auto [begin, end] = buffer.lineBytes(1);
  client.didChange(buffer.uri, ++buffer.version,
                   {buffer.replaceBytes(begin, end, "TWO third, edited by me")});
  client.sync();
  client.callResult("hashline/accept", {{"op", std::to_string(third)}});
  s->answerQuestion("Accept");
  expectAnswer(ide, call, "FILE_SAVED", "one\nTWO third, edited by me\nthree\n");

  // 4. The question dismissed: no answer (Claude Code's prompt decides); close_tab then takes
  // Claude's lines out of the buffer before TAB_CLOSED.
  const std::string before = buffer.text;
  s->openDiff(file, "one\nTWO fourth\nthree\n", "c (4)");
  applyNextEdit(client, buffer);
  ASSERT_TRUE(s->keep(file));
  s->answerQuestion(nullptr);
  waitMessage(client, "the question was dismissed");
  expectNothingAnswered(ide);
  int closing = ide.startCall("close_tab", {{"tab_name", "c (4)"}});
  applyNextEdit(client, buffer);
  EXPECT_EQ(buffer.text, before);
  expectAnswer(ide, closing, "TAB_CLOSED");
  EXPECT_EQ(readFile(file), "one\ntwo\nthree\n") << "hashline wrote the file itself";
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST_F(ClaudeOpenDiff, AProposalTheBufferAlreadyHoldsIsAskedAbout) {
  const fs::path file = workspaceFile("i.txt", "a\nb\n");
  auto s = connect(kApplyEdit);
  LspClient& client = *s->client;
  IdeClient& ide = s->ide;
  // The user already typed exactly what Claude proposes: nothing to review, so the editor asks.
  EditorModel buffer = s->openBuffer(file, "a\nB\n");
  int call = s->openDiff(file, "a\nB\n", "i (1)");
  json question = s->answerQuestion("Reject");
  EXPECT_NE(question["params"]["message"].get<std::string>().find("already holds it"),
            std::string::npos)
      << question;
  expectAnswer(ide, call, "DIFF_REJECTED");
  call = s->openDiff(file, "a\nB\n", "i (2)");
  s->answerQuestion("Accept");
  expectAnswer(ide, call, "FILE_SAVED", "a\nB\n");
  expectNoBufferEdit(client);
  EXPECT_EQ(readFile(file), "a\nb\n");
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST_F(ClaudeOpenDiff, AFileDeletedMeanwhileIsAWholeFileConflict) {
  const fs::path file = workspaceFile("d.txt", "x\ny\n");
  auto s = connect(kApplyEdit);
  LspClient& client = *s->client;
  IdeClient& ide = s->ide;
  EditorModel buffer = s->openBuffer(file, "x\ny\n");
  fs::remove(file);
  int call = s->openDiff(file, "x\nY\n", "d (1)");
  applyNextEdit(client, buffer);
  EXPECT_EQ(buffer.text, "x\nY\n");
  waitMessage(client, "overlaps your unsaved typing");
  ASSERT_TRUE(s->keep(file));
  s->answerQuestion("Accept");
  expectAnswer(ide, call, "FILE_SAVED", "x\nY\n");
  EXPECT_FALSE(fs::exists(file)) << "hashline wrote the file itself";
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST_F(ClaudeOpenDiff, AProposalThatIsNotTextIsLeftToClaudeCode) {
  const fs::path file = workspaceFile("b.txt", "text\n");
  auto s = connect(kApplyEdit);
  LspClient& client = *s->client;
  IdeClient& ide = s->ide;
  EditorModel buffer = s->openBuffer(file, "text\n");
  s->openDiff(file, std::string("a\0b\n", 4), "b (1)");
  waitMessage(client, "the proposal is not text");
  expectNothingAnswered(ide);
  int closing = ide.startCall("closeAllDiffTabs", json::object());
  expectAnswer(ide, closing, "CLOSED_1_DIFF_TABS");
  expectNothingAnswered(ide);
  expectNoBufferEdit(client);
  EXPECT_EQ(readFile(file), "text\n");
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST_F(ClaudeOpenDiff, TwoOpenDiffsOfOneFileAreDecidedInTurn) {
  const fs::path file = workspaceFile("t.txt", "1\n2\n3\n");
  auto s = connect(kApplyEdit);
  LspClient& client = *s->client;
  IdeClient& ide = s->ide;
  EditorModel buffer = s->openBuffer(file, "1\n2\n3\n");
  int first = s->openDiff(file, "ONE\n2\n3\n", "t (1)");
  applyNextEdit(client, buffer);
  int second = s->openDiff(file, "1\n2\nTHREE\n", "t (2)");
  expectNothingAnswered(ide); // both calls are in; the second waits for the first
  expectNoBufferEdit(client);
  ASSERT_TRUE(s->keep(file));
  expectAnswer(ide, first, "FILE_SAVED", "ONE\n2\n3\n");
  applyNextEdit(client, buffer); // now the second, against the buffer as the first left it
  EXPECT_EQ(buffer.text, "ONE\n2\nTHREE\n");
  ASSERT_TRUE(s->reject(file));
  applyNextEdit(client, buffer);
  expectAnswer(ide, second, "DIFF_REJECTED");
  EXPECT_EQ(buffer.text, "ONE\n2\n3\n");
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST_F(ClaudeOpenDiff, ClosingEveryTabOrTheConnectionTakesAnUndecidedProposalOut) {
  const fs::path file = workspaceFile("z.txt", "keep\n");
  auto s = connect(kApplyEdit);
  LspClient& client = *s->client;
  IdeClient& ide = s->ide;
  EditorModel buffer = s->openBuffer(file, "keep\n");
  s->openDiff(file, "keep\nadded\n", "z (1)");
  applyNextEdit(client, buffer);
  EXPECT_EQ(buffer.text, "keep\nadded\n");
  int closing = ide.startCall("closeAllDiffTabs", json::object());
  applyNextEdit(client, buffer); // taken out before the answer
  EXPECT_EQ(buffer.text, "keep\n");
  expectAnswer(ide, closing, "CLOSED_1_DIFF_TABS");
  expectNothingAnswered(ide);
  EXPECT_EQ(pendingOp(client, file.string()), 0u);

  // Nothing undecided: CLOSED_0_DIFF_TABS.
  EXPECT_EQ(contentText(ide.call("tools/call",
                                 {{"name", "closeAllDiffTabs"}, {"arguments", json::object()}})),
            "CLOSED_0_DIFF_TABS");
  // Claude Code goes away mid-review: the proposal is taken out.
  s->openDiff(file, "keep\nagain\n", "z (2)");
  applyNextEdit(client, buffer);
  EXPECT_EQ(buffer.text, "keep\nagain\n");
  ide.close();
  applyNextEdit(client, buffer);
  EXPECT_EQ(buffer.text, "keep\n");
  EXPECT_EQ(readFile(file), "keep\n");
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

} // namespace
} // namespace hashline::test
