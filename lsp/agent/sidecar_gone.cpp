// SIDECAR_GONE refusals and warnings; see sidecar_gone.h.
#include "lsp/agent/sidecar_gone.h"

#include "lsp/protocol/error_json.h"

#include <set>

namespace hashline::agent {

bool readsOnly(const std::string& method) {
  static const std::set<std::string> reads = {"read",        "symbol",  "outline",  "search",
                                              "diagnostics", "context", "status",   "log",
                                              "diff",        "pending", "conflicts"};
  return reads.count(method) > 0;
}

std::string describeSidecar(const SidecarInfo& sidecar) {
  std::string roots;
  for (const auto& root : sidecar.roots)
    roots += (roots.empty() ? "" : ", ") + root;
  return "the editor's hashline sidecar (pid " + std::to_string(sidecar.pid) + ", roots " + roots +
         ")";
}

Error sidecarGone(const SidecarInfo& sidecar, const std::string& path, const std::string& why) {
  Error error = Error::make(ErrorCode::SidecarGone,
                            describeSidecar(sidecar) + " serves " + path + " but " + why);
  error.data.path = path;
  if (sidecar.editor_pid > 0)
    error.data.notes.push_back("the editor that started it (pid " +
                               std::to_string(sidecar.editor_pid) + ") is still running");
  return error;
}

Error sidecarLost(const SidecarInfo& sidecar, const std::string& path, const std::string& why) {
  Error error = Error::make(ErrorCode::SidecarGone,
                            describeSidecar(sidecar) + " received the request for " + path +
                                " and then " + why + "; it may still apply it when it recovers");
  error.withHint("read the file again once the sidecar answers (hashline status) to see whether "
                 "the change landed, before retrying; if the editor is hung, restart the sidecar "
                 "in the editor");
  error.data.path = path;
  return error;
}

Error refusedWhileGone(Error error) {
  error.message += "; the editor may hold the file open with unsaved changes that only the "
                   "sidecar mirrors, so nothing was written";
  return error;
}

void addGoneWarning(nlohmann::json& result, const Error& error, bool wrote_on_purpose) {
  if (!result.is_object()) return;
  Error warning = error;
  if (wrote_on_purpose) {
    warning.message += " — worked on the disk anyway, as --disk asked";
    warning.withHint("a buffer the editor holds open does not have this change, and saving it "
                     "would overwrite it: tell the user to check the file in the editor");
  } else {
    warning.message += " — answered from the disk, which may lack the editor's unsaved text";
    warning.withHint("restart the sidecar in the editor (Neovim :HashlineRestart, VS Code: "
                     "hashline: Restart Server) and read again before editing");
  }
  result["warning"] = lsp::toJSON(warning);
}

} // namespace hashline::agent
