// The params of a buffer edit's workspace/applyEdit; see apply_edit_params.h.
#include "lsp/service/apply_edit_params.h"

#include "engine/diff/minimal_edits.h"
#include "lsp/service/buffer_applier.h"

namespace hashline::lsp {

namespace {

// The id of the one annotation an edit carries (one per WorkspaceEdit, so a constant is unique).
constexpr const char* kAnnotationId = "hashline.agent-edit";

} // namespace

std::string_view confirmationName(Confirmation confirmation) {
  switch (confirmation) {
  case Confirmation::Off:
    return "off";
  case Confirmation::Requested:
    return "requested";
  case Confirmation::Unsupported:
    return "unsupported";
  }
  return "off";
}

std::string linesText(std::uint32_t first0, std::uint32_t last0) {
  return first0 == last0 ? "line " + std::to_string(first0 + 1)
                         : "lines " + std::to_string(first0 + 1) + "-" + std::to_string(last0 + 1);
}

ApplyWorkspaceEditParams applyEditParams(const std::string& uri, std::int64_t version,
                                         const std::string& label, const PlannedEdit& planned,
                                         PositionEncoding encoding, bool needs_confirmation) {
  const Rope& before = planned.before;
  TextDocumentEdit document_edit;
  document_edit.textDocument.uri = uri;
  document_edit.textDocument.version = version;
  for (const ByteEdit& edit : minimalEdits(before, planned.plan)) {
    TextEdit text_edit;
    text_edit.range.start = before.positionOfByte(edit.begin, encoding);
    text_edit.range.end = before.positionOfByte(edit.end, encoding);
    text_edit.newText = edit.text;
    document_edit.edits.push_back(std::move(text_edit));
  }
  ApplyWorkspaceEditParams params;
  params.label = label;
  if (needs_confirmation) {
    for (TextEdit& edit : document_edit.edits)
      edit.annotationId = kAnnotationId;
    ChangeAnnotation annotation;
    annotation.label = label;
    annotation.needsConfirmation = true;
    annotation.description = "agent edit of " +
                             linesText(planned.first_touched_line, planned.last_touched_line) +
                             " of " + uri + " (version " + std::to_string(version) + ")";
    params.edit.changeAnnotations[kAnnotationId] = std::move(annotation);
  }
  params.edit.documentChanges.push_back(std::move(document_edit));
  return params;
}

} // namespace hashline::lsp
