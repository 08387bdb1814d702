// Claude Code's IDE end inside `hashline lsp --claude-ide`, driven over real pipes and a real
// WebSocket (Boost.Beast client): the lock file (place, modes, content, removal on exit, sweep
// after kill -9), the upgrade gate (token, wrong token, browser Origin, a replaced lock file), the
// MCP handshake and tools, bad frames (not JSON, over the cap, unknown tool), a header block over
// the cap, and openDiff as a review of the live buffer (accept, reject, a path outside the
// workspace). The other openDiff paths: claude_open_diff_test.cpp.
#include "tests/lsp/ide/ide_test_util.h"

#include <set>
#include <signal.h>
#include <sys/stat.h>
#include <thread>

namespace hashline::test {
namespace {

using ClaudeIde = ClaudeIdeTest;

TEST_F(ClaudeIde, LockFileIsPrivateAndDescribesThisSidecar) {
  auto client = start(root_ / "ws");
  auto locks = lockFiles(ideDir());
  ASSERT_EQ(locks.size(), 1u);
  struct stat info {};
  ASSERT_EQ(::stat(ideDir().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat(locks.front().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  json lock = readJson(locks.front());
  EXPECT_EQ(lock["ideName"], "hashline");
  EXPECT_EQ(lock["transport"], "ws");
  EXPECT_EQ(lock["workspaceFolders"], json::array({(root_ / "ws").string()}));
  EXPECT_EQ(lock["authToken"].get<std::string>().size(), 32u);
  EXPECT_GT(lock["pid"].get<int>(), 0);
  EXPECT_EQ(locks.front().stem().string(),
            std::to_string(std::stoi(locks.front().stem().string())));
  EXPECT_EQ(client->shutdownAndExit(), 0);
  EXPECT_TRUE(lockFiles(ideDir()).empty()) << "the lock file outlived a clean exit";
}

TEST_F(ClaudeIde, HandshakeAndToolsAnswerFromTheLiveState) {
  auto client = start(root_ / "ws");
  json lock = onlyLock();
  const int port = std::stoi(lockFiles(ideDir()).front().stem().string());
  const std::string uri = "file://" + (root_ / "ws" / "open.txt").string();
  client->didOpen(uri, "typed, not saved\n", 1);
  client->sync();

  IdeClient ide(port, lock["authToken"]);
  EXPECT_EQ(ide.subprotocol(), "mcp");
  json init = ide.call("initialize", {{"protocolVersion", "2025-11-25"},
                                      {"capabilities", json::object()},
                                      {"clientInfo", {{"name", "claude-code"}}}});
  EXPECT_EQ(init["result"]["protocolVersion"], "2025-11-25");
  EXPECT_EQ(init["result"]["serverInfo"]["name"], "hashline");
  ide.sendText(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  ide.sendText(R"({"jsonrpc":"2.0","method":"ide_connected","params":{"pid":4242}})");
  json tools = ide.call("tools/list");
  std::vector<std::string> names;
  for (const json& tool : tools["result"]["tools"])
    names.push_back(tool["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "getWorkspaceFolders", "getOpenEditors", "getDiagnostics",
                       "getCurrentSelection", "getLatestSelection", "checkDocumentDirty",
                       "openFile", "saveDocument", "openDiff", "close_tab", "closeAllDiffTabs"}));

  json folders =
      ide.call("tools/call", {{"name", "getWorkspaceFolders"}, {"arguments", json::object()}});
  json folder_body = json::parse(folders["result"]["content"][0]["text"].get<std::string>());
  EXPECT_EQ(folder_body["folders"][0]["path"], (root_ / "ws").string());
  EXPECT_EQ(folder_body["rootPath"], (root_ / "ws").string());

  json editors =
      ide.call("tools/call", {{"name", "getOpenEditors"}, {"arguments", json::object()}});
  json editor_body = json::parse(editors["result"]["content"][0]["text"].get<std::string>());
  ASSERT_EQ(editor_body["tabs"].size(), 1u);
  EXPECT_EQ(editor_body["tabs"][0]["uri"], uri);
  EXPECT_EQ(editor_body["tabs"][0]["label"], "open.txt");

  json unknown = ide.call("tools/call", {{"name", "executeCode"}, {"arguments", json::object()}});
  EXPECT_EQ(unknown["error"]["code"], -32602);
  json no_method = ide.call("resources/list");
  EXPECT_EQ(no_method["error"]["code"], -32601);
  ide.sendText("{not json");
  EXPECT_EQ(ide.receive()["error"]["code"], -32700);
  // Still serving after the bad frames.
  EXPECT_EQ(ide.call("ping")["result"], json::object());
  EXPECT_NE(client->log().find("Claude Code connected"), std::string::npos);

  // A frame over the cap (64K here) ends the connection; the sidecar goes on.
  ide.sendTextMayBeCutOff(std::string(100 * 1024, ' '));
  EXPECT_TRUE(ide.closedByServer());
  IdeClient again(port, lock["authToken"]);
  EXPECT_EQ(again.call("ping")["result"], json::object());
  EXPECT_TRUE(client->running());
  EXPECT_EQ(client->shutdownAndExit(), 0);
}

// The editor's status item and `hashline status` / doctor: the server's port, and which Claude
// Codes are connected, announced as `hashline/claudeIde` when that changes.
TEST_F(ClaudeIde, ConnectedClaudeCodesAreAnnouncedToTheEditorAndInStatus) {
  auto client = start(root_ / "ws");
  const int port = std::stoi(lockFiles(ideDir()).front().stem().string());
  json lock = onlyLock();
  json first = client->waitNotification("hashline/claudeIde")["params"];
  EXPECT_EQ(first["enabled"], true);
  EXPECT_EQ(first["port"], port);
  EXPECT_EQ(first["lockFile"], (ideDir() / (std::to_string(port) + ".lock")).string());
  EXPECT_EQ(first["clients"], json::array());

  IdeClient ide(port, lock["authToken"]);
  ide.call("initialize", {{"protocolVersion", "2025-11-25"},
                          {"capabilities", json::object()},
                          {"clientInfo", {{"name", "claude-code"}, {"version", "2.1.332"}}}});
  ide.sendText(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  client->sync();
  EXPECT_TRUE(client->takeNotifications("hashline/claudeIde").empty())
      << "announced before ide_connected";
  ide.sendText(R"({"jsonrpc":"2.0","method":"ide_connected","params":{"pid":4242}})");
  json connected = client->waitNotification("hashline/claudeIde")["params"];
  const json claude = {{"name", "claude-code"}, {"version", "2.1.332"}, {"pid", 4242}};
  EXPECT_EQ(connected["clients"], json::array({claude})) << connected.dump();
  json status = client->callResult(
      "workspace/executeCommand",
      {{"command", "hashline.status"}, {"arguments", json::array({json::object()})}});
  EXPECT_EQ(status["claudeIde"]["port"], port) << status.dump();
  EXPECT_EQ(status["claudeIde"]["clients"], json::array({claude})) << status.dump();

  // A connection that never says ide_connected (a probe) is not a client.
  IdeClient probe(port, lock["authToken"]);
  EXPECT_EQ(probe.call("ping")["result"], json::object());
  probe.close();

  ide.close();
  json gone = client->waitNotification("hashline/claudeIde")["params"];
  EXPECT_EQ(gone["clients"], json::array()) << gone.dump();
  client->sync();
  EXPECT_TRUE(client->takeNotifications("hashline/claudeIde").empty());
  EXPECT_EQ(client->shutdownAndExit(), 0);
}

TEST_F(ClaudeIde, DiagnosticsAndSelectionComeFromTheEditorsReports) {
  auto client = start(root_ / "ws");
  json lock = onlyLock();
  const int port = std::stoi(lockFiles(ideDir()).front().stem().string());
  const std::string uri = "file://" + (root_ / "ws" / "a.cpp").string();
  client->didOpen(uri, "int main() {\n  return x;\n}\n", 1);
  client->sync();
  IdeClient ide(port, lock["authToken"]);
  auto body = [&](const std::string& tool, json arguments = json::object()) {
    json answer = ide.call("tools/call", {{"name", tool}, {"arguments", arguments}});
    EXPECT_TRUE(answer.contains("result")) << answer.dump();
    return json::parse(answer["result"]["content"][0]["text"].get<std::string>());
  };
  // Nothing reported yet.
  EXPECT_EQ(body("getDiagnostics"), json::array());
  EXPECT_EQ(body("getCurrentSelection")["success"], false);
  EXPECT_EQ(body("getLatestSelection")["message"], "No selection available");

  client->notify(
      "hashline/diagnostics",
      {{"uri", uri},
       {"version", 1},
       {"diagnostics", json::array({{{"range",
                                      {{"start", {{"line", 1}, {"character", 9}}},
                                       {"end", {{"line", 1}, {"character", 10}}}}},
                                     {"severity", 1},
                                     {"source", "clang"},
                                     {"message", "use of undeclared identifier 'x'"}}})}});
  auto range = [](int l0, int c0, int l1, int c1) {
    return json{{"start", {{"line", l0}, {"character", c0}}},
                {"end", {{"line", l1}, {"character", c1}}}};
  };
  client->notify(
      "hashline/context",
      {{"active", {{"uri", uri}, {"version", 1}, {"selections", json::array({range(1, 2, 1, 8)})}}},
       {"visible", json::array()}});
  client->sync();
  json diagnostics = body("getDiagnostics", {{"uri", uri}});
  ASSERT_EQ(diagnostics.size(), 1u) << diagnostics.dump();
  EXPECT_EQ(diagnostics[0]["uri"], uri);
  const json& first = diagnostics[0]["diagnostics"][0];
  EXPECT_EQ(first["severity"], "Error");
  EXPECT_EQ(first["source"], "clang");
  EXPECT_EQ(first["range"]["start"], (json{{"line", 1}, {"character", 9}}));
  json current = body("getCurrentSelection");
  EXPECT_EQ(current["success"], true) << current.dump();
  EXPECT_EQ(current["text"], "return");
  EXPECT_EQ(current["filePath"], (root_ / "ws" / "a.cpp").string());
  EXPECT_EQ(current["selection"]["start"], (json{{"line", 1}, {"character", 2}}));
  EXPECT_EQ(current["selection"]["isEmpty"], false);
  // The user clicks elsewhere: the current selection is the cursor, the latest the old one.
  client->notify("hashline/context",
                 {{"active", {{"uri", uri}, {"selections", json::array({range(0, 0, 0, 0)})}}}});
  client->sync();
  EXPECT_EQ(body("getCurrentSelection")["selection"]["isEmpty"], true);
  EXPECT_EQ(body("getLatestSelection")["text"], "return");
  // A file outside the workspace: an answer saying so, nothing else.
  json outside = body("getDiagnostics", {{"uri", "file:///etc/passwd"}});
  EXPECT_EQ(outside["success"], false) << outside.dump();
  EXPECT_EQ(client->shutdownAndExit(), 0);
}

TEST_F(ClaudeIde, SendToClaudeMentionsTheLinesToEveryConnectedClaude) {
  auto client = start(root_ / "ws");
  json lock = onlyLock();
  const int port = std::stoi(lockFiles(ideDir()).front().stem().string());
  const fs::path file = root_ / "ws" / "a.txt";
  client->didOpen("file://" + file.string(), "one\ntwo\nthree \u00e9\U0001F600\n", 1);
  client->sync();
  auto send = [&](json arguments) {
    return client->callResult(
        "workspace/executeCommand",
        {{"command", "hashline.sendToClaude"}, {"arguments", json::array({std::move(arguments)})}});
  };
  json nobody = send({{"uri", "file://" + file.string()}, {"from", 2}, {"to", 3}});
  EXPECT_EQ(nobody["sent"], 0);
  EXPECT_NE(nobody["note"].get<std::string>().find("hashline claude"), std::string::npos);

  IdeClient ide(port, lock["authToken"]);
  EXPECT_EQ(ide.call("ping")["result"], json::object()); // past the handshake
  json sent = send({{"uri", "file://" + file.string()}, {"from", 2}, {"to", 3}});
  EXPECT_EQ(sent["sent"], 1) << sent.dump();
  json selected = ide.receive();
  EXPECT_EQ(selected["method"], "selection_changed");
  EXPECT_EQ(selected["params"]["text"], "two\nthree \u00e9\U0001F600");
  EXPECT_EQ(selected["params"]["filePath"], file.string());
  EXPECT_EQ(selected["params"]["selection"]["start"], json({{"line", 1}, {"character", 0}}));
  // The end at the last line's end, in UTF-16 units ("three " 6, é 1, 😀 2): Claude Code reads an
  // end at character 0 as stopping before that line ("lines 2 to 2").
  EXPECT_EQ(selected["params"]["selection"]["end"], json({{"line", 2}, {"character", 9}}));
  json mention = ide.receive();
  EXPECT_EQ(mention["method"], "at_mentioned");
  EXPECT_EQ(mention["params"]["filePath"], file.string());
  EXPECT_EQ(mention["params"]["lineStart"], 1);
  EXPECT_EQ(mention["params"]["lineEnd"], 2);
  EXPECT_FALSE(mention.contains("id"));

  json closed = send({{"uri", "file://" + (root_ / "ws" / "closed.txt").string()}});
  EXPECT_EQ(closed["status"], "refused");
  EXPECT_EQ(client->callError("workspace/executeCommand",
                              {{"command", "hashline.sendToClaude"},
                               {"arguments", json::array({json::object()})}})["code"],
            -32602);
  EXPECT_EQ(client->shutdownAndExit(), 0);
}

TEST_F(ClaudeIde, OpenFileAndSaveDocumentAreDoneByTheEditor) {
  auto client = start(root_ / "ws");
  json lock = onlyLock();
  const int port = std::stoi(lockFiles(ideDir()).front().stem().string());
  const fs::path file = root_ / "ws" / "a.cpp";
  std::ofstream(file) << "int a;\nint f() {\n  return 1;\n}\n";
  IdeClient ide(port, lock["authToken"]);
  auto startTool = [&](const std::string& tool, json arguments) {
    ide.sendText(json{{"jsonrpc", "2.0"},
                      {"id", 77},
                      {"method", "tools/call"},
                      {"params", {{"name", tool}, {"arguments", arguments}}}}
                     .dump());
  };
  auto textOf = [](const json& answer) {
    return answer["result"]["content"][0]["text"].get<std::string>();
  };
  // openFile: the editor is asked to show it, with the lines from startText to endText.
  startTool("openFile", {{"filePath", file.string()}, {"startText", "int f"}, {"endText", "}"}});
  json show = client->waitServerRequest("window/showDocument");
  EXPECT_EQ(show["params"]["uri"], "file://" + file.string());
  EXPECT_EQ(show["params"]["takeFocus"], true);
  EXPECT_EQ(show["params"]["selection"]["start"]["line"], 1);
  EXPECT_EQ(show["params"]["selection"]["end"]["line"], 4); // through line 3 (0-based)
  client->respond(show["id"], {{"success", true}});
  EXPECT_EQ(textOf(ide.receive()), "Opened file: " + file.string());
  // The editor refuses: a tool error.
  startTool("openFile", {{"filePath", file.string()}, {"makeFrontmost", false}});
  show = client->waitServerRequest("window/showDocument");
  client->respond(show["id"], {{"success", false}});
  json refused = ide.receive();
  EXPECT_EQ(refused["result"]["isError"], true) << refused.dump();
  // Outside the workspace: refused before the editor is asked.
  startTool("openFile", {{"filePath", "/etc/passwd"}});
  EXPECT_EQ(ide.receive()["result"]["isError"], true);

  // saveDocument: only an open document; the plugin writes it.
  startTool("saveDocument", {{"filePath", file.string()}});
  json not_open = json::parse(textOf(ide.receive()));
  EXPECT_EQ(not_open["success"], false);
  client->didOpen("file://" + file.string(), "int a;\nint f() {\n  return 2;\n}\n", 1);
  client->sync();
  startTool("saveDocument", {{"filePath", file.string()}});
  json save = client->waitServerRequest("hashline/saveDocument");
  EXPECT_EQ(save["params"]["textDocument"]["uri"], "file://" + file.string());
  client->respond(save["id"], {{"saved", true}});
  json saved = json::parse(textOf(ide.receive()));
  EXPECT_EQ(saved["success"], true) << saved.dump();
  EXPECT_EQ(saved["saved"], true);
  startTool("saveDocument", {{"filePath", file.string()}});
  save = client->waitServerRequest("hashline/saveDocument");
  client->respondError(save["id"], -32601, "method not found");
  json unsupported = json::parse(textOf(ide.receive()));
  EXPECT_EQ(unsupported["success"], false);
  EXPECT_NE(unsupported["message"].get<std::string>().find("hashline plugin"), std::string::npos);
  EXPECT_EQ(client->shutdownAndExit(), 0);
}

TEST_F(ClaudeIde, EveryConnectionWithoutTheTokenIsRefusedBeforeAnyMessage) {
  auto client = start(root_ / "ws");
  json lock = onlyLock();
  const fs::path lock_path = lockFiles(ideDir()).front();
  const int port = std::stoi(lock_path.stem().string());
  const std::string token = lock["authToken"];
  EXPECT_EQ(upgradeStatus(port, {}), 401);
  EXPECT_EQ(upgradeStatus(
                port, {{"x-claude-code-ide-authorization", "0123456789abcdef0123456789abcdef"}}),
            401);
  EXPECT_EQ(upgradeStatus(port, {{"x-claude-code-ide-authorization", token.substr(0, 31)}}), 401);
  EXPECT_EQ(upgradeStatus(port, {{"x-claude-code-ide-authorization", token},
                                 {"Origin", "https://evil.example"}}),
            403);
  // Someone replaces the lock file with a token of their own: the server still wants its own.
  json forged = lock;
  forged["authToken"] = "ffffffffffffffffffffffffffffffff";
  std::ofstream(lock_path) << forged.dump();
  EXPECT_EQ(upgradeStatus(
                port, {{"x-claude-code-ide-authorization", "ffffffffffffffffffffffffffffffff"}}),
            401);
  EXPECT_EQ(upgradeStatus(port, {{"x-claude-code-ide-authorization", token}}), 101);
  EXPECT_NE(client->log().find("connection refused (403)"), std::string::npos);
  // A header block over the 8 KiB cap: 431, logged like the other refusals.
  EXPECT_EQ(upgradeStatus(port, {{"x-claude-code-ide-authorization", token},
                                 {"X-Padding", std::string(9000, 'a')}}),
            431);
  client->sync();
  EXPECT_NE(client->log().find("connection refused (431): header block over 8192 bytes"),
            std::string::npos)
      << client->log();
  // Not HTTP at all: 400, logged.
  EXPECT_EQ(rawReplyStatus(port, "\x16\x03\x01 not http\r\n\r\n"), 400);
  client->sync();
  EXPECT_NE(client->log().find("connection refused (400): not an HTTP request"), std::string::npos)
      << client->log();
  // An HTTP/1.0 request is refused in HTTP/1.1, the server's own version (RFC 9112, 2.3); the
  // fuzzer found the refusal echoing the client's 1.0.
  auto old_http = rawReply(port, "GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
  ASSERT_TRUE(old_http.has_value());
  EXPECT_EQ(old_http->version(), 11u);
  EXPECT_EQ(old_http->result_int(), 400);
  EXPECT_EQ(client->shutdownAndExit(), 0);
}

TEST_F(ClaudeIde, SecondSidecarGetsItsOwnPortAndSweepsAKilledOnesLock) {
  fs::create_directories(root_ / "other");
  auto first = start(root_ / "ws");
  auto second = start(root_ / "other");
  auto locks = lockFiles(ideDir());
  ASSERT_EQ(locks.size(), 2u);
  EXPECT_NE(locks[0].stem(), locks[1].stem());
  std::set<std::string> folders;
  for (const auto& path : locks)
    folders.insert(readJson(path)["workspaceFolders"][0].get<std::string>());
  EXPECT_EQ(folders, (std::set<std::string>{(root_ / "ws").string(), (root_ / "other").string()}));

  // kill -9 the first: its lock file stays, and the next sidecar sweeps it (not the second's).
  json first_lock;
  for (const auto& path : locks) {
    json lock = readJson(path);
    if (lock["workspaceFolders"][0] == (root_ / "ws").string()) first_lock = lock;
  }
  ASSERT_EQ(::kill(first_lock["pid"].get<pid_t>(), SIGKILL), 0);
  first->waitForExit();
  EXPECT_EQ(lockFiles(ideDir()).size(), 2u);
  auto third = start(root_ / "ws");
  auto after = lockFiles(ideDir());
  EXPECT_EQ(after.size(), 2u);
  for (const auto& path : after)
    EXPECT_NE(readJson(path)["pid"], first_lock["pid"]) << "the killed sidecar's lock survived";
  EXPECT_EQ(second->shutdownAndExit(), 0);
  EXPECT_EQ(third->shutdownAndExit(), 0);
  EXPECT_TRUE(lockFiles(ideDir()).empty());
}

TEST_F(ClaudeIde, OpenDiffIsAReviewOfTheLiveBufferAcceptedOrRejected) {
  const fs::path file = root_ / "ws" / "f.txt";
  std::ofstream(file) << "one\ntwo\nthree\nfour\n";
  LspClientOptions options;
  options.args = {"lsp", "--claude-ide", "--log-level", "debug"};
  LspClient client(options);
  client.initialize({{"workspace", {{"applyEdit", true}}}},
                    {{"rootUri", "file://" + (root_ / "ws").string()}, {"processId", nullptr}});
  const int port = std::stoi(lockFiles(ideDir()).front().stem().string());
  const std::string token = readJson(lockFiles(ideDir()).front())["authToken"];
  // The user typed a line at the top and has not saved.
  EditorModel buffer("file://" + file.string(), "typed, not saved\none\ntwo\nthree\nfour\n");
  client.didOpen(buffer.uri, buffer.text, buffer.version);
  client.sync();

  IdeClient ide(port, token);
  ide.call("initialize", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object()}});
  std::vector<std::string> names;
  json tools = ide.call("tools/list");
  for (const json& tool : tools["result"]["tools"])
    names.push_back(tool["name"]);
  EXPECT_NE(std::find(names.begin(), names.end(), "openDiff"), names.end()) << tools;
  json dirty = ide.call(
      "tools/call", {{"name", "checkDocumentDirty"}, {"arguments", {{"filePath", file.string()}}}});
  EXPECT_EQ(json::parse(dirty["result"]["content"][0]["text"].get<std::string>())["isDirty"], true);

  // Claude Code proposes line 3 changed (from the disk text it read): merged into the buffer
  // under the typing, one op by claude-code, pending review; the answer waits.
  int call = ide.startCall("openDiff", {{"old_file_path", file.string()},
                                        {"new_file_path", file.string()},
                                        {"new_file_contents", "one\ntwo\nTHREE by claude\nfour\n"},
                                        {"tab_name", "f.txt (claude)"}});
  applyNextEdit(client, buffer);
  EXPECT_EQ(buffer.text, "typed, not saved\none\ntwo\nTHREE by claude\nfour\n");
  const std::uint64_t op = pendingOp(client, file.string());
  ASSERT_NE(op, 0u) << client.log();
  client.callResult("hashline/accept", {{"op", std::to_string(op)}});
  json saved = ide.receive();
  EXPECT_EQ(saved["id"], call);
  ASSERT_EQ(saved["result"]["content"].size(), 2u) << saved;
  EXPECT_EQ(saved["result"]["content"][0]["text"], "FILE_SAVED");
  EXPECT_EQ(saved["result"]["content"][1]["text"], buffer.text);
  json log = client.callResult("hashline/log", {{"path", file.string()}});
  ASSERT_EQ(log["ops"].size(), 1u) << log;
  EXPECT_EQ(log["ops"][0]["agent"], "claude-code");
  EXPECT_EQ(log["ops"][0]["method"], "openDiff");
  // Claude Code writes the text it was given; that is the buffer's own text, not a foreign write.
  std::ofstream(file) << buffer.text;
  // Nothing to merge and no op; the editor is only told that its buffer equals the disk now
  // (so Neovim takes the file's new timestamp and the buffer is clean).
  json reconciled = client.waitNotification("hashline/reconciled")["params"];
  EXPECT_EQ(reconciled["kind"], "merged") << reconciled;
  EXPECT_EQ(reconciled["hunks"], 0) << "Claude Code's own write was taken for a foreign write";
  EXPECT_EQ(reconciled["bufferMatchesDisk"], true);
  EXPECT_FALSE(reconciled.contains("op"));
  EXPECT_EQ(client.callResult("hashline/log", {{"path", file.string()}})["ops"].size(), 1u);

  // A second proposal, rejected: the review's reject reverts it; the answer says so.
  const std::string before = buffer.text;
  call = ide.startCall("openDiff", {{"new_file_path", file.string()},
                                    {"new_file_contents", buffer.text + "five\n"},
                                    {"tab_name", "second"}});
  applyNextEdit(client, buffer);
  EXPECT_EQ(buffer.text, before + "five\n");
  const std::uint64_t second = pendingOp(client, file.string());
  ASSERT_NE(second, 0u);
  client.request("hashline/reject", {{"op", std::to_string(second)}});
  applyNextEdit(client, buffer);
  json rejected = ide.receive();
  EXPECT_EQ(rejected["id"], call);
  EXPECT_EQ(rejected["result"]["content"][0]["text"], "DIFF_REJECTED");
  EXPECT_EQ(rejected["result"]["content"][1]["text"], "second");
  EXPECT_EQ(buffer.text, before);

  // Outside the workspace, or bad arguments: a tool error, nothing changes.
  json outside = ide.call("tools/call", {{"name", "openDiff"},
                                         {"arguments",
                                          {{"new_file_path", (root_ / "elsewhere.txt").string()},
                                           {"new_file_contents", "x\n"}}}});
  EXPECT_EQ(outside["result"]["isError"], true) << outside;
  EXPECT_EQ(
      outside["result"]["content"][0]["text"].get<std::string>().rfind("OUTSIDE_WORKSPACE", 0), 0u);
  json missing = ide.call("tools/call", {{"name", "openDiff"}, {"arguments", json::object()}});
  EXPECT_EQ(missing["error"]["code"], -32602);
  EXPECT_TRUE(client.takeServerRequests("workspace/applyEdit").empty());
  json after = client.callResult("hashline/log", {{"path", file.string()}});
  for (const json& entry : after["ops"])
    EXPECT_NE(entry["method"], "reconcile")
        << "Claude Code's own write was taken for a foreign one";
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

TEST_F(ClaudeIde, OffUnlessAskedFor) {
  LspClient client;
  client.initialize(json::object(), {{"rootUri", "file://" + (root_ / "ws").string()}});
  EXPECT_TRUE(lockFiles(ideDir()).empty());
  json status =
      client.callResult("workspace/executeCommand", {{"command", "hashline.status"},
                                                     {"arguments", json::array({json::object()})}});
  EXPECT_EQ(status["claudeIde"], json({{"enabled", false}})) << status.dump();
  client.sync();
  EXPECT_TRUE(client.takeNotifications("hashline/claudeIde").empty());
  EXPECT_EQ(client.shutdownAndExit(), 0);
}

} // namespace
} // namespace hashline::test
