// fromJSON / toJSON for workspace edits, applyEdit and executeCommand.
#include "lsp/protocol/workspace_edit.h"

namespace hashline::lsp {

using nlohmann::json;

bool fromJSON(const json& value, TextEdit& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("range", out.range) && r.map("newText", out.newText) &&
         r.mapOptional("annotationId", out.annotationId);
}

bool fromJSON(const json& value, ChangeAnnotation& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("label", out.label) &&
         r.mapOptional("needsConfirmation", out.needsConfirmation) &&
         r.mapOptional("description", out.description);
}

bool fromJSON(const json& value, TextDocumentEdit& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("textDocument", out.textDocument) && r.map("edits", out.edits);
}

bool fromJSON(const json& value, WorkspaceEdit& out, JsonPath path) {
  ObjectReader r(value, path);
  if (!r || !r.mapOptional("documentChanges", out.documentChanges)) return false;
  if (const json* changes = r.find("changes")) {
    JsonPath changes_path = path.field("changes");
    if (!changes->is_object())
      return changes_path.report("expected an object, got " + describeJSON(*changes));
    for (const auto& [uri, edits] : changes->items())
      if (!fromJSON(edits, out.changes[uri], changes_path.field(uri))) return false;
  }
  if (const json* annotations = r.find("changeAnnotations")) {
    JsonPath annotations_path = path.field("changeAnnotations");
    if (!annotations->is_object())
      return annotations_path.report("expected an object, got " + describeJSON(*annotations));
    for (const auto& [id, annotation] : annotations->items())
      if (!fromJSON(annotation, out.changeAnnotations[id], annotations_path.field(id)))
        return false;
  }
  return true;
}

bool fromJSON(const json& value, ApplyWorkspaceEditParams& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.mapOptional("label", out.label) && r.map("edit", out.edit);
}

bool fromJSON(const json& value, ApplyWorkspaceEditResult& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("applied", out.applied) && r.mapOptional("failureReason", out.failureReason) &&
         r.mapOptional("failedChange", out.failedChange);
}

bool fromJSON(const json& value, ExecuteCommandParams& out, JsonPath path) {
  ObjectReader r(value, path);
  if (!r || !r.map("command", out.command)) return false;
  const json* arguments = r.find("arguments");
  if (!arguments || arguments->is_null()) {
    out.arguments = json::array();
    return true;
  }
  if (!arguments->is_array())
    return path.field("arguments").report("expected an array, got " + describeJSON(*arguments));
  out.arguments = *arguments;
  return true;
}

json toJSON(const TextEdit& edit) {
  json out = {{"range", toJSON(edit.range)}, {"newText", edit.newText}};
  if (edit.annotationId) out["annotationId"] = *edit.annotationId;
  return out;
}

json toJSON(const ChangeAnnotation& annotation) {
  json out = {{"label", annotation.label}};
  if (annotation.needsConfirmation) out["needsConfirmation"] = *annotation.needsConfirmation;
  if (annotation.description) out["description"] = *annotation.description;
  return out;
}

json toJSON(const TextDocumentEdit& edit) {
  json edits = json::array();
  for (const auto& e : edit.edits)
    edits.push_back(toJSON(e));
  return {{"textDocument", toJSON(edit.textDocument)}, {"edits", std::move(edits)}};
}

json toJSON(const WorkspaceEdit& edit) {
  json out = json::object();
  if (!edit.documentChanges.empty()) {
    json changes = json::array();
    for (const auto& change : edit.documentChanges)
      changes.push_back(toJSON(change));
    out["documentChanges"] = std::move(changes);
  }
  if (!edit.changes.empty()) {
    json changes = json::object();
    for (const auto& [uri, edits] : edit.changes) {
      json list = json::array();
      for (const auto& e : edits)
        list.push_back(toJSON(e));
      changes[uri] = std::move(list);
    }
    out["changes"] = std::move(changes);
  }
  if (!edit.changeAnnotations.empty()) {
    json annotations = json::object();
    for (const auto& [id, annotation] : edit.changeAnnotations)
      annotations[id] = toJSON(annotation);
    out["changeAnnotations"] = std::move(annotations);
  }
  return out;
}

json toJSON(const ApplyWorkspaceEditParams& params) {
  json out = {{"edit", toJSON(params.edit)}};
  if (params.label) out["label"] = *params.label;
  return out;
}

json toJSON(const ApplyWorkspaceEditResult& result) {
  json out = {{"applied", result.applied}};
  if (result.failureReason) out["failureReason"] = *result.failureReason;
  if (result.failedChange) out["failedChange"] = *result.failedChange;
  return out;
}

json toJSON(const ExecuteCommandParams& params) {
  return {{"command", params.command}, {"arguments", params.arguments}};
}

} // namespace hashline::lsp
