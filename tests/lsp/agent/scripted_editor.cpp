// The scripted editor of the agent tests; see scripted_editor.h.
#include "scripted_editor.h"

#include <gtest/gtest.h>
#include <utility>

namespace hashline::test {

using nlohmann::json;

ScriptedEditor::ScriptedEditor(const AgentSandbox& sandbox, const std::string& name,
                               std::string text, std::int64_t at_version, std::int64_t editor_pid)
    : uri(fileUri(sandbox.workspace() + "/" + name)), buffer(std::move(text)), version(at_version) {
  json extra = {{"rootUri", fileUri(sandbox.workspace())}};
  if (editor_pid > 0) extra["processId"] = editor_pid;
  client.initialize({{"workspace", {{"applyEdit", true}}}}, extra);
  client.didOpen(uri, buffer, version);
  client.sync();
  sidecar_pid = client.callResult("hashline/status", json::object())["pid"].get<pid_t>();
}

std::string ScriptedEditor::applyNextEdit() {
  json request = takeNextEdit();
  if (request.is_null()) return buffer;
  client.didChange(uri, version, {LspClient::fullChange(buffer)});
  client.respond(request["id"], {{"applied", true}});
  return buffer;
}

std::string ScriptedEditor::applyNextEditUnconfirmed() {
  takeNextEdit();
  return buffer;
}

json ScriptedEditor::takeNextEdit() {
  json request = client.waitServerRequest("workspace/applyEdit");
  EXPECT_FALSE(request.is_null()) << client.log();
  if (request.is_null()) return request;
  std::int64_t at = 0;
  buffer = applyDocumentEdit(buffer, request["params"]["edit"], uri, at);
  EXPECT_EQ(at, version);
  ++version;
  return request;
}

void ScriptedEditor::refuseNextEdit() {
  json request = client.waitServerRequest("workspace/applyEdit");
  EXPECT_FALSE(request.is_null()) << client.log();
  if (!request.is_null()) client.respond(request["id"], {{"applied", false}});
}

} // namespace hashline::test
