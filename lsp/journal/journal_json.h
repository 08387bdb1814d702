// JSON shapes of the journal: the persisted records (one per line of the journal file) and the
// op summaries `log`, `pending` and friends answer with. Called by journal_file (persistence)
// and journal_service (answers). Pure.
//
// Records:
//   {"t":"op", id, method, agent, session, turn, uri, path?, name, backend, kind, movedTo?,
//    versionBefore, versionAfter, time, hunks:[{k, beforeLine, afterLine, before, after,
//    above:[..], below:[..], atStart, atEnd, state, revertedBy?}], reverts:["12#1", ...]}
//   {"t":"state", ref:"12#1" | "12", state:"accepted" | "pending"}
//   {"t":"turn", session, turn}
#pragma once

#include "engine/journal/journal.h"

#include <nlohmann/json.hpp>
#include <optional>

namespace hashline::lsp {

nlohmann::json opRecordJSON(const journal::JournalOp& op);
/// nullopt when the record is not a well-formed op.
std::optional<journal::JournalOp> opFromRecord(const nlohmann::json& record);

/// A line of the journal file (no trailing newline); invalid UTF-8 is replaced, never thrown on.
std::string recordLine(const nlohmann::json& record);

/// The summary `log` lists: everything but hunk texts; hunks as {id, line, lines, state}.
nlohmann::json opSummaryJSON(const journal::JournalOp& op);

} // namespace hashline::lsp
