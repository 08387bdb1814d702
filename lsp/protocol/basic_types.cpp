// fromJSON / toJSON for positions, ranges and document identifiers.
#include "lsp/protocol/basic_types.h"

namespace hashline::lsp {

using nlohmann::json;

bool fromJSON(const json& value, Position& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("line", out.line) && r.map("character", out.character);
}

bool fromJSON(const json& value, Range& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("start", out.start) && r.map("end", out.end);
}

bool fromJSON(const json& value, TextDocumentIdentifier& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("uri", out.uri);
}

bool fromJSON(const json& value, VersionedTextDocumentIdentifier& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("uri", out.uri) && r.map("version", out.version);
}

bool fromJSON(const json& value, OptionalVersionedTextDocumentIdentifier& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("uri", out.uri) && r.mapOptional("version", out.version);
}

json toJSON(const Position& position) {
  return {{"line", position.line}, {"character", position.character}};
}

json toJSON(const Range& range) {
  return {{"start", toJSON(range.start)}, {"end", toJSON(range.end)}};
}

json toJSON(const TextDocumentIdentifier& id) {
  return {{"uri", id.uri}};
}

json toJSON(const VersionedTextDocumentIdentifier& id) {
  return {{"uri", id.uri}, {"version", id.version}};
}

json toJSON(const OptionalVersionedTextDocumentIdentifier& id) {
  return {{"uri", id.uri}, {"version", id.version ? json(*id.version) : json(nullptr)}};
}

} // namespace hashline::lsp
