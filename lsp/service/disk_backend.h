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
// temps of writers that died there (lsp/disk/temp_file.h).
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

class DiskBackend : public DocumentBackend {
public:
  /// `roots` is asked on every call (the LSP server learns its roots at initialize); commits are
  /// journaled in `ledger`.
  DiskBackend(std::function<std::vector<std::string>()> roots, ChangeLedger& ledger);

  Result<DocumentSnapshot> snapshot(const ServiceTarget& target) override;
  void commit(Commit commit, CommitDone done) override;

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
