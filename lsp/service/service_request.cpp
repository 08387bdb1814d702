// Parsing agent service params; see service_request.h.
#include "lsp/service/service_request.h"

#include "lsp/protocol/json_path.h"

namespace hashline::lsp {

using nlohmann::json;

namespace {

RpcError invalid(const std::string& method, const std::string& where, const std::string& what) {
  return RpcError::make(RpcErrorCode::InvalidParams,
                        "invalid params for " + method + ": " + where + ": " + what);
}

// A small reader over one params object that reports the first problem with its path.
class Fields {
public:
  Fields(const json& object, std::string method, std::string prefix = "params")
      : object_(object), method_(std::move(method)), prefix_(std::move(prefix)) {}

  const json* find(std::initializer_list<const char*> names) const {
    if (!object_.is_object()) return nullptr;
    for (const char* name : names) {
      auto it = object_.find(name);
      if (it != object_.end() && !it->is_null()) return &*it;
    }
    return nullptr;
  }
  std::string where(const char* name) const { return prefix_ + "." + name; }

  bool string(std::initializer_list<const char*> names, std::string& out, bool required) {
    const json* value = find(names);
    if (!value) {
      if (required) fail(*names.begin(), "missing");
      return !required;
    }
    if (!value->is_string())
      return fail(*names.begin(), "expected a string, got " + describeJSON(*value));
    out = value->get<std::string>();
    return true;
  }
  bool optString(std::initializer_list<const char*> names, std::optional<std::string>& out) {
    std::string text;
    if (!find(names)) return true;
    if (!string(names, text, true)) return false;
    out = std::move(text);
    return true;
  }
  bool boolean(std::initializer_list<const char*> names, bool& out) {
    const json* value = find(names);
    if (!value) return true;
    if (!value->is_boolean())
      return fail(*names.begin(), "expected a boolean, got " + describeJSON(*value));
    out = value->get<bool>();
    return true;
  }
  bool integer(std::initializer_list<const char*> names, std::optional<std::int64_t>& out,
               bool required) {
    const json* value = find(names);
    if (!value) {
      if (required) return fail(*names.begin(), "missing");
      return true;
    }
    if (!value->is_number_integer())
      return fail(*names.begin(), "expected an integer, got " + describeJSON(*value));
    out = value->get<std::int64_t>();
    return true;
  }
  bool line(std::initializer_list<const char*> names, std::optional<std::uint32_t>& out,
            bool required) {
    std::optional<std::int64_t> value;
    if (!integer(names, value, required)) return false;
    if (!value) return true;
    if (*value < 0 || *value > 0xFFFFFFFFll)
      return fail(*names.begin(), "expected a line number >= 0, got " + std::to_string(*value));
    out = std::uint32_t(*value);
    return true;
  }
  bool fail(const char* name, const std::string& what) {
    if (!error) error = invalid(method_, where(name), what);
    return false;
  }

  std::optional<RpcError> error;

private:
  const json& object_;
  std::string method_;
  std::string prefix_;
};

bool parseDocument(Fields& fields, DocumentRef& out) {
  if (!fields.optString({"uri"}, out.uri) || !fields.optString({"path"}, out.path)) return false;
  // LSP-style {textDocument: {uri}} is accepted too.
  if (!out.uri && !out.path) {
    if (const json* doc = fields.find({"textDocument"}); doc && doc->is_object()) {
      auto it = doc->find("uri");
      if (it != doc->end() && it->is_string()) out.uri = it->get<std::string>();
    }
  }
  if (!out.uri && !out.path) return fields.fail("uri", "missing (give `uri` or `path`)");
  return true;
}

bool parseCallerFields(Fields& fields, CallerIdentity& out) {
  std::optional<std::string> session, agent;
  if (!fields.optString({"session"}, session) || !fields.optString({"agent"}, agent)) return false;
  if (session && !session->empty()) out.session = *session;
  if (agent) out.agent = *agent;
  if (fields.find({"confirm"})) {
    bool confirm = false;
    if (!fields.boolean({"confirm"}, confirm)) return false;
    out.confirm = confirm;
  }
  return fields.integer({"turn"}, out.turn, false);
}

std::optional<RpcError> notAnObject(const std::string& method, const json& params) {
  if (params.is_object()) return std::nullopt;
  return invalid(method, "params", "expected an object, got " + describeJSON(params));
}

// `edits: [...]` when present, else the params object itself as the only edit.
template <class Parse>
bool forEachEdit(const json& params, const std::string& method, std::optional<RpcError>& error,
                 Parse parse) {
  auto it = params.find("edits");
  if (it == params.end() || it->is_null()) {
    Fields fields(params, method);
    bool ok = parse(fields);
    if (!ok) error = fields.error;
    return ok;
  }
  if (!it->is_array() || it->empty()) {
    error = invalid(method, "params.edits",
                    it->is_array() ? "empty (give at least one edit)"
                                   : "expected an array, got " + describeJSON(*it));
    return false;
  }
  for (std::size_t i = 0; i < it->size(); ++i) {
    if (!(*it)[i].is_object()) {
      error = invalid(method, "params.edits[" + std::to_string(i) + "]",
                      "expected an object, got " + describeJSON((*it)[i]));
      return false;
    }
    Fields fields((*it)[i], method, "params.edits[" + std::to_string(i) + "]");
    if (!parse(fields)) {
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

std::optional<RpcError> parseCaller(const json& params, CallerIdentity& out) {
  if (!params.is_object()) return std::nullopt;
  Fields fields(params, "call");
  if (!parseCallerFields(fields, out)) return fields.error;
  return std::nullopt;
}

std::optional<RpcError> parseReadRequest(const json& params, ReadRequest& out) {
  if (auto error = notAnObject("read", params)) return error;
  Fields fields(params, "read");
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
      return invalid("read", "params.format",
                     "expected rows, text or both, got \"" + *format + "\"");
  }
  if (tier) {
    out.tier = tierFromName(*tier);
    if (!out.tier)
      return invalid("read", "params.tier", "expected line, block or chain, got \"" + *tier + "\"");
  }
  return std::nullopt;
}

std::optional<RpcError> parseFormRequest(FormKind kind, const json& params, FormRequest& out) {
  std::string method(formMethod(kind));
  if (auto error = notAnObject(method, params)) return error;
  out.kind = kind;
  Fields fields(params, method);
  if (!parseDocument(fields, out.document) || !parseCallerFields(fields, out.caller) ||
      !fields.boolean({"dry_run", "dryRun"}, out.dry_run))
    return fields.error;

  std::optional<RpcError> error;
  switch (kind) {
  case FormKind::Anchors: {
    auto it = params.find("edits");
    if (it == params.end() || !it->is_array())
      return invalid(method, "params.edits",
                     it == params.end() ? "missing"
                                        : "expected an array, got " + describeJSON(*it));
    forEachEdit(params, method, error, [&](Fields& edit) {
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
    break;
  }
  case FormKind::Replace:
    forEachEdit(params, method, error, [&](Fields& edit) {
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
    forEachEdit(params, method, error, [&](Fields& edit) {
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
    if (!fields.integer({"version"}, shared_version, false)) return fields.error;
    forEachEdit(params, method, error, [&](Fields& edit) {
      forms::LineRangeEdit parsed;
      std::optional<std::uint32_t> start, end;
      std::optional<std::int64_t> version;
      if (!edit.line({"start"}, start, true) || !edit.line({"end"}, end, true) ||
          !edit.string({"content", "text"}, parsed.content, true) ||
          !edit.integer({"version", "at"}, version, !shared_version))
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
        !fields.integer({"version", "at"}, out.version, false))
      return fields.error;
    break;
  }
  return error;
}

std::optional<RpcError> parsePatchRequest(const json& params, PatchRequest& out) {
  if (auto error = notAnObject("patch", params)) return error;
  Fields fields(params, "patch");
  if (!fields.string({"patch", "input"}, out.patch, true) ||
      !parseCallerFields(fields, out.caller) || !fields.boolean({"dry_run", "dryRun"}, out.dry_run))
    return fields.error;
  return std::nullopt;
}

} // namespace hashline::lsp
