// ReadGuard: the checks every text form needs *before* it matches anything, in the pinned order.
//
// DESIGN §4 / dsh: an edit to a document the session never read is NOT_OBSERVED ("read the file,
// then retry"); an edit based on a text that is no longer current is STALE_VERSION ("re-read the
// file, then retry"); only then does a form look for its text (NOT_FOUND / AMBIGUOUS / …), so
// "the file changed" is never misreported as "you miscopied". The caller (workspace / agent
// service) owns the session state and fills a ReadGuard; the forms themselves take the current
// text and never see sessions. Two requests sent at once against the same read version: the
// first applies and moves the version, the second fails this guard (no lost update).
// Pure; thread-safe.
#pragma once

#include "engine/support/result.h"

#include <cstdint>
#include <optional>
#include <string>

namespace hashline::forms {

struct ReadGuard {
  bool observed = false;     // the session read this document (any version, any window)
  bool creates_file = false; // a write that creates a new file needs no read
  /// The version of the text the session last read or wrote; nullopt when the form is not
  /// version-guarded (anchors are checked by the verifier instead).
  std::optional<std::int64_t> read_version;
  std::int64_t current_version = 0;
  /// The caller compared contents and the current text equals what the session read (a touched
  /// but unchanged file, a version bump without a content change): not stale.
  bool same_text_as_read = false;
  std::string path; // for messages
};

/// NOT_OBSERVED, then STALE_VERSION; success otherwise.
Status checkReadGuard(const ReadGuard& guard);

} // namespace hashline::forms
