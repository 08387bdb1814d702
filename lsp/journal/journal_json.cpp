// JSON of journal records and summaries; see journal_json.h.
#include "lsp/journal/journal_json.h"

#include "lsp/protocol/exact_version.h"

namespace hashline::lsp {

using nlohmann::json;
using namespace hashline::journal;

json opRecordJSON(const JournalOp& op) {
  json hunks = json::array();
  for (const JournalHunk& hunk : op.hunks) {
    json entry = {{"k", hunk.index},
                  {"beforeLine", hunk.before_line},
                  {"afterLine", hunk.after_line},
                  {"before", hunk.before_text},
                  {"after", hunk.after_text},
                  {"above", hunk.context_before},
                  {"below", hunk.context_after},
                  {"atStart", hunk.context_reaches_start},
                  {"atEnd", hunk.context_reaches_end},
                  {"state", std::string(hunkStateName(hunk.state))}};
    if (hunk.reverted_by != 0) entry["revertedBy"] = hunk.reverted_by;
    hunks.push_back(std::move(entry));
  }
  json reverts = json::array();
  for (const HunkRef& ref : op.reverts)
    reverts.push_back(formatHunkRef(ref));
  json record = {{"t", "op"},
                 {"id", op.id},
                 {"method", op.method},
                 {"agent", op.agent},
                 {"session", op.session},
                 {"turn", op.turn},
                 {"uri", op.uri},
                 {"name", op.name},
                 {"backend", op.backend},
                 {"kind", op.kind},
                 {"versionBefore", op.version_before},
                 {"versionAfter", op.version_after},
                 {"time", op.time_ms},
                 {"hunks", std::move(hunks)},
                 {"reverts", std::move(reverts)}};
  if (op.path) record["path"] = *op.path;
  if (op.moved_to) record["movedTo"] = *op.moved_to;
  if (op.move_reverted_by != 0) record["movedBackBy"] = op.move_reverted_by;
  return record;
}

std::optional<JournalOp> opFromRecord(const json& record) {
  try {
    if (!record.is_object() || record.value("t", "") != "op") return std::nullopt;
    JournalOp op;
    op.id = record.at("id").get<std::uint64_t>();
    op.method = record.at("method").get<std::string>();
    op.agent = record.value("agent", "");
    op.session = record.value("session", "default");
    op.turn = record.value("turn", std::int64_t{1});
    op.uri = record.at("uri").get<std::string>();
    if (record.contains("path")) op.path = record["path"].get<std::string>();
    op.name = record.value("name", op.uri);
    op.backend = record.value("backend", "disk");
    op.kind = record.value("kind", "update");
    if (record.contains("movedTo")) op.moved_to = record["movedTo"].get<std::string>();
    op.move_reverted_by = record.value("movedBackBy", std::uint64_t{0});
    // Records of older hashlines carry 62-bit disk ids: read as the 53-bit ids of today.
    op.version_before = exactVersionFromRecorded(record.value("versionBefore", std::int64_t{0}));
    op.version_after = exactVersionFromRecorded(record.value("versionAfter", std::int64_t{0}));
    op.time_ms = record.value("time", std::int64_t{0});
    for (const json& entry : record.at("hunks")) {
      JournalHunk hunk;
      hunk.index = entry.at("k").get<std::uint32_t>();
      hunk.before_line = entry.at("beforeLine").get<std::uint32_t>();
      hunk.after_line = entry.at("afterLine").get<std::uint32_t>();
      hunk.before_text = entry.at("before").get<std::string>();
      hunk.after_text = entry.at("after").get<std::string>();
      hunk.context_before = entry.value("above", std::vector<std::string>{});
      hunk.context_after = entry.value("below", std::vector<std::string>{});
      hunk.context_reaches_start = entry.value("atStart", false);
      hunk.context_reaches_end = entry.value("atEnd", false);
      hunk.state = hunkStateFromName(entry.value("state", "pending")).value_or(HunkState::Pending);
      hunk.reverted_by = entry.value("revertedBy", std::uint64_t{0});
      op.hunks.push_back(std::move(hunk));
    }
    for (const json& ref : record.value("reverts", json::array())) {
      auto parsed = parseHunkRef(ref.get<std::string>());
      if (parsed) op.reverts.push_back(*parsed);
    }
    return op;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

std::string recordLine(const json& record) {
  return record.dump(-1, ' ', false, json::error_handler_t::replace);
}

json opSummaryJSON(const JournalOp& op) {
  json hunks = json::array();
  for (const JournalHunk& hunk : op.hunks) {
    json entry = {{"id", formatHunkRef({op.id, hunk.index})},
                  {"line", hunk.after_line + 1},
                  {"lines", hunk.afterLineCount()},
                  {"removedLines", hunk.beforeLineCount()},
                  {"state", std::string(hunkStateName(hunk.state))}};
    if (hunk.reverted_by != 0) entry["revertedBy"] = hunk.reverted_by;
    hunks.push_back(std::move(entry));
  }
  json reverts = json::array();
  for (const HunkRef& ref : op.reverts)
    reverts.push_back(formatHunkRef(ref));
  json summary = {{"op", op.id},
                  {"method", op.method},
                  {"agent", op.agent},
                  {"session", op.session},
                  {"turn", op.turn},
                  {"uri", op.uri},
                  {"name", op.name},
                  {"backend", op.backend},
                  {"kind", op.kind},
                  {"versionBefore", op.version_before},
                  {"versionAfter", op.version_after},
                  {"time", op.time_ms},
                  {"inEffect", op.inEffect()},
                  {"hunks", std::move(hunks)}};
  if (!reverts.empty()) summary["reverts"] = std::move(reverts);
  if (op.path) summary["path"] = *op.path;
  if (op.moved_to) summary["movedTo"] = *op.moved_to;
  if (op.move_reverted_by != 0) summary["movedBackBy"] = op.move_reverted_by;
  return summary;
}

} // namespace hashline::lsp
