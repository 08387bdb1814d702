// Reconciliation through the real binary (issue 13, docs/reconcile.md): the test plays the editor
// (ServiceFixture) while foreign writers change files on disk behind open buffers — in place,
// truncate-pause-write, write-temp-then-rename, `sed -i`, `git checkout` — and checks that the
// buffer ends with the user's typing AND the writer's change, the disk with the writer's, and
// the journal with one `reconcile` op by agent `disk` whose undo reverts exactly the writer's
// change. Overlapping writes become conflicts that keep the user's text; the editor's own saves
// are never journaled; a deleted file leaves the buffer alone; a burst of writes never applies
// an empty intermediate state.
#include "tests/lsp/support/hashline_binary.h"
#include "tests/lsp/support/service_fixture.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <thread>

namespace hashline::test {
namespace {

using json = nlohmann::json;

std::string numbered(int count, const std::string& prefix = "line ") {
  std::string text;
  for (int i = 1; i <= count; ++i)
    text += prefix + std::to_string(i) + "\n";
  return text;
}

class Reconcile : public ServiceFixture {
protected:
  /// Opens a buffer and waits until the server has it (and watches its file): an editor opens a
  /// file long before an agent writes it.
  EditorModel& openSynced(const std::string& name, const std::string& text) {
    EditorModel& buffer = open(name, text);
    client_->sync();
    return buffer;
  }

  /// A new server, initialized as the VS Code extension does (initializationOptions.client).
  void restartAsVsCode() {
    client_->shutdownAndExit();
    client_ = std::make_unique<LspClient>();
    client_->initialize(json::object(), {{"rootUri", "file://" + root_.string()},
                                         {"initializationOptions", {{"client", "vscode"}}}});
  }

  /// Plays the editor for the reconciler's next applyEdit; returns the notification after it.
  json applyNextMerge() {
    json request = nextApplyEdit();
    if (request.is_null()) {
      std::string log = client_->log();
      ADD_FAILURE() << "no merge; the server's log ends:\n"
                    << log.substr(log.size() > 4000 ? log.size() - 4000 : 0);
      return json();
    }
    applyAndConfirm(request);
    return client_->waitNotification("hashline/reconciled")["params"];
  }

  void writeInPlace(const std::string& name, const std::string& text) {
    std::ofstream(pathOf(name), std::ios::binary | std::ios::trunc) << text;
  }
  void writeViaRename(const std::string& name, const std::string& text) {
    std::string temp = pathOf(name) + ".agent-tmp";
    std::ofstream(temp, std::ios::binary) << text;
    ASSERT_EQ(std::rename(temp.c_str(), pathOf(name).c_str()), 0);
  }
  void run(const std::string& command) {
    ASSERT_EQ(std::system(("cd '" + root_.string() + "' && " + command).c_str()), 0) << command;
  }
  json log() { return service("log", json::object()); }
  std::vector<json> reconcileOps() {
    std::vector<json> ops;
    const json journal = log();
    for (const json& op : journal["ops"])
      if (op["method"] == "reconcile") ops.push_back(op);
    return ops;
  }

  /// The scenario of the issue: typing at the top, a foreign writer changes the bottom.
  void typingSurvivesWriter(const std::function<void(const std::string& theirs)>& writer) {
    const std::string original = numbered(30);
    writeFile("a.txt", original);
    openSynced("a.txt", original);
    typeLineAt("a.txt", 0, "typed by the user");
    std::string theirs = original;
    theirs.replace(theirs.find("line 29\n"), 8, "line 29 changed by the agent\n");
    writer(theirs);
    json reconciled = applyNextMerge();
    ASSERT_EQ(reconciled["kind"], "merged") << reconciled.dump();
    EXPECT_EQ(reconciled["agent"], "disk");
    EXPECT_EQ(reconciled["bufferMatchesDisk"], false); // the typing is not saved
    EXPECT_EQ(model("a.txt").text, "typed by the user\n" + theirs);
    EXPECT_EQ(readFile("a.txt"), theirs);
    expectMirrorMatches("a.txt");
    std::vector<json> ops = reconcileOps();
    ASSERT_EQ(ops.size(), 1u) << log().dump();
    EXPECT_EQ(ops[0]["agent"], "disk");
    EXPECT_EQ(ops[0]["op"], reconciled["op"]);
    // Undo reverts exactly the writer's change; the typing stays.
    std::int64_t id = startService("undo", {{"op", ops[0]["op"]}});
    applyAndConfirm(nextApplyEdit());
    json undone = finish(id);
    EXPECT_EQ(undone["status"], "applied") << undone.dump();
    EXPECT_EQ(model("a.txt").text, "typed by the user\n" + original);
  }
};

TEST_F(Reconcile, InPlaceWrite) {
  typingSurvivesWriter([&](const std::string& theirs) { writeInPlace("a.txt", theirs); });
}

TEST_F(Reconcile, TruncateThenWriteAfterAPause) {
  typingSurvivesWriter([&](const std::string& theirs) {
    writeInPlace("a.txt", "");
    std::this_thread::sleep_for(std::chrono::milliseconds(150)); // the empty state sits on disk
    writeInPlace("a.txt", theirs);
  });
}

// The grace of an empty file counts from the last write, not from the first empty moment seen:
// an earlier empty moment (here followed by a rewrite of the same text, which changes nothing)
// must not make a later truncate-pause-write surface its empty state.
TEST_F(Reconcile, AnEarlierEmptyMomentDoesNotShortenTheGrace) {
  typingSurvivesWriter([&](const std::string& theirs) {
    const std::string original = readFile("a.txt");
    writeInPlace("a.txt", "");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    writeInPlace("a.txt", original); // back to the base: nothing to merge
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    writeInPlace("a.txt", "");
    std::this_thread::sleep_for(std::chrono::milliseconds(300)); // > the 750 ms since the first
    writeInPlace("a.txt", theirs);
  });
}

// A rewrite of the same bytes behind unsaved typing (an agent writing its text twice, a formatter
// with nothing to do) is found by the merge itself: nothing applied, nothing journaled, no
// conflict announced — the next notification is the next real write's merge.
TEST_F(Reconcile, ARewriteThatChangesNothingIsSilent) {
  const std::string original = numbered(30);
  writeFile("a.txt", original);
  openSynced("a.txt", original);
  typeLineAt("a.txt", 0, "typed by the user");
  std::string first = original;
  first.replace(first.find("line 20\n"), 8, "line 20 by the agent\n");
  writeViaRename("a.txt", first);
  ASSERT_EQ(applyNextMerge()["kind"], "merged");
  std::this_thread::sleep_for(std::chrono::milliseconds(400)); // past the typing window
  writeViaRename("a.txt", first);                              // the same bytes again
  std::this_thread::sleep_for(std::chrono::milliseconds(300)); // seen and settled on its own
  std::string second = first;
  second.replace(second.find("line 29\n"), 8, "line 29 by the agent\n");
  writeViaRename("a.txt", second);
  json reconciled = applyNextMerge();
  EXPECT_EQ(reconciled["kind"], "merged") << reconciled.dump();
  EXPECT_EQ(model("a.txt").text, "typed by the user\n" + second);
  EXPECT_EQ(reconcileOps().size(), 2u) << log().dump();
}

// Claude Code after an accepted openDiff: it writes the text the buffer holds now (the user's
// typing and the accepted change). Nothing to merge, no op — but the editor is told its buffer
// equals the disk, so it is clean and takes the file's new timestamp (no "changed since reading").
TEST_F(Reconcile, AWriteOfTheBuffersOwnTextTellsTheEditorItMatchesTheDisk) {
  const std::string original = numbered(10);
  writeFile("a.txt", original);
  openSynced("a.txt", original);
  typeLineAt("a.txt", 0, "typed by the user");
  json read = service("read", {{"uri", uriOf("a.txt")}, {"session", "agent"}});
  std::int64_t id = startService(
      "edit",
      {{"uri", uriOf("a.txt")},
       {"session", "agent"},
       {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, 5)}, {"content", "accepted"}}}}});
  applyAndConfirm(nextApplyEdit());
  ASSERT_EQ(finish(id)["status"], "applied");
  writeViaRename("a.txt", model("a.txt").text); // the agent writes what the buffer shows
  json reconciled = client_->waitNotification("hashline/reconciled")["params"];
  EXPECT_EQ(reconciled["kind"], "merged") << reconciled.dump();
  EXPECT_EQ(reconciled["hunks"], 0);
  EXPECT_EQ(reconciled["bufferMatchesDisk"], true);
  EXPECT_EQ(reconciled["version"], model("a.txt").version);
  EXPECT_FALSE(reconciled.contains("op"));
  EXPECT_TRUE(reconcileOps().empty()) << log().dump();
  EXPECT_EQ(readFile("a.txt"), model("a.txt").text);
}

// The same with a clean buffer in VS Code (found by the code-server suite: a file Claude Code
// edited that was not open, its ✓ Keep, then Claude Code's write): the version the disk now holds
// came from the buffer's base by an agent's journaled edit, not by the editor reloading the file,
// so the write is not journaled a second time as a `disk` reconcile op left pending for review.
TEST_F(Reconcile, AWriteOfAnAgentsEditOfACleanBufferIsNotTakenForAReload) {
  restartAsVsCode();
  const std::string original = numbered(10);
  writeFile("a.txt", original);
  openSynced("a.txt", original);
  json read = service("read", {{"uri", uriOf("a.txt")}, {"session", "agent"}});
  std::int64_t id = startService(
      "edit",
      {{"uri", uriOf("a.txt")},
       {"session", "agent"},
       {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, 5)}, {"content", "accepted"}}}}});
  applyAndConfirm(nextApplyEdit());
  ASSERT_EQ(finish(id)["status"], "applied");
  writeViaRename("a.txt", model("a.txt").text); // the agent writes what the buffer shows
  json reconciled = client_->waitNotification("hashline/reconciled")["params"];
  EXPECT_EQ(reconciled["kind"], "merged") << reconciled.dump();
  EXPECT_EQ(reconciled["hunks"], 0);
  EXPECT_EQ(reconciled["bufferMatchesDisk"], true);
  EXPECT_FALSE(reconciled.contains("reloadedByEditor")) << reconciled.dump();
  EXPECT_FALSE(reconciled.contains("op"));
  EXPECT_TRUE(reconcileOps().empty()) << log().dump();
  EXPECT_EQ(readFile("a.txt"), model("a.txt").text);
}

TEST_F(Reconcile, WriteTempThenRename) {
  typingSurvivesWriter([&](const std::string& theirs) { writeViaRename("a.txt", theirs); });
}

TEST_F(Reconcile, SedInPlace) {
  typingSurvivesWriter(
      [&](const std::string&) { run("sed -i 's/^line 29$/line 29 changed by the agent/' a.txt"); });
}

TEST_F(Reconcile, GitCheckoutOfTheFile) {
  const std::string original = numbered(30);
  std::string theirs = original;
  theirs.replace(theirs.find("line 29\n"), 8, "line 29 changed by the agent\n");
  writeFile("a.txt", theirs);
  run("git init -q -b main . && git -c user.name=t -c user.email=t@t add a.txt && "
      "git -c user.name=t -c user.email=t@t commit -qm agent");
  writeFile("a.txt", original); // the working tree as the user opened it
  typingSurvivesWriter([&](const std::string&) { run("git checkout -q -- a.txt"); });
}

TEST_F(Reconcile, CleanBufferTakesTheWriteAndMatchesDisk) {
  writeFile("b.txt", numbered(5));
  openSynced("b.txt", numbered(5));
  writeViaRename("b.txt", numbered(6));
  json reconciled = applyNextMerge();
  EXPECT_EQ(reconciled["kind"], "merged");
  EXPECT_EQ(reconciled["bufferMatchesDisk"], true);
  EXPECT_EQ(reconciled["version"], model("b.txt").version);
  EXPECT_EQ(model("b.txt").text, numbered(6));
}

// VS Code reloads a clean buffer from disk itself, racing the merge: whichever comes first,
// the change is journaled once, as the merge.
TEST_F(Reconcile, EditorReloadOfACleanBufferIsJournaledOnce) {
  writeFile("r.txt", numbered(4));
  openSynced("r.txt", numbered(4));
  writeViaRename("r.txt", numbered(5));
  EditorModel& buffer = model("r.txt");
  buffer.text = numbered(5);
  buffer.version += 1;
  client_->didChange(buffer.uri, buffer.version, {LspClient::fullChange(buffer.text)});
  // An edit the server may have sent before it saw the reload is left unanswered (it times out).
  json reconciled = client_->waitNotification("hashline/reconciled")["params"];
  EXPECT_EQ(reconciled["kind"], "merged") << reconciled.dump();
  EXPECT_EQ(reconciled["bufferMatchesDisk"], true);
  std::vector<json> ops = reconcileOps();
  ASSERT_EQ(ops.size(), 1u) << log().dump();
  EXPECT_EQ(ops[0]["op"], reconciled["op"]);
  expectMirrorMatches("r.txt");
}

// The VS Code extension says so at initialize: its editor reloads a clean buffer itself, which
// keeps the tab clean where hashline's edit would mark it dirty. hashline leaves it that reload
// and journals it as the merge; no applyEdit is sent.
TEST_F(Reconcile, VsCodeReloadsACleanBufferItselfAndNoEditIsSent) {
  restartAsVsCode();
  writeFile("v.txt", numbered(4));
  openSynced("v.txt", numbered(4));
  writeViaRename("v.txt", numbered(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(300)); // VS Code's watcher, then reload
  EditorModel& buffer = model("v.txt");
  buffer.text = numbered(5);
  buffer.version += 1;
  client_->didChange(buffer.uri, buffer.version, {LspClient::fullChange(buffer.text)});
  json reconciled = client_->waitNotification("hashline/reconciled")["params"];
  EXPECT_EQ(reconciled["kind"], "merged") << reconciled.dump();
  EXPECT_EQ(reconciled["reloadedByEditor"], true) << reconciled.dump();
  client_->sync();
  EXPECT_TRUE(client_->takeServerRequests("workspace/applyEdit").empty());
  std::vector<json> ops = reconcileOps();
  ASSERT_EQ(ops.size(), 1u) << log().dump();
  EXPECT_EQ(ops[0]["op"], reconciled["op"]);
  expectMirrorMatches("v.txt");
}

// Right after the user's save (a write within the save's round), VS Code's reload of a foreign
// write is still that write, not the save: VS Code sends a save's didChange before its didSave,
// so a version after the saved one is not the saved text. Journaled as the merge.
TEST_F(Reconcile, VsCodeReloadRightAfterASaveIsStillTheForeignWrite) {
  restartAsVsCode();
  writeFile("s.txt", numbered(4));
  openSynced("s.txt", numbered(4));
  typeLineAt("s.txt", 0, "typed and saved");
  writeInPlace("s.txt", model("s.txt").text); // the editor saves what it shows
  client_->notify("textDocument/didSave", {{"textDocument", {{"uri", uriOf("s.txt")}}}});
  std::this_thread::sleep_for(std::chrono::milliseconds(60)); // the save has settled
  const std::string theirs = model("s.txt").text + "appended by an agent\n";
  writeViaRename("s.txt", theirs); // within 250 ms of the didSave
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EditorModel& buffer = model("s.txt"); // VS Code reloads the clean buffer
  buffer.text = theirs;
  buffer.version += 1;
  client_->didChange(buffer.uri, buffer.version, {LspClient::fullChange(buffer.text)});
  json reconciled = client_->waitNotification("hashline/reconciled")["params"];
  EXPECT_EQ(reconciled["reloadedByEditor"], true) << reconciled.dump();
  std::vector<json> ops = reconcileOps();
  ASSERT_EQ(ops.size(), 1u) << log().dump();
  client_->sync();
  EXPECT_TRUE(client_->takeServerRequests("workspace/applyEdit").empty());
}

// VS Code's own saves while the user types are never journaled either.
TEST_F(Reconcile, VsCodeOwnSavesWhileTypingAreNeverJournaled) {
  restartAsVsCode();
  writeFile("e.txt", numbered(10));
  openSynced("e.txt", numbered(10));
  for (int save = 0; save < 200; ++save) {
    type("e.txt", 0, 0, "x");
    writeInPlace("e.txt", model("e.txt").text);
    client_->notify("textDocument/didSave", {{"textDocument", {{"uri", uriOf("e.txt")}}}});
    if (save % 2) type("e.txt", 0, 0, "y");
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(2000)); // past every wait
  client_->sync();
  EXPECT_TRUE(reconcileOps().empty()) << log().dump();
  EXPECT_TRUE(client_->takeServerRequests("workspace/applyEdit").empty());
}

// ... and when the editor does not reload it within the wait, hashline applies the change.
TEST_F(Reconcile, VsCodeCleanBufferWithoutAReloadGetsTheEditAfterTheWait) {
  restartAsVsCode();
  writeFile("w.txt", numbered(4));
  openSynced("w.txt", numbered(4));
  const auto written = std::chrono::steady_clock::now();
  writeViaRename("w.txt", numbered(5));
  json reconciled = applyNextMerge();
  EXPECT_GE(std::chrono::steady_clock::now() - written, std::chrono::milliseconds(1000));
  EXPECT_EQ(reconciled["kind"], "merged") << reconciled.dump();
  EXPECT_FALSE(reconciled.contains("reloadedByEditor")) << reconciled.dump();
  EXPECT_EQ(model("w.txt").text, numbered(5));
}

TEST_F(Reconcile, OverlapKeepsTheUserTextAndTakingTheirsWorks) {
  const std::string original = numbered(20);
  writeFile("c.txt", original);
  openSynced("c.txt", original);
  // The user rewrites line 3; the agent rewrites line 3 too, and line 18.
  auto [begin, end] = model("c.txt").lineBytes(2);
  type("c.txt", begin, end, "line 3 by the user");
  std::string theirs = original;
  theirs.replace(theirs.find("line 3\n"), 7, "line 3 by the agent\n");
  theirs.replace(theirs.find("line 18\n"), 8, "line 18 by the agent\n");
  writeViaRename("c.txt", theirs);
  json reconciled = applyNextMerge();
  ASSERT_EQ(reconciled["kind"], "conflict") << reconciled.dump();
  ASSERT_EQ(reconciled["conflicts"].size(), 1u);
  EXPECT_EQ(reconciled["conflicts"][0]["line"], 3);
  EXPECT_EQ(reconciled["conflicts"][0]["ours"], "line 3 by the user\n");
  EXPECT_EQ(reconciled["conflicts"][0]["theirs"], "line 3 by the agent\n");
  std::string expected = original;
  expected.replace(expected.find("line 3\n"), 7, "line 3 by the user\n");
  expected.replace(expected.find("line 18\n"), 8, "line 18 by the agent\n");
  EXPECT_EQ(model("c.txt").text, expected); // the rest of the same write merged
  json listed = service("conflicts", {{"path", "c.txt"}});
  ASSERT_EQ(listed["conflicts"].size(), 1u) << listed.dump();
  const std::string id = listed["conflicts"][0]["id"];
  std::int64_t call = startService("resolve", {{"conflict", id}, {"take", "theirs"}});
  applyAndConfirm(nextApplyEdit());
  json resolved = finish(call);
  EXPECT_EQ(resolved["status"], "applied") << resolved.dump();
  EXPECT_EQ(model("c.txt").text, theirs);
  EXPECT_TRUE(service("conflicts", json::object())["conflicts"].empty());
}

// conflicts / resolve read their params with the one typed reader: a wrong type or an unknown
// `take` is invalid params naming the field, and nothing is resolved.
TEST_F(Reconcile, MalformedConflictMethodParamsAreInvalidParams) {
  for (const auto& [method, params, field] :
       std::vector<std::tuple<std::string, json, std::string>>{
           {"conflicts", {{"path", 7}}, "params.path"},
           {"conflicts", json::array({1}), "params"},
           {"resolve", {{"conflict", "c1"}, {"take", "mine"}}, "params.take"},
           {"resolve", {{"conflict", 1}, {"take", "theirs"}}, "params.conflict"},
           {"resolve", {{"conflict", "c1"}}, "params.take"}}) {
    json response = client_->waitResponse(startService(method, params));
    ASSERT_TRUE(response.contains("error")) << method << " " << params.dump();
    EXPECT_EQ(response["error"]["code"], -32602) << response.dump();
    EXPECT_NE(response["error"]["message"].get<std::string>().find(field), std::string::npos)
        << response.dump();
  }
}

/// Runs the CLI (it finds this sidecar through the fixture's runtime directory); stdout.
std::string cli(const std::string& root, const std::string& arguments, int* status) {
  std::string command =
      "cd '" + root + "' && " + std::string(hashlineBinary()) + " " + arguments + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buffer[4096];
  while (std::size_t got = std::fread(buffer, 1, sizeof buffer, pipe))
    out.append(buffer, got);
  *status = ::pclose(pipe);
  return out;
}

TEST_F(Reconcile, CliListsConflictsInPendingAndKeepsOurs) {
  const std::string original = numbered(6);
  writeFile("g.txt", original);
  openSynced("g.txt", original);
  auto [begin, end] = model("g.txt").lineBytes(1);
  type("g.txt", begin, end, "mine");
  std::string theirs = original;
  theirs.replace(theirs.find("line 2\n"), 7, "theirs\n");
  writeViaRename("g.txt", theirs);
  json reconciled = client_->waitNotification("hashline/reconciled")["params"];
  ASSERT_EQ(reconciled["kind"], "conflict") << reconciled.dump();
  int status = 0;
  std::string listed = cli(root_.string(), "conflicts g.txt --json", &status);
  ASSERT_EQ(status, 0) << listed;
  json conflicts = json::parse(listed)["conflicts"];
  ASSERT_EQ(conflicts.size(), 1u) << listed;
  EXPECT_EQ(conflicts[0]["ours"], "mine\n");
  EXPECT_EQ(conflicts[0]["theirs"], "theirs\n");
  EXPECT_EQ(json::parse(cli(root_.string(), "pending --json", &status))["conflicts"].size(), 1u);
  std::string human = cli(root_.string(), "conflicts", &status);
  EXPECT_NE(human.find("    | mine"), std::string::npos) << human;
  EXPECT_NE(human.find("    | theirs"), std::string::npos) << human;
  std::string kept = cli(
      root_.string(), "resolve " + conflicts[0]["id"].get<std::string>() + " --take ours", &status);
  EXPECT_EQ(status, 0) << kept;
  EXPECT_TRUE(service("conflicts", json::object())["conflicts"].empty());
  EXPECT_NE(model("g.txt").text.find("mine\n"), std::string::npos);
  cli(root_.string(), "resolve c1 --take both", &status);
  EXPECT_EQ(WEXITSTATUS(status), 2);
}

TEST_F(Reconcile, ResolveRefusesBadParamsAndUnknownIds) {
  json bad = client_->callError("hashline/resolve", {{"conflict", 3}, {"take", "theirs"}});
  EXPECT_EQ(bad["code"], -32602);
  bad = client_->callError("hashline/resolve", {{"conflict", "c1"}, {"take", "both"}});
  EXPECT_EQ(bad["code"], -32602);
  json unknown = service("resolve", {{"conflict", "c99"}, {"take", "theirs"}});
  EXPECT_EQ(unknown["status"], "refused");
  EXPECT_EQ(unknown["error"]["code"], "NOT_FOUND");
}

TEST_F(Reconcile, OwnSavesWhileTypingAreNeverJournaled) {
  const std::string original = numbered(10);
  writeFile("d.txt", original);
  openSynced("d.txt", original);
  writeFile("sentinel.txt", "s\n");
  openSynced("sentinel.txt", "s\n");
  for (int save = 0; save < 1000; ++save) {
    type("d.txt", 0, 0, "x");
    writeInPlace("d.txt", model("d.txt").text); // the editor saves what it shows
    client_->notify("textDocument/didSave", {{"textDocument", {{"uri", uriOf("d.txt")}}}});
    if (save % 2) type("d.txt", 0, 0, "y"); // and the user keeps typing before it settles
  }
  // A foreign write to another file: once it is merged, every earlier event was looked at.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  writeViaRename("sentinel.txt", "s\nt\n");
  json reconciled = applyNextMerge();
  EXPECT_EQ(reconciled["path"], pathOf("sentinel.txt")) << "a save was taken as foreign";
  std::vector<json> ops = reconcileOps();
  ASSERT_EQ(ops.size(), 1u) << log().dump();
  EXPECT_EQ(ops[0]["path"], pathOf("sentinel.txt"));
}

// An announced save (willSave; the hashline Neovim plugin sends it at BufWritePre) whose text the
// mirror has not seen when the file is written: a formatter ran on save and its didChange is
// debounced, or comes after the didSave. That is still the editor's own save, however late the
// didChange comes within the settle time.
TEST_F(Reconcile, AnnouncedSaveAheadOfItsChangeIsTheEditors) {
  const std::string original = numbered(10);
  writeFile("h.txt", original);
  openSynced("h.txt", original);
  writeFile("sentinel.txt", "s\n");
  openSynced("sentinel.txt", "s\n");
  EditorModel& buffer = model("h.txt");
  client_->notify("textDocument/willSave",
                  {{"textDocument", {{"uri", buffer.uri}}}, {"reason", 1}});
  json change = buffer.replaceBytes(0, 0, "formatted ");      // the formatter, before the write
  writeInPlace("h.txt", buffer.text);                         // :w writes what the buffer shows
  std::this_thread::sleep_for(std::chrono::milliseconds(60)); // a slow BufWritePost
  client_->notify("textDocument/didSave", {{"textDocument", {{"uri", buffer.uri}}}});
  std::this_thread::sleep_for(std::chrono::milliseconds(150)); // the debounce
  buffer.version += 1;
  client_->didChange(buffer.uri, buffer.version, {change});
  writeViaRename("sentinel.txt", "s\nt\n");
  json reconciled = applyNextMerge();
  EXPECT_EQ(reconciled["path"], pathOf("sentinel.txt")) << "the save was taken as foreign";
  std::vector<json> ops = reconcileOps();
  ASSERT_EQ(ops.size(), 1u) << log().dump();
  EXPECT_EQ(ops[0]["path"], pathOf("sentinel.txt"));
  expectMirrorMatches("h.txt");
}

// A willSave whose save never comes (the write failed): a foreign write after it is still merged,
// once the mirror has stayed still for the settle time.
TEST_F(Reconcile, AnnouncedSaveThatNeverCameDoesNotHideAForeignWrite) {
  const std::string original = numbered(10);
  writeFile("k.txt", original);
  openSynced("k.txt", original);
  client_->notify("textDocument/willSave",
                  {{"textDocument", {{"uri", uriOf("k.txt")}}}, {"reason", 1}});
  std::string theirs = original + "appended by the agent\n";
  writeViaRename("k.txt", theirs);
  json reconciled = applyNextMerge();
  EXPECT_EQ(reconciled["kind"], "merged") << reconciled.dump();
  EXPECT_EQ(model("k.txt").text, theirs);
  EXPECT_EQ(reconcileOps().size(), 1u);
}

// willSave is a notification: malformed params are logged and change nothing.
TEST_F(Reconcile, MalformedWillSaveIsIgnored) {
  writeFile("m.txt", numbered(3));
  openSynced("m.txt", numbered(3));
  client_->notify("textDocument/willSave", {{"textDocument", {{"uri", 7}}}});
  client_->notify("textDocument/willSave", json::array());
  writeViaRename("m.txt", numbered(4));
  json reconciled = applyNextMerge();
  EXPECT_EQ(reconciled["kind"], "merged") << reconciled.dump();
  EXPECT_EQ(model("m.txt").text, numbered(4));
}

// The editor shows a symlink; the agent writes the file it points to (in another directory).
TEST_F(Reconcile, WriteBehindASymlinkReachesTheBuffer) {
  writeFile("real/target.txt", numbered(3));
  std::filesystem::create_symlink(pathOf("real/target.txt"), pathOf("link.txt"));
  openSynced("link.txt", numbered(3));
  writeViaRename("real/target.txt", numbered(4));
  json reconciled = applyNextMerge();
  EXPECT_EQ(reconciled["kind"], "merged") << reconciled.dump();
  EXPECT_EQ(model("link.txt").text, numbered(4));
}

TEST_F(Reconcile, DeletedFileLeavesTheBufferAlone) {
  writeFile("e.txt", numbered(3));
  openSynced("e.txt", numbered(3));
  typeLineAt("e.txt", 0, "unsaved");
  std::filesystem::remove(pathOf("e.txt"));
  json reconciled = client_->waitNotification("hashline/reconciled")["params"];
  EXPECT_EQ(reconciled["kind"], "deleted");
  EXPECT_EQ(model("e.txt").text, "unsaved\n" + numbered(3));
  expectMirrorMatches("e.txt");
  EXPECT_TRUE(reconcileOps().empty());
}

TEST_F(Reconcile, BurstOfWritesEndsInTheLastAndNeverEmpty) {
  writeFile("f.txt", numbered(50));
  openSynced("f.txt", numbered(50));
  typeLineAt("f.txt", 0, "typed");
  for (int i = 1; i <= 200; ++i) {
    writeInPlace("f.txt", ""); // truncate, then write: never shown empty
    writeInPlace("f.txt", numbered(50) + "write " + std::to_string(i) + "\n");
  }
  const std::string last = numbered(50) + "write 200\n";
  // Play the editor until the buffer holds the last write.
  for (int merges = 0; merges < 200 && model("f.txt").text != "typed\n" + last; ++merges) {
    json reconciled = applyNextMerge();
    ASSERT_FALSE(reconciled.is_null());
    EXPECT_NE(model("f.txt").text.find("line 50\n"), std::string::npos) << "an empty state landed";
  }
  EXPECT_EQ(model("f.txt").text, "typed\n" + last);
}

} // namespace
} // namespace hashline::test
