// A scripted editor for the agent and ACP tests: a real `hashline lsp` (LspClient over pipes) on
// the sandbox's workspace with one file open (by default `a.txt` with an unsaved line the disk
// lacks), answering the sidecar's workspace/applyEdit as an editor does. The sidecar's pid is
// known, so a test can SIGKILL or SIGSTOP it; a second ScriptedEditor in the same test process is
// the same editor starting a new sidecar (its parent, this process, is the editor pid of both).
//
// Threading: test thread only.
#pragma once

#include "agent_test_util.h"
#include "tests/lsp/support/lsp_client.h"

#include <cstdint>
#include <string>
#include <sys/types.h>

namespace hashline::test {

struct ScriptedEditor {
  static constexpr const char* kBuffer = "one\ntwo (unsaved)\nthree\n";

  /// Opens `name` (in the workspace; written there already) with the buffer `text` at `version`
  /// (after a restart: the buffer as the editor kept it). `editor_pid` > 0 names another process
  /// as the editor (initialize's processId; the sidecar exits once it is gone).
  explicit ScriptedEditor(const AgentSandbox& sandbox, const std::string& name = "a.txt",
                          std::string text = kBuffer, std::int64_t version = 1,
                          std::int64_t editor_pid = 0);
  /// Answers the sidecar's next applyEdit for the file: applies it, sends the didChange, replies
  /// applied; returns the new buffer text.
  std::string applyNextEdit();
  /// Takes the sidecar's next applyEdit and applies it to the buffer as an editor does, but
  /// neither tells the sidecar (no didChange, no reply): it is killed before it hears of it.
  /// Returns the new buffer text.
  std::string applyNextEditUnconfirmed();
  /// Answers the sidecar's next applyEdit with applied: false; the buffer stays.
  void refuseNextEdit();

  std::string uri;
  std::string buffer;
  std::int64_t version = 1;
  LspClient client;
  pid_t sidecar_pid = 0;

private:
  /// Waits for the next applyEdit and applies it to `buffer` at the next version; returns the
  /// request (null after a timeout, with a test failure recorded).
  nlohmann::json takeNextEdit();
};

} // namespace hashline::test
