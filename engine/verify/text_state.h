// TextState: the text an edit is verified against, with whatever history it has.
//
// Two kinds of callers verify edits:
//  (a) the LSP mirror, with a live Document: its current Rope, version and ChangeLog — anchors
//      issued at any version the log still covers are rebased exactly (`ofDocument`);
//  (b) the disk path and the in-process CLI, with a plain text and no history: the file's Rope
//      and a version-like id derived from its fingerprint (size, mtime, inode, content hash) —
//      anchors issued at the same id are exact, any other id means "no history" and anchors are
//      compared by digest at their stated line (`ofPlainText`).
// A file that does not exist yet is `missing()`: only a single `write` may create it.
// Version ids are compared for equality with the versions recorded in the session's Observation,
// so one Observation must see one id space: keep buffer versions and disk fingerprint ids apart
// (separate document keys, or ids that cannot collide). Document snapshots are not needed: exact
// tracking uses the ChangeLog, and digests are always compared against the current text.
// The Rope is held by value (a Rope copy is O(1)); the log is borrowed and must outlive the call.
#pragma once

#include "engine/text/change_log.h"
#include "engine/text/document.h"
#include "engine/text/rope.h"

#include <cstdint>

namespace hashline {

struct TextState {
  Rope text;
  std::int64_t version = 0;
  const ChangeLog* log = nullptr; // exact history, when the text has one
  bool exists = true;

  static TextState ofDocument(const Document& document) {
    return TextState{document.text(), document.version(), &document.changeLog(), true};
  }
  static TextState ofPlainText(Rope text, std::int64_t fingerprint_id) {
    return TextState{std::move(text), fingerprint_id, nullptr, true};
  }
  static TextState missing() { return TextState{Rope(), 0, nullptr, false}; }
};

} // namespace hashline
