// Parsing agent service params; see service_request.h.
#include "lsp/service/service_request.h"

#include "lsp/protocol/json_path.h"
#include "lsp/protocol/params_reader.h"

namespace hashline::lsp {

using nlohmann::json;

namespace {

bool parseDocument(ParamsReader& fields, DocumentRef& out) {
  if (!fields.optString({"uri"}, out.uri) || !fields.optString({"path"}, out.path)) return false;
  // LSP-style {textDocument: {uri}} is accepted too.
  if (!out.uri && !out.path) {
    if (const json* doc = fields.find({"textDocument"})) {
      ParamsReader text_document(*doc, fields.method(), fields.where() + ".textDocument");
      if (!text_document.optString({"uri"}, out.uri)) {
        fields.error = text_document.error;
        return false;
      }
    }
  }
  if (!out.uri && !out.path) return fields.fail("uri", "missing (give `uri` or `path`)");
  return true;
}

bool parseCallerFields(ParamsReader& fields, CallerIdentity& out) {
  std::optional<std::string> session, agent;
  if (!fields.optString({"session"}, session) || !fields.optString({"agent"}, agent) ||
      !fields.optBoolean({"confirm"}, out.confirm) || !fields.integer({"turn"}, out.turn, false, 1))
    return false;
  if (session && !session->empty()) out.session = *session;
  if (agent) out.agent = *agent;
  return true;
}

std::optional<RpcError> notAnObject(const std::string& method, const json& params) {
  if (params.is_object()) return std::nullopt;
  return invalidParams(method, "params", "expected an object, got " + describeJSON(params));
}

// `edits: [...]` when present, else the params object itself as the only edit.
template <class Parse>
bool forEachEdit(const json& params, const std::string& method, std::optional<RpcError>& error,
                 Parse parse) {
  auto it = params.find("edits");
  if (it == params.end() || it->is_null()) {
    ParamsReader fields(params, method);
    bool ok = parse(fields);
    if (!ok) error = fields.error;
    return ok;
  }
  if (!it->is_array() || it->empty()) {
    error = invalidParams(method, "params.edits",
                          it->is_array() ? "empty (give at least one edit)"
                                         : "expected an array, got " + describeJSON(*it));
    return false;
  }
  std::size_t index = 0;
  for (const json& element : *it) {
    ParamsReader fields(element, method, "params.edits[" + std::to_string(index++) + "]");
    if (!fields.ok() || !parse(fields)) {
      error = fields.error;
      return false;
    }
  }
  return true;
}

} // namespace

std::string_view formMethod(FormKind kind) {
  switch (kind) {
  case FormKind::Anchors:
    return "edit";
  case FormKind::Replace:
    return "replace";
  case FormKind::HeadTail:
    return "headtail";
  case FormKind::Range:
    return "range";
  case FormKind::Draft:
    return "draft";
  case FormKind::Ed:
    return "ed";
  }
  return "edit";
}

std::optional<RpcError> parseCaller(const std::string& method, const json& params,
                                    CallerIdentity& out) {
  ParamsReader fields(params, method);
  if (!fields.ok() || !parseCallerFields(fields, out)) return fields.error;
  return std::nullopt;
}

std::optional<RpcError> parseStatusRequest(const json& params, StatusRequest& out) {
  ParamsReader fields(params, "status");
  if (!fields.ok() || !parseCallerFields(fields, out.caller)) return fields.error;
  out.names_session = fields.has({"session"});
  return std::nullopt;
}

std::optional<RpcError> parseReadRequest(const json& params, ReadRequest& out) {
  if (auto error = notAnObject("read", params)) return error;
  ParamsReader fields(params, "read");
  std::optional<std::string> tier, format;
  if (!parseDocument(fields, out.document) || !parseCallerFields(fields, out.caller) ||
      !fields.line({"from"}, out.from, false) || !fields.line({"to"}, out.to, false) ||
      !fields.optString({"tier"}, tier) || !fields.optString({"format"}, format))
    return fields.error;
  if (format) {
    if (*format == "both")
      out.format = ReadFormat::Both;
    else if (*format == "rows")
      out.format = ReadFormat::Rows;
    else if (*format == "text")
      out.format = ReadFormat::Text;
    else
      return invalidParams("read", "params.format",
                           "expected rows, text or both, got \"" + *format + "\"");
  }
  if (tier) {
    out.tier = tierFromName(*tier);
    if (!out.tier)
      return invalidParams("read", "params.tier",
                           "expected line, block or chain, got \"" + *tier + "\"");
  }
  return std::nullopt;
}

namespace {

/// The anchored form's `edits`: one flat object each, named by `op`.
std::optional<RpcError> parseAnchoredEdits(const json& params, const std::string& method,
                                           FormRequest& out) {
  std::optional<RpcError> error;
  auto it = params.find("edits");
  if (it == params.end() || !it->is_array())
    return invalidParams(method, "params.edits",
                         it == params.end() ? "missing"
                                            : "expected an array, got " + describeJSON(*it));
  forEachEdit(params, method, error, [&](ParamsReader& edit) {
    AnchoredEdit parsed;
    std::string op;
    if (!edit.string({"op"}, op, true)) return false;
    auto known = editOpFromName(op);
    if (!known)
      return edit.fail("op", "unknown op \"" + op +
                                 "\" (replace, delete, insert_after, insert_before, write)");
    parsed.op = *known;
    const json* anchor = edit.find({"anchor", "line"});
    if (anchor && anchor->is_number_integer()) // insert_after 0
      parsed.anchor = std::to_string(anchor->get<std::int64_t>());
    else if (!edit.string({"anchor", "line"}, parsed.anchor, parsed.op != EditOp::Write))
      return false;
    if (!edit.optString({"end"}, parsed.end) ||
        !edit.string({"content", "text"}, parsed.content, parsed.op != EditOp::Delete))
      return false;
    out.anchored.push_back(std::move(parsed));
    return true;
  });
  return error;
}

} // namespace

std::optional<RpcError> parseFormRequest(FormKind kind, const json& params, FormRequest& out) {
  std::string method(formMethod(kind));
  if (auto error = notAnObject(method, params)) return error;
  out.kind = kind;
  ParamsReader fields(params, method);
  if (!parseDocument(fields, out.document) || !parseCallerFields(fields, out.caller) ||
      !fields.boolean({"dry_run", "dryRun"}, out.dry_run))
    return fields.error;

  std::optional<RpcError> error;
  switch (kind) {
  case FormKind::Anchors:
    error = parseAnchoredEdits(params, method, out);
    break;
  case FormKind::Replace:
    forEachEdit(params, method, error, [&](ParamsReader& edit) {
      forms::OldNewEdit parsed;
      if (!edit.string({"old", "old_string", "oldText"}, parsed.old_text, true) ||
          !edit.string({"new", "new_string", "newText"}, parsed.new_text, true) ||
          !edit.boolean({"replace_all", "replaceAll"}, parsed.replace_all))
        return false;
      out.replacements.push_back(std::move(parsed));
      return true;
    });
    break;
  case FormKind::HeadTail:
    forEachEdit(params, method, error, [&](ParamsReader& edit) {
      forms::HeadTailEdit parsed;
      if (!edit.string({"head"}, parsed.head, true) || !edit.string({"tail"}, parsed.tail, true) ||
          !edit.string({"new", "content"}, parsed.new_text, true))
        return false;
      out.head_tails.push_back(std::move(parsed));
      return true;
    });
    break;
  case FormKind::Range: {
    std::optional<std::int64_t> shared_version;
    if (!fields.integer({"version"}, shared_version, false, 0)) return fields.error;
    forEachEdit(params, method, error, [&](ParamsReader& edit) {
      forms::LineRangeEdit parsed;
      std::optional<std::uint32_t> start, end;
      std::optional<std::int64_t> version;
      if (!edit.line({"start"}, start, true) || !edit.line({"end"}, end, true) ||
          !edit.string({"content", "text"}, parsed.content, true) ||
          !edit.integer({"version", "at"}, version, !shared_version, 0))
        return false;
      parsed.start_line = *start;
      parsed.end_line = *end;
      parsed.version = version ? *version : *shared_version;
      out.ranges.push_back(std::move(parsed));
      return true;
    });
    break;
  }
  case FormKind::Draft:
    if (!fields.string({"draft", "content", "text"}, out.text, true)) return fields.error;
    break;
  case FormKind::Ed:
    if (!fields.string({"script"}, out.text, true) ||
        !fields.integer({"version", "at"}, out.version, false, 0))
      return fields.error;
    break;
  }
  return error;
}

std::optional<RpcError> parsePatchRequest(const json& params, PatchRequest& out) {
  if (auto error = notAnObject("patch", params)) return error;
  ParamsReader fields(params, "patch");
  if (!fields.string({"patch", "input"}, out.patch, true) ||
      !parseCallerFields(fields, out.caller) || !fields.boolean({"dry_run", "dryRun"}, out.dry_run))
    return fields.error;
  return std::nullopt;
}

} // namespace hashline::lsp
