// Text synchronisation messages: didOpen, didChange, didClose, willSave, didSave (LSP 3.17 §text
// sync).
//
// The server turns these into DocumentStore calls; ranges stay in the negotiated encoding.
#pragma once

#include "lsp/protocol/basic_types.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline::lsp {

struct TextDocumentItem {
  std::string uri;
  std::string languageId;
  std::int64_t version = 0;
  std::string text;
};

/// One entry of didChange's contentChanges: a range change, or the whole text when `range` is
/// absent. `rangeLength` is deprecated; it is read so it can be logged, never trusted.
struct TextDocumentContentChangeEvent {
  std::optional<Range> range;
  std::optional<std::uint32_t> rangeLength;
  std::string text;
};

struct DidOpenTextDocumentParams {
  TextDocumentItem textDocument;
};

struct DidChangeTextDocumentParams {
  VersionedTextDocumentIdentifier textDocument;
  std::vector<TextDocumentContentChangeEvent> contentChanges;
};

struct DidCloseTextDocumentParams {
  TextDocumentIdentifier textDocument;
};

/// willSave: the editor is about to write the document (reason 1 manual, 2 after a delay, 3 focus
/// out). The reconciler takes the next write as the editor's own, whatever the mirror shows yet.
struct WillSaveTextDocumentParams {
  TextDocumentIdentifier textDocument;
  std::uint32_t reason = 1;
};

struct DidSaveTextDocumentParams {
  TextDocumentIdentifier textDocument;
  std::optional<std::string> text;
};

// fromJSON for the text members moves nothing; `takeText` variants below avoid copying a
// multi-megabyte didOpen text.
bool fromJSON(const nlohmann::json& value, TextDocumentItem& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, TextDocumentContentChangeEvent& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, DidOpenTextDocumentParams& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, DidChangeTextDocumentParams& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, DidCloseTextDocumentParams& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, WillSaveTextDocumentParams& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, DidSaveTextDocumentParams& out, JsonPath path);

/// Parses didOpen params by moving the text out of `value` (which is left without it).
bool takeDidOpenParams(nlohmann::json& value, DidOpenTextDocumentParams& out, JsonPath path);

nlohmann::json toJSON(const TextDocumentItem& item);
nlohmann::json toJSON(const TextDocumentContentChangeEvent& change);

} // namespace hashline::lsp
