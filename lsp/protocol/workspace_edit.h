// Edits the server asks the editor to apply, and workspace/executeCommand (LSP 3.17 §workspace).
//
// hashline sends one TextDocumentEdit per document per request, versioned with the exact
// mirror version (DESIGN §6), inside `documentChanges`; `changes` (unversioned) is read for
// completeness only. An edit that needs the user's confirmation carries `annotationId` on each
// TextEdit (an AnnotatedTextEdit, LSP 3.16) and the annotation in `changeAnnotations`.
#pragma once

#include "lsp/protocol/basic_types.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

struct TextEdit {
  Range range;
  std::string newText;
  std::optional<std::string> annotationId; // set: an AnnotatedTextEdit
};

struct ChangeAnnotation {
  std::string label;
  std::optional<bool> needsConfirmation;
  std::optional<std::string> description;
};

struct TextDocumentEdit {
  OptionalVersionedTextDocumentIdentifier textDocument;
  std::vector<TextEdit> edits;
};

struct WorkspaceEdit {
  std::vector<TextDocumentEdit> documentChanges;
  std::map<std::string, std::vector<TextEdit>> changes;      // uri → edits (unversioned)
  std::map<std::string, ChangeAnnotation> changeAnnotations; // annotationId → annotation
};

struct ApplyWorkspaceEditParams {
  std::optional<std::string> label;
  WorkspaceEdit edit;
};

struct ApplyWorkspaceEditResult {
  bool applied = false;
  std::optional<std::string> failureReason;
  std::optional<std::uint32_t> failedChange;
};

struct ExecuteCommandParams {
  std::string command;
  nlohmann::json arguments = nlohmann::json::array(); // always an array after parsing
};

bool fromJSON(const nlohmann::json& value, TextEdit& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, ChangeAnnotation& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, TextDocumentEdit& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, WorkspaceEdit& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, ApplyWorkspaceEditParams& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, ApplyWorkspaceEditResult& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, ExecuteCommandParams& out, JsonPath path);

nlohmann::json toJSON(const TextEdit& edit);
nlohmann::json toJSON(const ChangeAnnotation& annotation);
nlohmann::json toJSON(const TextDocumentEdit& edit);
nlohmann::json toJSON(const WorkspaceEdit& edit);
nlohmann::json toJSON(const ApplyWorkspaceEditParams& params);
nlohmann::json toJSON(const ApplyWorkspaceEditResult& result);
nlohmann::json toJSON(const ExecuteCommandParams& params);

} // namespace hashline::lsp
