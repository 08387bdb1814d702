// Persistence of what agent sessions read (ObservationStore) for the in-process CLI, whose
// every run is a new process, so NOT_OBSERVED and exact staleness checks work across separate
// `hashline read` / `hashline edit` invocations. (The file keeps its historical name; the format
// is binary since format 2.)
//
// Layout: one file per (session, document) pair under a directory the caller chooses (the CLI:
// `<workspaceStateDirectory(root)>/observations/`): `<h(session)>/<h(document)>.obs`, h = XXH3-64
// in hex; the pair itself is stored inside and checked on load. A run costs what it touches:
// ObservationFiles::attach makes the store load a pair lazily, the first time a request names it,
// and `save` writes only the pairs whose Observation changed since (Observation::revision).
//
// File format 2 (little-endian, varints are LEB128): magic "hlobs\0\0\2"; session, document
// (varint length + bytes); read count; per read: version (zigzag varint), tier (1 byte), line
// count, LSP line count, windows (count, then first − previous last and last − first), issued
// keys (count, then per key: line − previous line as a varint and the low 32 bits (tier and both
// digests, see issuedAnchorKey) as 4 bytes; keys strictly increasing); then XXH3-64 of all the
// bytes before it (8 bytes). ~5 bytes per issued anchor. A file that fails any check (checksum,
// bounds, order, another pair) is ignored as if missing — the session reads again — and replaced
// by the next save of that pair.
//
// Concurrent runs: `save` writes each changed pair under that file's FileLock; if the file
// changed since this run loaded it (another run saved the pair), the two are merged — the file's
// reads first, then this run's (same version and tier: one record, keys united), bounds applied —
// so neither run's reads are lost. Runs on different pairs never touch the same file. Writes are
// atomic (lsp/disk/atomic_writer.h). Size: bounded per pair by Observation's bounds, and to
// 1024 files per session and 256 sessions (ObservationFileLimits; the least recently written
// go first when a new file or session is added).
//
// The format-1 `observations.json` of earlier versions (one JSON file holding every pair) is
// not read: it is removed by the first save, and sessions read again.
#pragma once

#include "engine/support/result.h"
#include "engine/verify/observation.h"
#include "lsp/disk/fingerprint.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hashline::lsp {

/// The bytes of one pair's file (format 2).
std::string encodeObservation(const std::string& session, const std::string& document,
                              const Observation& observation);

struct DecodedObservation {
  std::string session;
  std::string document;
  std::vector<ReadRecord> reads; // oldest first; keys sorted and unique
};
/// Parses a pair's file; IO_ERROR naming the problem when any check fails.
Result<DecodedObservation> decodeObservation(std::string_view bytes);

/// How many pair files ObservationFiles keeps (the least recently written go first).
struct ObservationFileLimits {
  std::size_t documents_per_session = 1024;
  std::size_t sessions = 256;
};

class ObservationFiles {
public:
  using Limits = ObservationFileLimits;

  /// Pairs live under `directory` (made when first written).
  explicit ObservationFiles(std::string directory, Limits limits = {});

  /// `<workspace state dir>/observations` for a canonical workspace root.
  static Result<std::string> directoryFor(const std::string& canonical_root);
  /// The file of one pair.
  std::string fileFor(const std::string& session, const std::string& document) const;

  /// Makes `store` load pairs from here lazily. Unreadable files are skipped and reported by
  /// `problems()`. This object must outlive the store's use (or call store.setLoader(nullptr)).
  void attach(ObservationStore& store);
  /// Loads every stored pair of `session` into `store` (for `status`, which counts them).
  void loadSession(ObservationStore& store, const std::string& session);
  /// Writes the observed pairs of `store` that changed since loaded (see the file comment).
  /// A pair that cannot be written (IO_ERROR) does not stop the others; the first error is
  /// returned.
  Status save(const ObservationStore& store);

  /// What was skipped while loading (one line per file), for the caller's log.
  const std::vector<std::string>& problems() const { return problems_; }

private:
  struct Loaded {
    std::optional<disk::Fingerprint> fingerprint; // of the file as loaded (nullopt: none)
    std::uint64_t revision = 0;                   // Observation::revision() right after loading
  };
  using Key = std::pair<std::string, std::string>;

  void loadInto(const std::string& session, const std::string& document, Observation& into);
  /// Writes one pair; `created` says whether its file is new (the caller prunes once).
  Status savePair(const Key& key, const Observation& observation, bool& created, bool& new_session);
  void prune(const std::string& directory, std::size_t keep, bool directories) const;

  std::string directory_;
  Limits limits_;
  std::map<Key, Loaded> loaded_;
  std::mutex loaded_mutex_; // save() writes pairs on several threads
  std::vector<std::string> problems_;
};

} // namespace hashline::lsp
