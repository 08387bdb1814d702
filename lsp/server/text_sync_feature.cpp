// didOpen/didChange/didClose/willSave/didSave → DocumentStore, with desync reporting.
#include "lsp/server/text_sync_feature.h"

#include "lsp/protocol/text_sync.h"
#include "lsp/server/lsp_server.h"
#include "lsp/support/log.h"

namespace hashline::lsp {

using nlohmann::json;

namespace {

std::vector<ContentChange> toContentChanges(std::vector<TextDocumentContentChangeEvent>& events) {
  std::vector<ContentChange> changes;
  changes.reserve(events.size());
  for (auto& event : events) {
    ContentChange change;
    if (event.range) {
      change.range_start = event.range->start;
      change.range_end = event.range->end;
    }
    change.text = std::move(event.text);
    changes.push_back(std::move(change));
  }
  return changes;
}

void didOpen(LspServer& server, json raw) {
  DidOpenTextDocumentParams params;
  JsonPath::Root root("params");
  if (!takeDidOpenParams(raw, params, JsonPath(root))) {
    log::warn("ignoring textDocument/didOpen with invalid params: ", root.describe());
    server.logToClient(MessageType::Error, "hashline: could not read textDocument/didOpen (" +
                                               root.describe() + "); the document is not mirrored");
    return;
  }
  raw = json(); // free the rest of the DOM before building the rope
  TextDocumentItem& item = params.textDocument;
  std::string uri = item.uri;
  std::size_t bytes = item.text.size();
  bool reopened = server.documents().open(std::move(item.uri), std::move(item.languageId),
                                          item.version, item.text);
  log::info(reopened ? "reopened " : "opened ", uri, " at version ", item.version, " (", bytes,
            " bytes)");
  if (const OpenDocument* open = server.documents().find(uri); open && open->desynced()) {
    log::warn(uri, ": ", open->desyncReason());
    server.logToClient(MessageType::Warning, "hashline: " + uri + ": " + open->desyncReason() +
                                                 ". Reads and edits of it are refused (DESYNCED).");
  }
}

void didChange(LspServer& server, DidChangeTextDocumentParams params) {
  const std::string& uri = params.textDocument.uri;
  std::int64_t version = params.textDocument.version;
  ChangeOutcome outcome =
      server.documents().change(uri, version, toContentChanges(params.contentChanges));
  switch (outcome.kind) {
  case ChangeOutcome::Applied:
    return;
  case ChangeOutcome::Resynced:
    server.logToClient(MessageType::Info, "hashline: " + uri + " is in sync again at version " +
                                              std::to_string(version) + " (full text received)");
    return;
  case ChangeOutcome::BecameDesynced:
    server.logToClient(MessageType::Error,
                       "hashline: lost sync with " + uri + " at version " +
                           std::to_string(version) + ": " + outcome.reason +
                           ". Reads and edits of it are refused (DESYNCED) until the editor "
                           "sends the whole text again (reopen the file).");
    return;
  case ChangeOutcome::StillDesynced:
    log::debug("still desynced, ignoring change of ", uri, " to version ", version);
    return;
  case ChangeOutcome::NotOpen:
    server.logToClient(MessageType::Warning,
                       "hashline: change to " + uri + " ignored: it was never opened (didOpen)");
    return;
  }
}

// A didChange we cannot read is a lost change: the document must not be trusted any more.
void invalidDidChange(LspServer& server, const json& raw, const std::string& problem) {
  const json* uri = nullptr;
  if (raw.is_object() && raw.contains("textDocument") && raw["textDocument"].is_object() &&
      raw["textDocument"].contains("uri") && raw["textDocument"]["uri"].is_string())
    uri = &raw["textDocument"]["uri"];
  if (uri && server.documents().markLostChange(uri->get<std::string>(),
                                               "unreadable didChange (" + problem + ")")) {
    server.logToClient(MessageType::Error,
                       "hashline: lost sync with " + uri->get<std::string>() +
                           ": could not read a textDocument/didChange (" + problem +
                           "). Reads and edits of it are refused until the editor sends the "
                           "whole text again.");
    return;
  }
  server.logToClient(MessageType::Warning,
                     "hashline: ignored an unreadable textDocument/didChange (" + problem + ")");
}

} // namespace

void registerTextSync(LspServer& server) {
  // Neovim does not end a line at a lone CR (neovim#15532); every LSP position after one would
  // mean another place in its buffer, so such documents are refused instead of mis-mirrored.
  server.onInitialize([&server](const InitializeParams& params, json&) {
    if (params.clientInfo && params.clientInfo->name == "Neovim") {
      server.documents().setLoneCrIsLineBreak(false);
      log::info("client counts a lone CR as text, not a line break: such documents are refused");
    }
  });
  MethodRegistry& methods = server.methods();
  methods.addNotification("textDocument/didOpen",
                          [&server](json params) { didOpen(server, std::move(params)); });
  methods.addNotification<DidChangeTextDocumentParams>(
      "textDocument/didChange",
      [&server](DidChangeTextDocumentParams params) { didChange(server, std::move(params)); },
      [&server](const json& raw, const std::string& problem) {
        invalidDidChange(server, raw, problem);
      });
  methods.addNotification<DidCloseTextDocumentParams>(
      "textDocument/didClose", [&server](DidCloseTextDocumentParams params) {
        if (!server.documents().close(params.textDocument.uri))
          log::warn("didClose for ", params.textDocument.uri, " which was not open");
        else
          log::info("closed ", params.textDocument.uri);
      });
  methods.addNotification<WillSaveTextDocumentParams>(
      "textDocument/willSave", [&server](WillSaveTextDocumentParams params) {
        log::debug("saving ", params.textDocument.uri, " (reason ", params.reason, ")");
        server.documents().willSave(params.textDocument.uri); // the write that follows is its own
      });
  methods.addNotification<DidSaveTextDocumentParams>(
      "textDocument/didSave", [&server](DidSaveTextDocumentParams params) {
        log::debug("saved ", params.textDocument.uri);
        server.documents().saved(params.textDocument.uri); // the reconciler's own-save signal
      });
}

} // namespace hashline::lsp
