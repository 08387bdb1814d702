// Parsing the journal methods' params; see journal_requests.h.
#include "lsp/journal/journal_requests.h"

#include "lsp/protocol/params_reader.h"

namespace hashline::lsp {

using nlohmann::json;

namespace {

/// An op id (`hunk_allowed`: or a hunk id OP#K) under one of `names`.
bool readHunkId(ParamsReader& reader, ParamsReader::Names names, std::optional<HunkId>& out,
                bool hunk_allowed) {
  std::optional<std::string> text;
  if (!reader.idText(names, text)) return false;
  if (!text) return true;
  std::optional<journal::HunkRef> ref = journal::parseHunkRef(*text);
  if (!ref || (!hunk_allowed && ref->hunk != 0))
    return reader.fail(*names.begin(),
                       std::string("expected ") +
                           (hunk_allowed ? "an op or hunk id (12 or 12#2)" : "an op id (12)") +
                           ", got \"" + *text + "\"");
  out = HunkId{*text, *ref};
  return true;
}

bool requireHunkId(ParamsReader& reader, ParamsReader::Names names, HunkId& out) {
  std::optional<HunkId> id;
  if (!readHunkId(reader, names, id, true)) return false;
  if (!id) return reader.fail(*names.begin(), "missing");
  out = std::move(*id);
  return true;
}

bool readScope(ParamsReader& reader, JournalScope& out, bool with_limit) {
  std::optional<std::int64_t> limit;
  if (!reader.optString({"session"}, out.session) ||
      !reader.integer({"turn"}, out.turn, false, 1) ||
      !reader.optString({"path"}, out.document.path) ||
      !reader.optString({"uri"}, out.document.uri) ||
      (with_limit && !reader.integer({"limit"}, limit, false, 1)))
    return false;
  if (limit) out.limit = static_cast<std::size_t>(*limit);
  return true;
}

bool readDryRun(ParamsReader& reader, bool& out) {
  return reader.boolean({"dry_run", "dryRun"}, out);
}

} // namespace

std::optional<RpcError> parseUndoRequest(const json& params, UndoRequest& out) {
  ParamsReader reader(params, "undo");
  if (!reader.ok() || !requireHunkId(reader, {"op", "id"}, out.op) ||
      !readDryRun(reader, out.dry_run))
    return reader.error;
  return parseCaller("undo", params, out.caller);
}

std::optional<RpcError> parseRejectRequest(const json& params, RejectRequest& out) {
  ParamsReader reader(params, "reject");
  if (!reader.ok() || !requireHunkId(reader, {"hunk", "id", "op"}, out.hunk) ||
      !readDryRun(reader, out.dry_run))
    return reader.error;
  return parseCaller("reject", params, out.caller);
}

std::optional<RpcError> parseRewindRequest(const json& params, RewindRequest& out) {
  ParamsReader reader(params, "rewind");
  if (!reader.ok() || !readScope(reader, out.scope, false) || !readDryRun(reader, out.dry_run))
    return reader.error;
  if (auto error = parseCaller("rewind", params, out.caller)) return error;
  out.caller.turn.reset(); // the rewind itself belongs to the session's current turn
  return std::nullopt;
}

std::optional<RpcError> parseAcceptRequest(const json& params, AcceptRequest& out) {
  ParamsReader reader(params, "accept");
  if (!reader.ok() || !readHunkId(reader, {"hunk", "op", "id"}, out.id, true) ||
      !readScope(reader, out.scope, false))
    return reader.error;
  if (!out.id && !out.scope.turn) return invalidParams("accept", "params", "give hunk, op or turn");
  return std::nullopt;
}

std::optional<RpcError> parseScopeRequest(const std::string& method, const json& params,
                                          ScopeRequest& out) {
  ParamsReader reader(params, method);
  if (!reader.ok() || !readScope(reader, out.scope, method == "log")) return reader.error;
  return std::nullopt;
}

std::optional<RpcError> parseDiffRequest(const json& params, DiffRequest& out) {
  ParamsReader reader(params, "diff");
  std::optional<std::string> kind;
  if (!reader.ok() || !readHunkId(reader, {"op", "id"}, out.op, true) ||
      !readScope(reader, out.scope, false) || !reader.choice({"kind"}, kind, {"commit", "net"}))
    return reader.error;
  if (!out.op && !out.scope.turn && !out.scope.session)
    return invalidParams("diff", "params", "give op, or turn (and session)");
  if (kind) out.kind = *kind == "commit" ? DiffKind::Commit : DiffKind::Net;
  return std::nullopt;
}

std::optional<RpcError> parseTurnRequest(const json& params, TurnRequest& out) {
  ParamsReader reader(params, "turn");
  std::optional<std::string> action, session;
  if (!reader.ok() || !reader.choice({"action"}, action, {"begin", "end", "current"}) ||
      !reader.optString({"session"}, session) || !reader.integer({"turn"}, out.turn, false, 1))
    return reader.error;
  if (action)
    out.action = *action == "begin" ? TurnAction::Begin
                 : *action == "end" ? TurnAction::End
                                    : TurnAction::Current;
  if (session && !session->empty()) out.session = *session;
  return std::nullopt;
}

} // namespace hashline::lsp
