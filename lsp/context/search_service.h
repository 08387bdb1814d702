// The `search` method of the agent service: a regex (RE2) or literal across the workspace roots,
// open documents in their live buffer text (unsaved typing included, from the sidecar's mirror),
// every other file on disk (workspace_walk.h: .gitignore, binary and size skips).
//
// Each hit is an anchored row `LINE:LLL:BBB→text`, exactly as `read` renders it, grouped per file
// with the version it was read at; the hit lines are recorded in the session's Observation the
// way a read records its window (Observation::recordRead of a one-line view each), so an edit by
// anchor can follow a search without a read, and a hit from before a change is refused like any
// stale anchor. Open documents come first (what the user is working on), then disk files in walk
// order. Hits are decided per line on the text as its backend snapshots it, so anchor, version and
// text always agree: each disk file is read once, by the scan, and its bytes go to the confined
// backend (DiskBackend::snapshotFromRead), which takes them only while the file is still the one
// read, unchanged (else it reads the file again, and the hits are found in that text); open
// documents are always the mirror's text. The hit lines come from match positions in the whole
// text (SearchMatcher::matchingLines), each confirmed on its own line.
//
// Caps: `max_hits` rows and `max_bytes` of row text; past either the answer is cut (truncated,
// with a note and a hint to narrow the pattern or use paths/globs), and only the rows returned
// count as observed. Errors: INVALID_PATTERN (RE2's message), OUTSIDE_WORKSPACE, FILE_NOT_FOUND.
//
// Result: {status: "ok", pattern, literal, hitCount, fileCount, truncated, files: [{uri, path?,
// backend: "buffer"|"disk", version, tier, lineCount, lines: [{line, anchor, text}]}],
// searched: {files, openDocuments, binarySkipped, largeSkipped, unreadable, notText},
// note?, hint?}.
//
// Threading: runs on the service's thread and answers before `call` returns (the disk scan uses a
// few worker threads meanwhile).
#pragma once

#include "lsp/context/search_request.h"
#include "lsp/service/agent_service.h"

#include <functional>

namespace hashline::lsp {
class HashlineService;
}

namespace hashline::context {

/// Adds "search" to `service`'s methods.
void addSearchMethod(lsp::HashlineService& service);

/// Runs one search on `service` (what the method does). `after_scan`, for tests: called between
/// the disk scan and the answer (a file can change there).
void runSearch(lsp::HashlineService& service, const SearchRequest& request,
               lsp::ServiceCallback done, const std::function<void()>& after_scan = {});

} // namespace hashline::context
