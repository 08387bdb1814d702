// Names and default fix hints of the error vocabulary, defined once.
#include "engine/support/error.h"

#include <array>

namespace hashline {
namespace {

struct CodeInfo {
  ErrorCode code;
  std::string_view name;
  std::string_view hint;
};

constexpr std::array<CodeInfo, 24> kCodes{{
    {ErrorCode::NotObserved, "NOT_OBSERVED", "read the file first, then retry the edit"},
    {ErrorCode::StaleVersion, "STALE_VERSION",
     "the file changed since you read it; re-read it, then retry"},
    {ErrorCode::StaleAnchor, "STALE_ANCHOR",
     "the anchored lines changed; use the fresh anchors in data, or re-read, then retry"},
    {ErrorCode::AmbiguousAnchor, "AMBIGUOUS_ANCHOR",
     "the anchor matches several lines; re-read and use the anchor of the line you mean"},
    {ErrorCode::AnchorUnknown, "ANCHOR_UNKNOWN",
     "this anchor was never issued for this file; copy it exactly from a read"},
    {ErrorCode::MalformedAnchor, "MALFORMED_ANCHOR",
     "anchors look like 22:c3d:rst (line:digest:block); copy them from a read"},
    {ErrorCode::OutOfRange, "OUT_OF_RANGE", "the line is past the end of the file; re-read it"},
    {ErrorCode::NotFound, "NOT_FOUND",
     "the old text is not in the file; re-read it and copy the text exactly"},
    {ErrorCode::Ambiguous, "AMBIGUOUS",
     "the old text occurs more than once; add surrounding lines or set replace_all"},
    {ErrorCode::OverlappingEdits, "OVERLAPPING_EDITS",
     "two edits touch the same lines; merge them into one edit"},
    {ErrorCode::NoChange, "NO_CHANGE", "the edit changes nothing; check the new text"},
    {ErrorCode::NotText, "NOT_TEXT", "the file is binary or not valid UTF-8; it cannot be edited"},
    {ErrorCode::FileNotFound, "FILE_NOT_FOUND", "check the path; create files with a write"},
    {ErrorCode::OutsideWorkspace, "OUTSIDE_WORKSPACE",
     "only files inside the workspace roots can be edited"},
    {ErrorCode::PatchInvalid, "PATCH_INVALID",
     "fix the patch syntax (*** Begin Patch / *** Update File: ...) and retry"},
    {ErrorCode::EditorRejected, "EDITOR_REJECTED",
     "the editor refused the edit (the buffer probably changed); re-read, then retry"},
    {ErrorCode::EditorTimeout, "EDITOR_TIMEOUT",
     "the editor did not confirm the edit in time; re-read to see what the buffer holds"},
    {ErrorCode::Desynced, "DESYNCED",
     "the buffer mirror lost sync; save or reopen the file in the editor, then retry"},
    {ErrorCode::Conflict, "CONFLICT",
     "a later change touched the same lines; resolve by hand or edit anew"},
    {ErrorCode::IoError, "IO_ERROR", "the file system refused; check permissions and disk space"},
    {ErrorCode::InvalidPattern, "INVALID_PATTERN",
     "fix the search pattern (RE2 syntax), or search for the text as it is with --literal"},
    {ErrorCode::SymbolNotFound, "SYMBOL_NOT_FOUND",
     "list the file's symbols with hashline outline PATH, then name one (Class.method)"},
    {ErrorCode::NoSymbols, "NO_SYMBOLS",
     "no language server in the editor gives this file's symbols; read it with --from/--to"},
    {ErrorCode::SidecarGone, "SIDECAR_GONE",
     "the editor's hashline sidecar is not answering: restart it in the editor (Neovim "
     ":HashlineRestart, VS Code: hashline: Restart Server) or wait until it is back, then read and "
     "retry; to write the disk anyway, ask the user first, then pass --disk"},
}};

const CodeInfo& infoOf(ErrorCode code) {
  for (const auto& info : kCodes)
    if (info.code == code) return info;
  return kCodes.back();
}

} // namespace

std::string_view errorCodeName(ErrorCode code) {
  return infoOf(code).name;
}

std::optional<ErrorCode> errorCodeFromName(std::string_view name) {
  for (const auto& info : kCodes)
    if (info.name == name) return info.code;
  return std::nullopt;
}

std::string_view defaultHint(ErrorCode code) {
  return infoOf(code).hint;
}

Error Error::make(ErrorCode code, std::string message) {
  return Error{code, std::move(message), std::string(defaultHint(code)), {}};
}

Error& Error::inEdit(std::size_t index, std::size_t count) {
  message = "edit " + std::to_string(index + 1) + "/" + std::to_string(count) + ": " + message;
  data.edit_index = index;
  data.edit_count = count;
  return *this;
}

} // namespace hashline
