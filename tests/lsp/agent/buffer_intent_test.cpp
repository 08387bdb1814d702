// Buffer edits journaled as intents (lsp/journal/buffer_intent.h, issue 31): a real `hashline
// lsp` under a scripted editor is SIGKILLed after the editor applied an agent's edit and before
// it heard the confirmation. The restarted sidecar settles the intent when the same editor
// re-opens the buffer: landed → an op `hashline log` lists and `hashline undo` takes back (also
// after the user typed elsewhere); not landed (refused, or the buffer re-opened without it) → no
// op; typing into the edit's lines → "unknown", said so by `log`. An editor that exited leaves
// the decision to the file: saved with the edit → an op undone on disk.
// Lives with the agent tests for their scripted editor (scripted_editor.h).
#include "agent_test_util.h"
#include "scripted_editor.h"

#include <csignal>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hashline::test {
namespace {

using nlohmann::json;

const std::string kText = "one\ntwo\nthree\n";
const std::string kLanded = "one\ntwo (unsaved)\nTHREE\n";

json logOf(const AgentSandbox& sandbox) {
  CliRun log = runHashline({"log", "--json"}, sandbox.workspace());
  EXPECT_EQ(log.exit_code, 0) << log.out << log.err;
  return log.json();
}

/// Starts `replace three → THREE` in the background, lets the first editor apply it without
/// telling the sidecar, and kills the sidecar; returns the buffer as the editor has it.
std::string landThenKill(ScriptedEditor& editor, const AgentSandbox& sandbox) {
  EXPECT_EQ(runHashline({"read", "a.txt"}, sandbox.workspace()).exit_code, 0);
  BackgroundCli edit({"replace", "a.txt", "--old", "three", "--new", "THREE"}, sandbox.workspace());
  std::string buffer = editor.applyNextEditUnconfirmed();
  EXPECT_EQ(::kill(editor.sidecar_pid, SIGKILL), 0);
  EXPECT_EQ(editor.client.waitForExit(), 128 + SIGKILL);
  CliRun answer = edit.wait();
  EXPECT_EQ(answer.exit_code, 1) << answer.out << answer.err;
  EXPECT_NE(answer.err.find("SIDECAR_GONE"), std::string::npos) << answer.err;
  return buffer;
}

TEST(BufferIntent, LandedEditIsJournaledAtReopenAndUndone) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  auto first = std::make_unique<ScriptedEditor>(sandbox);
  const std::string buffer = landThenKill(*first, sandbox);
  ASSERT_EQ(buffer, kLanded);

  // Meanwhile the journal says what it knows: an edit sent, its landing not yet known.
  json waiting = logOf(sandbox);
  EXPECT_TRUE(waiting["ops"].empty()) << waiting.dump();
  ASSERT_EQ(waiting["bufferIntents"].size(), 1u) << waiting.dump();
  EXPECT_EQ(waiting["bufferIntents"][0]["state"], "unsettled");
  EXPECT_EQ(waiting["bufferIntents"][0]["method"], "replace");
  CliRun text_log = runHashline({"log"}, sandbox.workspace());
  EXPECT_NE(text_log.out.find("(unsettled)  replace  a.txt"), std::string::npos) << text_log.out;

  // The same editor starts a new sidecar and re-opens the buffer as it is.
  ScriptedEditor second(sandbox, "a.txt", buffer, first->version);
  json settled = logOf(sandbox);
  ASSERT_EQ(settled["ops"].size(), 1u) << settled.dump();
  EXPECT_FALSE(settled.contains("bufferIntents")) << settled.dump();
  const json& op = settled["ops"][0];
  EXPECT_EQ(op["method"], "replace");
  EXPECT_EQ(op["backend"], "buffer");
  EXPECT_EQ(op["hunks"][0]["state"], "pending");
  EXPECT_EQ(op["versionAfter"], second.version);

  BackgroundCli undo({"undo", std::to_string(op["op"].get<std::uint64_t>())}, sandbox.workspace());
  EXPECT_EQ(second.applyNextEdit(), ScriptedEditor::kBuffer);
  CliRun undone = undo.wait();
  EXPECT_EQ(undone.exit_code, 0) << undone.out << undone.err;
  EXPECT_EQ(sandbox.read("a.txt"), kText) << "the disk was never written";
  EXPECT_EQ(second.client.shutdownAndExit(), 0);
}

TEST(BufferIntent, TypingElsewhereAfterTheLandingStillSettlesItLanded) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  auto first = std::make_unique<ScriptedEditor>(sandbox);
  std::string buffer = landThenKill(*first, sandbox);
  buffer = "zero\n" + buffer + "four\n"; // the user types while no sidecar runs

  ScriptedEditor second(sandbox, "a.txt", buffer, first->version + 1);
  json settled = logOf(sandbox);
  ASSERT_EQ(settled["ops"].size(), 1u) << settled.dump();
  EXPECT_FALSE(settled.contains("bufferIntents")) << settled.dump();

  BackgroundCli undo({"undo", std::to_string(settled["ops"][0]["op"].get<std::uint64_t>())},
                     sandbox.workspace());
  EXPECT_EQ(second.applyNextEdit(), "zero\none\ntwo (unsaved)\nthree\nfour\n")
      << "the agent's line reverted, the user's typing kept";
  EXPECT_EQ(undo.wait().exit_code, 0);
  EXPECT_EQ(second.client.shutdownAndExit(), 0);
}

TEST(BufferIntent, ReopenedWithoutTheEditMeansNoOp) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  auto first = std::make_unique<ScriptedEditor>(sandbox);
  landThenKill(*first, sandbox);

  // The editor lost the edit (say it crashed and recovered the buffer from before it).
  ScriptedEditor second(sandbox, "a.txt", ScriptedEditor::kBuffer, first->version);
  json settled = logOf(sandbox);
  EXPECT_TRUE(settled["ops"].empty()) << settled.dump();
  EXPECT_FALSE(settled.contains("bufferIntents")) << settled.dump();
  CliRun undo = runHashline({"undo", "1"}, sandbox.workspace());
  EXPECT_NE(undo.exit_code, 0) << "nothing to undo: " << undo.out;
  second.client.sync();
  EXPECT_TRUE(second.client.takeServerRequests("workspace/applyEdit").empty());
  EXPECT_EQ(second.client.shutdownAndExit(), 0);
}

TEST(BufferIntent, RefusedEditIsSettledAtOnceAndSurvivesARestart) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  ::setenv("HASHLINE_CONFIRM_TIMEOUT_MS", "200", 1); // the wait for a didChange after a refusal
  auto first = std::make_unique<ScriptedEditor>(sandbox);
  ::unsetenv("HASHLINE_CONFIRM_TIMEOUT_MS");
  EXPECT_EQ(runHashline({"read", "a.txt"}, sandbox.workspace()).exit_code, 0);
  BackgroundCli edit({"replace", "a.txt", "--old", "three", "--new", "THREE"}, sandbox.workspace());
  first->refuseNextEdit();
  CliRun refused = edit.wait();
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("EDITOR_REJECTED"), std::string::npos) << refused.err;
  json live = logOf(sandbox);
  EXPECT_TRUE(live["ops"].empty()) << live.dump();
  EXPECT_FALSE(live.contains("bufferIntents")) << "settled as not landed: " << live.dump();

  ASSERT_EQ(::kill(first->sidecar_pid, SIGKILL), 0);
  first->client.waitForExit();
  ScriptedEditor second(sandbox, "a.txt", ScriptedEditor::kBuffer, first->version);
  json after = logOf(sandbox);
  EXPECT_TRUE(after["ops"].empty()) << after.dump();
  EXPECT_FALSE(after.contains("bufferIntents")) << after.dump();
  EXPECT_EQ(second.client.shutdownAndExit(), 0);
}

TEST(BufferIntent, TypingIntoTheEditedLineIsUnknownAndSaidSo) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  auto first = std::make_unique<ScriptedEditor>(sandbox);
  std::string buffer = landThenKill(*first, sandbox);
  buffer.replace(buffer.find("THREE"), 5, "THREE!"); // the user typed into the agent's line

  ScriptedEditor second(sandbox, "a.txt", buffer, first->version + 1);
  json settled = logOf(sandbox);
  EXPECT_TRUE(settled["ops"].empty()) << "never a guess: " << settled.dump();
  ASSERT_EQ(settled["bufferIntents"].size(), 1u) << settled.dump();
  EXPECT_EQ(settled["bufferIntents"][0]["state"], "unknown");
  CliRun text_log = runHashline({"log"}, sandbox.workspace());
  EXPECT_NE(text_log.out.find("(unknown)  replace  a.txt"), std::string::npos) << text_log.out;
  EXPECT_NE(text_log.out.find("cannot be told"), std::string::npos) << text_log.out;
  EXPECT_EQ(second.client.shutdownAndExit(), 0);
}

TEST(BufferIntent, EditorThatExitedLeavesTheDecisionToTheFile) {
  AgentSandbox sandbox;
  sandbox.write("a.txt", kText);
  // Another process plays the editor, so that it can exit while this test goes on.
  pid_t editor_pid = ::fork();
  ASSERT_GE(editor_pid, 0);
  if (editor_pid == 0) {
    ::pause();
    ::_exit(0);
  }
  auto first =
      std::make_unique<ScriptedEditor>(sandbox, "a.txt", ScriptedEditor::kBuffer, 1, editor_pid);
  const std::string buffer = landThenKill(*first, sandbox);
  sandbox.write("a.txt", buffer); // the user saved the buffer, then closed the editor
  ::kill(editor_pid, SIGKILL);
  ::waitpid(editor_pid, nullptr, 0);

  json settled = logOf(sandbox); // disk mode now: the editor is gone
  ASSERT_EQ(settled["ops"].size(), 1u) << settled.dump();
  EXPECT_FALSE(settled.contains("bufferIntents")) << settled.dump();
  CliRun undo = runHashline({"undo", std::to_string(settled["ops"][0]["op"].get<std::uint64_t>())},
                            sandbox.workspace());
  EXPECT_EQ(undo.exit_code, 0) << undo.out << undo.err;
  EXPECT_EQ(sandbox.read("a.txt"), ScriptedEditor::kBuffer);
}

} // namespace
} // namespace hashline::test
