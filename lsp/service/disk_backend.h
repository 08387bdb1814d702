// DiskBackend: the DocumentBackend of documents no editor has open — read, verify and commit
// on the files themselves (DESIGN §6), through lsp/disk.
//
// Paths are confined to the workspace roots (realpath; OUTSIDE_WORKSPACE otherwise). A file's
// text is read with its fingerprint; the version agents see is a fingerprint id derived from the
// content hash (`versionOf`), so the same bytes always have the same version — across CLI runs
// too, which is what lets persisted observations verify exactly. Commits are atomic and
// re-check the fingerprint right before the rename (STALE_VERSION when the file changed since it
// was read); `write` may create a file; patches may add, delete and move files. Each commit is
// journaled around its write (ChangeLedger::recordAround: an fsynced intent, the atomic write,
// the outcome), so a kill at any point leaves the file unchanged, or changed and undoable; a
// commit whose plan changes nothing writes nothing and only journals its intent.
//
// Every read and write goes through lsp/disk's confined forms (a ResolvedPath walked from its
// root's descriptor without following symlinks), and the first read in a directory sweeps the
// temps of writers that died there (lsp/disk/temp_file.h). `snapshotFromRead` lets a caller that
// read a file itself (the workspace search's scan) skip a second read: the backend takes those
// bytes only after the same confined walk finds the same file, unchanged.
//
// Independent of the LSP server: the in-process CLI uses it through the disk-only service.
// Synchronous; thread-compatible (lsp/disk serializes writers of one file across processes).
#pragma once

#include "engine/support/result.h"
#include "engine/text/rope.h"
#include "engine/verify/text_state.h"
#include "lsp/disk/disk_file.h"
#include "lsp/disk/workspace_roots.h"
#include "lsp/service/document_backend.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <time.h>
#include <vector>

namespace hashline::lsp {

/// One file as read for an edit: where it is, and its text (absent when it does not exist).
struct DiskText {
  disk::ResolvedPath where;
  std::optional<disk::Fingerprint> fingerprint; // nullopt: the file does not exist
  Rope text;
  std::int64_t version = 0;

  bool exists() const { return fingerprint.has_value(); }
  TextState state() const {
    return exists() ? TextState::ofPlainText(text, version) : TextState::missing();
  }
};

/// A file its caller read itself, for DiskBackend::snapshotFromRead.
struct DiskRead {
  std::string_view bytes;   // the whole file, as read
  struct stat before {};    // fstat of the descriptor `bytes` came from, taken before the read
  struct timespec since {}; // CLOCK_REALTIME taken before that fstat
};

class DiskBackend : public DocumentBackend {
public:
  /// `roots` is asked on every call (the LSP server learns its roots at initialize); commits are
  /// journaled in `ledger`.
  DiskBackend(std::function<std::vector<std::string>()> roots, ChangeLedger& ledger);

  Result<DocumentSnapshot> snapshot(const ServiceTarget& target) override;
  void commit(Commit commit, CommitDone done) override;

  /// snapshot(target), from bytes its caller read from the file itself (the workspace search's
  /// scan: one read per file). They are taken only when the file, reached as snapshot() reaches
  /// it (every directory below the root opened without following a symlink, the file itself not
  /// a symlink), is the same regular file with the same size, mtime and ctime as `read.before`
  /// (the test a read of its own makes between its two stats), and those times lie at least
  /// kStatSlackNs before `read.since` (a file changed just before the read could change again
  /// within the same timestamp tick, unseen by stat: it is read again); they are then checked,
  /// fingerprinted and versioned exactly as snapshot() does (NOT_TEXT, size limit, version =
  /// versionOf(fingerprint)). Otherwise — a file changed, replaced, gone, refused or too fresh —
  /// it is snapshot(target): read again, with that read's errors. `reused` (optional) says
  /// whether the bytes were taken.
  Result<DocumentSnapshot> snapshotFromRead(const ServiceTarget& target, const DiskRead& read,
                                            bool* reused = nullptr) const;
  /// How much older than DiskRead::since a file's mtime and ctime must be for its stat to prove
  /// it unchanged: a clock tick, and the 1–2 s timestamps of some file systems.
  static constexpr std::int64_t kStatSlackNs = 2'000'000'000;

  /// The version id of a file's content (positive, stable across runs, at most 2^53 − 1 so
  /// JavaScript clients keep it exact: lsp/protocol/exact_version.h).
  static std::int64_t versionOf(const disk::Fingerprint& fingerprint);

  /// The canonical roots that exist.
  std::vector<std::string> roots() const;
  /// Resolves `path` (relative paths against the first root) and confines it.
  Result<disk::ResolvedPath> resolve(const std::string& path) const;
  /// Reads the file: NOT_TEXT, IO_ERROR; FILE_NOT_FOUND unless `allow_missing`.
  Result<DiskText> load(const disk::ResolvedPath& where, bool allow_missing) const;

private:
  // Each publishes only once `gate` (the journal's: its intent is durable) returned.
  /// Writes `after` over (or as) the file read in `base`; returns the new fingerprint.
  Result<disk::Fingerprint> write(const DiskText& base, const Rope& after,
                                  const disk::PublishGate& gate) const;
  /// Deletes the file read in `base` if unchanged.
  Status remove(const DiskText& base, const disk::PublishGate& gate) const;
  /// Moves the file read in `base` to `to` with content `after`.
  Result<disk::Fingerprint> move(const DiskText& base, const disk::ResolvedPath& to,
                                 const Rope& after, const disk::PublishGate& gate) const;
  /// The write a planned change makes; `written` gets the new fingerprint (none for a delete).
  Status apply(const Commit& commit, const DiskText& base, const PlannedChange& change,
               const disk::PublishGate& gate, std::optional<disk::Fingerprint>& written) const;
  Result<disk::WorkspaceRoots> workspace() const;

  std::function<std::vector<std::string>()> roots_;
  ChangeLedger& ledger_;
};

} // namespace hashline::lsp
