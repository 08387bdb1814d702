// Persistence of what agent sessions read (ObservationStore) for the in-process CLI, whose
// every run is a new process: loaded before a run, saved after it, so NOT_OBSERVED and exact
// staleness checks work across separate `hashline read` / `hashline edit` invocations.
//
// Format (JSON, versioned): {"format": 1, "observations": [{"session", "document", "reads":
// [{"version", "tier", "lineCount", "lspLineCount", "shown": [[first, last], …],
// "issued": [key, …]}]}]}. Versions of disk files are fingerprint ids (DiskBackend::versionOf),
// stable across runs. The file lives in the state directory (lsp/disk/state_dir.h):
// `<state>/observations.json` by default, or a per-workspace file the caller chooses.
//
// `saveObservations` merges under a FileLock: entries of (session, document) pairs this process
// holds replace the file's, others are kept — two CLI runs of different sessions do not lose
// each other's reads. The write is atomic (lsp/disk/atomic_writer.h).
#pragma once

#include "engine/support/result.h"
#include "engine/verify/observation.h"

#include <nlohmann/json.hpp>
#include <string>

namespace hashline::lsp {

nlohmann::json observationsToJSON(const ObservationStore& store);
/// Adds the observations in `value` to `store` (replacing pairs present in both); a malformed
/// value is IO_ERROR naming what is wrong, and `store` is left as it was.
Status observationsFromJSON(const nlohmann::json& value, ObservationStore& store);

/// `<state dir>/observations.json`.
Result<std::string> defaultObservationsFile();
/// Loads `file` into `store`; a missing file is fine (nothing observed yet).
Status loadObservations(ObservationStore& store, const std::string& file);
/// Merges `store` into `file` (see the file comment).
Status saveObservations(const ObservationStore& store, const std::string& file);

} // namespace hashline::lsp
