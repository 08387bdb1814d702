// The typed params of the journal methods (journal_service.h), read by the one ParamsReader
// (lsp/protocol/params_reader.h) before any journal code runs:
//   undo    {op, dry_run?, caller}              op: "12", "op12", 12 (or "12#2": one hunk)
//   reject  {hunk, dry_run?, caller}            hunk: "12#2" ("12": the whole op)
//   rewind  {turn?, session?, path? | uri?, dry_run?, caller without turn}
//   accept  {hunk | op | id} or {turn, session?, path?}
//   pending {session?, turn?, path?}
//   log     {session?, turn?, path?, limit?}
//   diff    {op | id} or {turn | session, path?}, kind?: commit | net
//   turn    {action?: begin | end | current, session?, turn?}
// A wrong type, an id that is not one, a turn or limit < 1 or an unknown enum value is an
// InvalidParams RpcError naming the field ("invalid params for rewind: params.turn: expected an
// integer, got a string (\"latest\")"), so a malformed request never acts. `id`, `dryRun` are
// accepted aliases. Pure; no I/O.
#pragma once

#include "engine/journal/journal_op.h"
#include "lsp/rpc/rpc_error.h"
#include "lsp/service/service_request.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hashline::lsp {

/// An op or hunk as the caller named it.
struct HunkId {
  std::string text; // as given ("12#2"), for messages
  journal::HunkRef ref;
};

/// Which ops a journal method looks at.
struct JournalScope {
  std::optional<std::string> session;
  std::optional<std::int64_t> turn;
  DocumentRef document; // neither path nor uri: every document
  std::optional<std::size_t> limit;
  bool namesDocument() const { return document.uri || document.path; }
};

struct UndoRequest {
  HunkId op;
  CallerIdentity caller;
  bool dry_run = false;
};

struct RejectRequest {
  HunkId hunk;
  CallerIdentity caller;
  bool dry_run = false;
};

struct RewindRequest {
  JournalScope scope;
  CallerIdentity caller; // `turn` is the turn rewound, not the caller's
  bool dry_run = false;
};

struct AcceptRequest {
  std::optional<HunkId> id; // else scope.turn is set
  JournalScope scope;
};

struct ScopeRequest { // pending, log
  JournalScope scope;
};

enum class DiffKind { Commit, Net };

struct DiffRequest {
  std::optional<HunkId> op; // else scope.turn or scope.session is set
  JournalScope scope;
  std::optional<DiffKind> kind; // default: commit for an op, net for a turn
};

enum class TurnAction { Begin, End, Current };

struct TurnRequest {
  TurnAction action = TurnAction::Begin;
  std::string session = "default";
  std::optional<std::int64_t> turn; // begin: this number (must be past the current one)
};

std::optional<RpcError> parseUndoRequest(const nlohmann::json& params, UndoRequest& out);
std::optional<RpcError> parseRejectRequest(const nlohmann::json& params, RejectRequest& out);
std::optional<RpcError> parseRewindRequest(const nlohmann::json& params, RewindRequest& out);
std::optional<RpcError> parseAcceptRequest(const nlohmann::json& params, AcceptRequest& out);
/// `pending` and `log` (`limit` only for log).
std::optional<RpcError> parseScopeRequest(const std::string& method, const nlohmann::json& params,
                                          ScopeRequest& out);
std::optional<RpcError> parseDiffRequest(const nlohmann::json& params, DiffRequest& out);
std::optional<RpcError> parseTurnRequest(const nlohmann::json& params, TurnRequest& out);

} // namespace hashline::lsp
