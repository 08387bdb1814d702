// hashline::Error <-> JSON (camelCase data members, empty ones omitted).
#include "lsp/protocol/error_json.h"

namespace hashline::lsp {

using nlohmann::json;

json toJSON(const Error& error) {
  const ErrorData& d = error.data;
  json data = json::object();
  if (d.current_text) data["currentText"] = *d.current_text;
  if (!d.fresh_anchors.empty()) {
    json rows = json::array();
    for (const auto& row : d.fresh_anchors)
      rows.push_back({{"line", row.line}, {"anchor", row.anchor}, {"text", row.text}});
    data["freshAnchors"] = std::move(rows);
  }
  if (!d.candidate_lines.empty()) data["candidateLines"] = d.candidate_lines;
  if (d.suggestion) data["suggestion"] = *d.suggestion;
  if (d.edit_index) data["editIndex"] = *d.edit_index;
  if (d.edit_count) data["editCount"] = *d.edit_count;
  if (d.path) data["path"] = *d.path;
  if (!d.notes.empty()) data["notes"] = d.notes;
  return {{"code", errorCodeName(error.code)},
          {"message", error.message},
          {"hint", error.hint},
          {"data", std::move(data)}};
}

json refusalToJSON(const Error& error) {
  return {{"status", "refused"}, {"error", toJSON(error)}};
}

// Not in an anonymous namespace: the templates in json_path.h find these by ADL (via JsonPath).
bool fromJSON(const json& value, AnchoredRow& out, JsonPath path) {
  ObjectReader r(value, path);
  return r && r.map("line", out.line) && r.map("anchor", out.anchor) && r.map("text", out.text);
}

bool fromJSON(const json& value, ErrorData& out, JsonPath path) {
  std::optional<std::int64_t> edit_index, edit_count;
  ObjectReader r(value, path);
  if (!(r && r.mapOptional("currentText", out.current_text) &&
        r.mapOptional("freshAnchors", out.fresh_anchors) &&
        r.mapOptional("candidateLines", out.candidate_lines) &&
        r.mapOptional("suggestion", out.suggestion) && r.mapOptional("editIndex", edit_index) &&
        r.mapOptional("editCount", edit_count) && r.mapOptional("path", out.path) &&
        r.mapOptional("notes", out.notes)))
    return false;
  if (edit_index) out.edit_index = static_cast<std::size_t>(*edit_index);
  if (edit_count) out.edit_count = static_cast<std::size_t>(*edit_count);
  return true;
}

bool fromJSON(const json& value, Error& out, JsonPath path) {
  std::string code;
  ObjectReader r(value, path);
  if (!r || !r.map("code", code)) return false;
  auto parsed = errorCodeFromName(code);
  if (!parsed) return path.field("code").report("unknown error code \"" + code + "\"");
  out = Error::make(*parsed, "");
  return r.mapOptional("message", out.message) && r.mapOptional("hint", out.hint) &&
         r.mapOptional("data", out.data);
}

} // namespace hashline::lsp
