// fromJSON / toJSON for the text synchronisation notifications.
#include "lsp/protocol/text_sync.h"

namespace hashline::lsp {

using nlohmann::json;

bool fromJSON(const json& value, TextDocumentItem& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("uri", out.uri) && r.mapOptional("languageId", out.languageId) &&
         r.map("version", out.version) && r.map("text", out.text);
}

bool fromJSON(const json& value, TextDocumentContentChangeEvent& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.mapOptional("range", out.range) && r.mapOptional("rangeLength", out.rangeLength) &&
         r.map("text", out.text);
}

bool fromJSON(const json& value, DidOpenTextDocumentParams& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("textDocument", out.textDocument);
}

bool takeDidOpenParams(json& value, DidOpenTextDocumentParams& out, JsonPath path) {
  // Move the (possibly huge) text aside, parse the rest, then move it into place.
  json text;
  if (value.is_object()) {
    auto doc = value.find("textDocument");
    if (doc != value.end() && doc->is_object()) {
      auto member = doc->find("text");
      if (member != doc->end() && member->is_string()) {
        text = std::move(*member);
        *member = "";
      }
    }
  }
  if (!fromJSON(value, out, path)) return false;
  if (text.is_string()) out.textDocument.text = std::move(text.get_ref<std::string&>());
  return true;
}

bool fromJSON(const json& value, DidChangeTextDocumentParams& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("textDocument", out.textDocument) &&
         r.map("contentChanges", out.contentChanges);
}

bool fromJSON(const json& value, DidCloseTextDocumentParams& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("textDocument", out.textDocument);
}

bool fromJSON(const json& value, WillSaveTextDocumentParams& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("textDocument", out.textDocument) && r.map("reason", out.reason);
}

bool fromJSON(const json& value, DidSaveTextDocumentParams& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("textDocument", out.textDocument) && r.mapOptional("text", out.text);
}

json toJSON(const TextDocumentItem& item) {
  return {{"uri", item.uri},
          {"languageId", item.languageId},
          {"version", item.version},
          {"text", item.text}};
}

json toJSON(const TextDocumentContentChangeEvent& change) {
  json out = {{"text", change.text}};
  if (change.range) out["range"] = toJSON(*change.range);
  if (change.rangeLength) out["rangeLength"] = *change.rangeLength;
  return out;
}

} // namespace hashline::lsp
