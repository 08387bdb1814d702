// LSP's basic structures: positions, ranges and document identifiers (LSP 3.17 §basic types).
//
// Like clangd's Protocol.h this is not a full mapping: a type is added when hashline uses it.
// Positions reuse the engine's `LspPosition`; its `character` is in the negotiated encoding,
// which the caller knows (the server keeps it), never this layer.
#pragma once

#include "engine/text/encoding.h"
#include "lsp/protocol/json_path.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hashline::lsp {

using Position = LspPosition;

struct Range {
  Position start;
  Position end;
  bool operator==(const Range&) const = default;
};

struct TextDocumentIdentifier {
  std::string uri;
};

struct VersionedTextDocumentIdentifier {
  std::string uri;
  std::int64_t version = 0;
};

/// `version: null` means "the file on disk" (documents the client never opened).
struct OptionalVersionedTextDocumentIdentifier {
  std::string uri;
  std::optional<std::int64_t> version;
};

bool fromJSON(const nlohmann::json& value, Position& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, Range& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, TextDocumentIdentifier& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, VersionedTextDocumentIdentifier& out, JsonPath path);
bool fromJSON(const nlohmann::json& value, OptionalVersionedTextDocumentIdentifier& out,
              JsonPath path);

nlohmann::json toJSON(const Position& position);
nlohmann::json toJSON(const Range& range);
nlohmann::json toJSON(const TextDocumentIdentifier& id);
nlohmann::json toJSON(const VersionedTextDocumentIdentifier& id);
nlohmann::json toJSON(const OptionalVersionedTextDocumentIdentifier& id);

} // namespace hashline::lsp
