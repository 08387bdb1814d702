// Buffer intents: their records and the landing decision; see buffer_intent.h.
#include "lsp/journal/buffer_intent.h"

#include "engine/journal/hunk_locator.h"
#include "engine/journal/line_source.h"
#include "lsp/journal/journal_json.h"

#include <vector>

namespace hashline::lsp {

using nlohmann::json;
using namespace hashline::journal;

namespace {

json processJSON(const ProcessIdentity& process) {
  json out = {{"pid", process.pid}};
  if (process.start) out["start"] = *process.start;
  return out;
}

ProcessIdentity processFrom(const json& record) {
  ProcessIdentity process;
  process.pid = record.at("pid").get<std::int64_t>();
  if (record.contains("start")) process.start = record["start"].get<std::uint64_t>();
  return process;
}

/// The hunk as the text before the edit holds it: found where the edit did not land.
JournalHunk inverted(const JournalHunk& hunk) {
  JournalHunk back = hunk;
  std::swap(back.before_text, back.after_text);
  std::swap(back.before_line, back.after_line);
  return back;
}

/// Whether the lines around an empty side of `hunk` (the place of a pure insertion before it,
/// or of a pure deletion after it) are next to each other somewhere: its nearest context line
/// above (or the text's start, when its context reached it) directly followed by its nearest one
/// below (or the end). Both neighbours must hold: the hunk locator, made for undo beside the
/// user's typing, accepts one, which would find the place of any insertion in the text after it.
bool neighboursAdjacent(const LineSource& lines, const JournalHunk& hunk) {
  const bool top = hunk.context_before.empty();
  const bool bottom = hunk.context_after.empty();
  if ((top && !hunk.context_reaches_start) || (bottom && !hunk.context_reaches_end)) return false;
  const std::size_t count = lines.size();
  for (std::size_t at = 0; at <= count; ++at) { // the place before line `at`
    const bool above = top ? at == 0 : at > 0 && lines.lineIs(at - 1, hunk.context_before.back());
    const bool below =
        bottom ? at == count : at < count && lines.lineIs(at, hunk.context_after.front());
    if (above && below) return true;
  }
  return false;
}

/// How many of `hunks` are found in `lines` with their `after_text`: by the hunk locator (its
/// lines beside their context), or for an empty `after_text` by neighboursAdjacent.
std::size_t found(const LineSource& lines, const std::vector<JournalHunk>& hunks,
                  const std::string& name) {
  std::vector<const JournalHunk*> pointers;
  for (const JournalHunk& hunk : hunks)
    if (!hunk.after_text.empty()) pointers.push_back(&hunk);
  HunkLocator locator(lines, pointers);
  std::size_t count = 0;
  for (const JournalHunk& hunk : hunks)
    if (hunk.after_text.empty() ? neighboursAdjacent(lines, hunk)
                                : bool(locator.locate(hunk, {0, hunk.index}, name)))
      ++count;
  return count;
}

} // namespace

json bufferIntentRecord(const BufferIntent& intent) {
  return {{"t", "buffer-intent"},
          {"id", intent.id},
          {"doc", intent.document},
          {"op", opRecordJSON(intent.op)},
          {"textBefore", intent.text_before},
          {"textAfter", intent.text_after},
          {"writer", processJSON(intent.writer)},
          {"editor", processJSON(intent.editor)}};
}

std::optional<BufferIntent> bufferIntentFromRecord(const json& record) {
  try {
    if (!record.is_object() || record.value("t", "") != "buffer-intent") return std::nullopt;
    BufferIntent intent;
    intent.id = record.at("id").get<std::string>();
    intent.document = record.at("doc").get<std::string>();
    std::optional<JournalOp> op = opFromRecord(record.at("op"));
    if (!op || intent.id.empty()) return std::nullopt;
    intent.op = std::move(*op);
    intent.text_before = record.at("textBefore").get<std::int64_t>();
    intent.text_after = record.at("textAfter").get<std::int64_t>();
    intent.writer = processFrom(record.at("writer"));
    intent.editor = processFrom(record.at("editor"));
    return intent;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

const char* landingName(Landing landing) {
  switch (landing) {
  case Landing::Landed:
    return "landed";
  case Landing::NotLanded:
    return "no";
  case Landing::Unknown:
    return "unknown";
  }
  return "unknown";
}

json bufferOutcomeRecord(const std::string& id, Landing landing, const std::string& why) {
  return {{"t", "buffer-outcome"}, {"id", id}, {"landing", landingName(landing)}, {"why", why}};
}

LandingVerdict decideLanding(const BufferIntent& intent, const Rope& text, std::int64_t text_id) {
  if (text_id == intent.text_after)
    return {Landing::Landed, "the buffer holds exactly the text the edit left", 0};
  if (text_id == intent.text_before)
    return {Landing::NotLanded, "the buffer holds exactly the text the edit was sent for", 0};
  const std::vector<JournalHunk>& hunks = intent.op.hunks;
  if (hunks.empty())
    return {Landing::Unknown, "the buffer changed since and the edit has no lines to find", 0};
  std::vector<JournalHunk> old_lines;
  for (const JournalHunk& hunk : hunks)
    old_lines.push_back(inverted(hunk));
  const RopeLineSource lines(text);
  const std::size_t new_found = found(lines, hunks, intent.op.name);
  const std::size_t old_found = found(lines, old_lines, intent.op.name);
  const std::string counts = std::to_string(new_found) + " of " + std::to_string(hunks.size()) +
                             " hunk(s) found as the edit left them, " + std::to_string(old_found) +
                             " as it found them";
  if (new_found == hunks.size() && old_found == 0)
    return {Landing::Landed, "the buffer changed since elsewhere; " + counts, 0};
  if (old_found == hunks.size() && new_found == 0)
    return {Landing::NotLanded, "the buffer changed since elsewhere; " + counts, 0};
  return {Landing::Unknown, "the buffer changed since at the edit's lines; " + counts, 0};
}

} // namespace hashline::lsp
