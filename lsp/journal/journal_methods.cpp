// The journal methods of the agent service — each reads its typed request
// (journal_requests.h) and runs: undo, reject and rewind (the reverts run in journal_revert.cpp),
// accept, pending, log, diff, turn; see journal_service.h.
#include "engine/diff/line_diff.h"
#include "engine/journal/hunk_locator.h"
#include "engine/journal/rewind_planner.h"
#include "lsp/journal/journal_json.h"
#include "lsp/journal/journal_revert.h"
#include "lsp/journal/journal_service.h"
#include "lsp/protocol/error_json.h"
#include "lsp/service/hashline_service.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

namespace hashline::lsp {

using nlohmann::json;
using namespace hashline::journal;

namespace {

// Hints that fit the journal's refusals (the codes' default hints speak of edits).
constexpr const char* kLogHint =
    "`log` lists the ops and their hunk ids (hashline log, hashline_log)";
constexpr const char* kPendingHint =
    "`pending` lists the hunks still to review as OP#K (hashline pending, hashline_pending)";

Error unknownOp(const HunkId& id) {
  return Error::make(ErrorCode::NotFound, "no op " + std::to_string(id.ref.op) + " in the journal")
      .withHint(kLogHint);
}

Error alreadyReverted(const std::string& what) {
  return Error::make(ErrorCode::NoChange, what)
      .withHint("nothing is left to reverse; `log` shows which ops are still in effect");
}

} // namespace

std::string JournalService::keyOf(const JournalOp& op) const {
  Result<ServiceTarget> target = targetOf(op);
  return target ? target->key : op.uri;
}

Result<std::vector<const JournalOp*>> JournalService::select(const JournalScope& scope,
                                                             bool require_turn_or_session) {
  LogFilter filter;
  filter.session = scope.session;
  filter.turn = scope.turn;
  if (require_turn_or_session && !filter.session) filter.session = "default";
  if (scope.namesDocument()) {
    DocumentRef ref;
    if (scope.document.path)
      ref.path = scope.document.path;
    else
      ref.uri = scope.document.uri;
    Result<ServiceTarget> target = service_.locate(ref);
    if (!target) return target.error();
    // Located once per distinct recorded URI/path, not once per op (a session has thousands).
    auto keys = std::make_shared<std::map<std::string, std::string>>();
    filter.document = [this, path_key = target->key, keys](const JournalOp& op) {
      std::string spelling = op.uri + '\n' + op.path.value_or("");
      auto it = keys->find(spelling);
      if (it == keys->end()) it = keys->emplace(std::move(spelling), keyOf(op)).first;
      return it->second == path_key;
    };
  }
  if (scope.limit) filter.limit = *scope.limit;
  return journal_.query(filter);
}

namespace {

/// Parses `params` into `Request` and runs `run` with it, or answers the InvalidParams error.
template <class Request, class Parse, class Run>
void parsed(const json& params, ServiceCallback& done, Parse parse, Run run) {
  Request request;
  if (std::optional<RpcError> error = parse(params, request)) return done(std::move(*error));
  run(request);
}

/// Where each of `hunks` is in `current` (or why it is not). Hunks still where their op left
/// them are confirmed in place on the rope (O(hunk)); the rest are found together in one pass
/// over the rope's lines (HunkLocator: O(lines + hunks), nothing copied but lines that cross
/// leaves).
struct ListedHunk {
  const JournalOp* op;
  const JournalHunk* hunk;
  HunkRef ref() const { return {op->id, hunk->index}; }
};

std::vector<Result<std::uint32_t>> locateAll(const Result<Rope>& current,
                                             const std::vector<ListedHunk>& hunks,
                                             std::string_view name) {
  if (!current) return std::vector<Result<std::uint32_t>>(hunks.size(), current.error());
  std::vector<std::optional<std::uint32_t>> in_place;
  std::vector<const JournalHunk*> moved;
  for (const ListedHunk& listed : hunks) {
    in_place.push_back(locateInPlace(*current, *listed.hunk));
    if (!in_place.back()) moved.push_back(listed.hunk);
  }
  const RopeLineSource lines(*current); // read in place: no list of the buffer's lines
  std::optional<HunkLocator> locator;
  if (!moved.empty()) locator.emplace(lines, moved);
  std::vector<Result<std::uint32_t>> found;
  for (std::size_t i = 0; i < hunks.size(); ++i)
    found.push_back(in_place[i] ? Result<std::uint32_t>(*in_place[i])
                                : locator->locate(*hunks[i].hunk, hunks[i].ref(), name));
  return found;
}

} // namespace

void JournalService::call(const std::string& method, const json& params, ServiceCallback done) {
  auto scoped = [&method](const json& p, ScopeRequest& r) {
    return parseScopeRequest(method, p, r);
  };
  // Parse first: a malformed request must not even refresh the journal.
  if (method == "undo")
    return parsed<UndoRequest>(params, done, parseUndoRequest, [&](const UndoRequest& r) {
      refresh();
      undo(r, std::move(done));
    });
  if (method == "reject")
    return parsed<RejectRequest>(params, done, parseRejectRequest, [&](const RejectRequest& r) {
      refresh();
      reject(r, std::move(done));
    });
  if (method == "rewind")
    return parsed<RewindRequest>(params, done, parseRewindRequest, [&](const RewindRequest& r) {
      refresh();
      rewind(r, std::move(done));
    });
  if (method == "accept")
    return parsed<AcceptRequest>(params, done, parseAcceptRequest, [&](const AcceptRequest& r) {
      refresh();
      accept(r, std::move(done));
    });
  if (method == "pending")
    return parsed<ScopeRequest>(params, done, scoped, [&](const ScopeRequest& r) {
      refresh();
      pending(r, std::move(done));
    });
  if (method == "log")
    return parsed<ScopeRequest>(params, done, scoped, [&](const ScopeRequest& r) {
      refresh();
      log(r, std::move(done));
    });
  if (method == "diff")
    return parsed<DiffRequest>(params, done, parseDiffRequest, [&](const DiffRequest& r) {
      refresh();
      diff(r, std::move(done));
    });
  if (method == "turn")
    return parsed<TurnRequest>(params, done, parseTurnRequest, [&](const TurnRequest& r) {
      refresh();
      turn(r, std::move(done));
    });
  done(RpcError::make(RpcErrorCode::MethodNotFound, "unknown journal method " + method));
}

void JournalService::undo(const UndoRequest& request, ServiceCallback done) {
  if (request.op.ref.hunk != 0) // "12#2": one hunk
    return reject(RejectRequest{request.op, request.caller, request.dry_run}, std::move(done));
  const JournalOp* op = journal_.find(request.op.ref.op);
  if (!op) return done(refusalToJSON(unknownOp(request.op)));
  if (!op->inEffect())
    return done(refusalToJSON(
        alreadyReverted("op " + request.op.text + " is already undone (every hunk reverted)")));
  RevertRequest revert;
  revert.method = "undo";
  revert.caller = request.caller;
  revert.dry_run = request.dry_run;
  std::optional<Error> error;
  revert.files = groupByDocument(*this, {op}, error);
  if (error) return done(refusalToJSON(*error));
  runRevert(*this, std::move(revert), std::move(done));
}

void JournalService::reject(const RejectRequest& request, ServiceCallback done) {
  const HunkRef ref = request.hunk.ref;
  const JournalOp* op = journal_.find(ref.op);
  if (!op) return done(refusalToJSON(unknownOp(request.hunk)));
  JournalOp only = *op;
  if (ref.hunk != 0) {
    const JournalHunk* hunk = op->hunk(ref.hunk);
    if (!hunk)
      return done(
          refusalToJSON(Error::make(ErrorCode::NotFound, "op " + std::to_string(ref.op) +
                                                             " has no hunk " + request.hunk.text)
                            .withHint(kPendingHint)));
    if (hunk->state == HunkState::Reverted)
      return done(
          refusalToJSON(alreadyReverted("hunk " + request.hunk.text + " is already reverted")));
    only.hunks = {*hunk};
    only.reverts.clear(); // a single hunk of an undo op: no reinstating here
    if (op->kind == "move" && op->moved_to) {
      // One hunk of a move: a change of the moved file where it is now; it stays there.
      Result<ServiceTarget> there = targetOfPath(*op->moved_to);
      if (!there) return done(refusalToJSON(there.error()));
      only.kind = "update";
      only.uri = there->uri;
      only.path = op->moved_to;
      only.name = displayName(op->moved_to, there->uri);
      only.moved_to.reset();
    }
  } else if (!op->inEffect()) {
    return done(refusalToJSON(alreadyReverted("op " + request.hunk.text + " is already undone")));
  }
  RevertRequest revert;
  revert.method = "reject";
  revert.caller = request.caller;
  revert.dry_run = request.dry_run;
  std::optional<Error> error;
  revert.files = groupByDocument(*this, {&only}, error);
  if (error) return done(refusalToJSON(*error));
  runRevert(*this, std::move(revert), std::move(done));
}

void JournalService::rewind(const RewindRequest& request, ServiceCallback done) {
  Result<std::vector<const JournalOp*>> ops = select(request.scope, true);
  if (!ops) return done(refusalToJSON(ops.error()));
  RevertRequest revert;
  revert.method = "rewind";
  revert.caller = request.caller;
  revert.dry_run = request.dry_run;
  std::optional<Error> error;
  revert.files = groupByDocument(*this, *ops, error);
  if (error) return done(refusalToJSON(*error));
  if (revert.files.empty()) {
    std::string what =
        request.scope.turn ? "turn " + std::to_string(*request.scope.turn) : "the session";
    if (request.scope.namesDocument()) what += " in " + request.scope.document.spelled();
    return done(refusalToJSON(
        Error::make(ErrorCode::NoChange, "nothing of " + what + " is in effect to rewind")
            .withHint("`log` lists the turns and their ops (hashline log, hashline_log); "
                      "undone ops are marked")));
  }
  runRevert(*this, std::move(revert), std::move(done));
}

void JournalService::accept(const AcceptRequest& request, ServiceCallback done) {
  std::vector<HunkRef> refs;
  if (request.id) {
    if (!journal_.find(request.id->ref.op)) return done(refusalToJSON(unknownOp(*request.id)));
    refs.push_back(request.id->ref);
  } else {
    Result<std::vector<const JournalOp*>> ops = select(request.scope, true);
    if (!ops) return done(refusalToJSON(ops.error()));
    for (const JournalOp* op : *ops)
      refs.push_back({op->id, 0});
  }
  json accepted = json::array();
  for (const HunkRef& ref : refs) {
    std::vector<json> records;
    // Mark per hunk so replay reaches the same state.
    const JournalOp* op = journal_.find(ref.op);
    if (!op) continue;
    for (const JournalHunk& hunk : op->hunks) {
      if (ref.hunk != 0 && hunk.index != ref.hunk) continue;
      if (hunk.state != HunkState::Pending) continue;
      std::string id = formatHunkRef({ref.op, hunk.index});
      records.push_back({{"t", "state"}, {"ref", id}, {"state", "accepted"}});
      accepted.push_back(id);
    }
    if (!records.empty()) persist(records);
  }
  done(json{{"status", "ok"}, {"accepted", std::move(accepted)}});
}

void JournalService::pending(const ScopeRequest& request, ServiceCallback done) {
  Result<std::vector<const JournalOp*>> ops = select(request.scope, false);
  if (!ops) return done(refusalToJSON(ops.error()));
  struct FileEntry {
    ServiceTarget target;
    std::string name;
    std::vector<const JournalOp*> ops;
  };
  std::vector<FileEntry> files;
  std::map<std::string, std::size_t> index;
  std::map<std::string, std::optional<ServiceTarget>> targets; // per recorded URI/path
  for (const JournalOp* op : *ops) {
    if (!op->reverts.empty()) continue; // hashline's own reversals are not agent work to review
    bool any = std::any_of(op->hunks.begin(), op->hunks.end(),
                           [](const JournalHunk& h) { return h.state == HunkState::Pending; });
    if (!any) continue;
    auto [known, fresh] = targets.try_emplace(op->uri + '\n' + op->path.value_or(""));
    if (fresh)
      if (Result<ServiceTarget> target = targetOf(*op)) known->second = std::move(*target);
    if (!known->second) continue;
    const ServiceTarget& target = *known->second;
    auto [it, inserted] = index.try_emplace(target.key, files.size());
    if (inserted) files.push_back({target, op->name, {}});
    files[it->second].ops.push_back(op);
  }
  json out = json::array();
  std::size_t total = 0;
  for (const FileEntry& file : files) {
    std::vector<ListedHunk> listed;
    for (const JournalOp* op : file.ops)
      for (const JournalHunk& hunk : op->hunks)
        if (hunk.state == HunkState::Pending) listed.push_back({op, &hunk});
    const std::vector<Result<std::uint32_t>> places =
        locateAll(currentRope(file.target), listed, file.name);
    json hunks = json::array();
    for (std::size_t i = 0; i < listed.size(); ++i) {
      const JournalOp& op = *listed[i].op;
      const JournalHunk& hunk = *listed[i].hunk;
      json entry = {{"id", formatHunkRef(listed[i].ref())},
                    {"op", op.id},
                    {"method", op.method},
                    {"agent", op.agent},
                    {"session", op.session},
                    {"turn", op.turn},
                    {"lines", hunk.afterLineCount()},
                    {"removedLines", hunk.beforeLineCount()},
                    {"before", hunk.before_text},
                    {"after", hunk.after_text}};
      if (const Result<std::uint32_t>& where = places[i]) {
        entry["line"] = *where + 1;
      } else {
        entry["line"] = nullptr;
        entry["changedSince"] = true;
        entry["note"] = where.error().message;
      }
      hunks.push_back(std::move(entry));
      ++total;
    }
    json entry = {{"name", file.name},
                  {"uri", file.target.uri},
                  {"backend", file.target.backendName()},
                  {"hunks", std::move(hunks)}};
    if (file.target.path) entry["path"] = *file.target.path;
    out.push_back(std::move(entry));
  }
  done(json{{"status", "ok"}, {"count", total}, {"files", std::move(out)}});
}

void JournalService::log(const ScopeRequest& request, ServiceCallback done) {
  Result<std::vector<const JournalOp*>> ops = select(request.scope, false);
  if (!ops) return done(refusalToJSON(ops.error()));
  json out = json::array();
  for (const JournalOp* op : *ops)
    out.push_back(opSummaryJSON(*op));
  json result = {{"status", "ok"}, {"ops", std::move(out)}};
  // Buffer edits whose landing is not (yet) known: never listed as ops, never hidden.
  if (json uncertain = bufferIntentsJSON(); !uncertain.empty())
    result["bufferIntents"] = std::move(uncertain);
  if (file_) {
    result["journal"] = file_->path();
    if (file_->skippedRecords() != 0) result["skippedRecords"] = file_->skippedRecords();
  }
  done(std::move(result));
}

void JournalService::diff(const DiffRequest& request, ServiceCallback done) {
  std::vector<const JournalOp*> ops;
  if (request.op) {
    const JournalOp* op = journal_.find(request.op->ref.op);
    if (!op) return done(refusalToJSON(unknownOp(*request.op)));
    ops.push_back(op);
  } else {
    Result<std::vector<const JournalOp*>> selected = select(request.scope, true);
    if (!selected) return done(refusalToJSON(selected.error()));
    ops = *selected;
  }
  const std::string kind =
      request.kind.value_or(request.op ? DiffKind::Commit : DiffKind::Net) == DiffKind::Commit
          ? "commit"
          : "net";
  if (kind == "commit") {
    std::string text;
    for (const JournalOp* op : ops)
      text += commitDiff(*op);
    return done(json{{"status", "ok"}, {"kind", kind}, {"diff", text}});
  }
  std::optional<Error> error;
  std::vector<FileRevert> files = groupByDocument(*this, ops, error);
  if (error) return done(refusalToJSON(*error));
  std::string text;
  json per_file = json::array();
  for (const FileRevert& file : files) {
    Result<std::string> current = currentText(file.target);
    if (!current) return done(refusalToJSON(current.error()));
    std::vector<const JournalOp*> pointers;
    for (const JournalOp& op : file.ops)
      pointers.push_back(&op);
    Result<std::string> net = netDiff(*current, pointers, file.name);
    if (!net) return done(refusalToJSON(net.error()));
    text += *net;
    per_file.push_back({{"name", file.name}, {"uri", file.target.uri}, {"diff", *net}});
  }
  done(json{{"status", "ok"}, {"kind", kind}, {"diff", text}, {"files", std::move(per_file)}});
}

void JournalService::turn(const TurnRequest& request, ServiceCallback done) {
  const std::string& session = request.session;
  if (request.action == TurnAction::Current) {
    return done(
        json{{"status", "ok"}, {"session", session}, {"turn", journal_.currentTurn(session)}});
  }
  // `end` closes the current turn: the next call starts a new one, exactly like `begin`.
  std::optional<std::int64_t> wanted = request.turn;
  std::int64_t next = 0;
  JournalFile* journal_file = file();
  auto change = [&](Journal& model) {
    next = model.beginTurn(session, wanted);
    return std::vector<json>{{{"t", "turn"}, {"session", session}, {"turn", next}}};
  };
  if (!journal_file) {
    change(journal_);
  } else if (Status status = journal_file->transact(journal_, change); !status) {
    return done(refusalToJSON(status.error()));
  }
  done(json{{"status", "ok"}, {"session", session}, {"turn", next}});
}

} // namespace hashline::lsp
