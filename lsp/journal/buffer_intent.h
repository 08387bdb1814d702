// BufferIntent: the journal's record of an agent's edit of an open editor buffer, written before
// its `workspace/applyEdit` is sent (docs/journal.md, docs/crash-safety.md).
//
// A buffer edit becomes a journal op once the mirror confirms it (the editor's didChange). A
// sidecar killed between sending the edit and that confirmation left the edit in the editor's
// buffer with no op: the intent closes that gap. It carries the op the edit becomes (hunks from
// the plan, no id yet), the buffer version it was sent for, the content ids of the text it was
// planned on and of the text it leaves, and who sent it to whom (the sidecar's and the editor's
// pid with their kernel start times). Its outcome follows in the journal: the op itself (its
// record names the intent), or a `buffer-outcome` record saying it did not land or that nobody
// can tell. An intent without an outcome whose sidecar is gone is settled by `decideLanding`
// on the buffer as the same editor re-opens it (or, once that editor has exited, on the file).
// Records:
//   {"t":"buffer-intent", id, doc, op:{op record}, textBefore, textAfter,
//    writer:{pid, start?}, editor:{pid, start?}}
//   {"t":"buffer-outcome", id, landing:"no"|"unknown", why}
// Pure: JSON and text in, a verdict out.
#pragma once

#include "engine/journal/journal_op.h"
#include "engine/text/rope.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hashline::lsp {

/// A process as the journal names it: its pid and, where the system tells, its start time.
struct ProcessIdentity {
  std::int64_t pid = 0;
  std::optional<std::uint64_t> start;
};

struct BufferIntent {
  std::string id;        // unique across processes (random)
  std::string document;  // canonical URI of the buffer (the mirror's key)
  journal::JournalOp op; // what it becomes once landed; id 0, version_before = the sent version
  std::int64_t text_before = 0; // content id of the text the edit was planned on
  std::int64_t text_after = 0;  // content id of the text the edit leaves
  ProcessIdentity writer;       // the sidecar that sent it
  ProcessIdentity editor;       // the editor it was sent to
};

nlohmann::json bufferIntentRecord(const BufferIntent& intent);
/// nullopt when `record` is not a well-formed buffer-intent record.
std::optional<BufferIntent> bufferIntentFromRecord(const nlohmann::json& record);

enum class Landing { Landed, NotLanded, Unknown };
/// "landed", "no", "unknown".
const char* landingName(Landing landing);

struct LandingVerdict {
  Landing landing = Landing::Unknown;
  std::string why;
  std::int64_t version_after = 0; // Landed: the version of the text it was found in
};

/// The outcome record of an intent that did not land (`NotLanded`) or cannot be decided.
nlohmann::json bufferOutcomeRecord(const std::string& id, Landing landing, const std::string& why);

/// Whether `text` (content id `text_id`) holds the intent's edit — never a guess:
///  - exactly the text it leaves → landed; exactly the text it found → not landed;
///  - else (typing since): landed when every hunk's new lines are found by content
///    (engine/journal/hunk_locator.h: intact, beside their context; an empty side — the place of
///    a pure insertion or deletion — by both of its neighbours next to each other) and none of
///    its old lines are; not landed in the mirror case; anything else (typing into the edit's
///    lines, a partial match) → Unknown, with the counts in `why`.
LandingVerdict decideLanding(const BufferIntent& intent, const Rope& text, std::int64_t text_id);

} // namespace hashline::lsp
