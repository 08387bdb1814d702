// Disk reads and atomic, journaled commits for the agent service; see disk_backend.h.
#include "lsp/service/disk_backend.h"

#include "lsp/disk/atomic_writer.h"
#include "lsp/disk/confined_dir.h"
#include "lsp/disk/temp_file.h"
#include "lsp/platform/file_times.h"
#include "lsp/protocol/exact_version.h"

#include <fcntl.h>

namespace hashline::lsp {

namespace {

Result<DocumentSnapshot> snapshotOf(Result<DiskText> text) {
  if (!text) return std::move(text).error();
  DocumentSnapshot now;
  now.exists = text->exists();
  now.text = std::move(text->text);
  now.version = text->version;
  now.fingerprint = text->fingerprint;
  return now;
}

std::int64_t nanoseconds(const struct timespec& time) {
  return static_cast<std::int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

/// The same regular file, unchanged as far as stat tells (what a read's two stats compare).
bool sameRegularFile(const struct stat& a, const struct stat& b) {
  return S_ISREG(a.st_mode) && S_ISREG(b.st_mode) && a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
         a.st_size == b.st_size &&
         platform::modifiedNanoseconds(a) == platform::modifiedNanoseconds(b) &&
         platform::changedNanoseconds(a) == platform::changedNanoseconds(b);
}

} // namespace

DiskBackend::DiskBackend(std::function<std::vector<std::string>()> roots, ChangeLedger& ledger)
    : roots_(std::move(roots)), ledger_(ledger) {}

std::int64_t DiskBackend::versionOf(const disk::Fingerprint& fingerprint) {
  // In [2^52, 2^53): far above editor version numbers, and exact as an IEEE double, so every
  // JavaScript client (VS Code, Claude Code, the MCP TypeScript SDK) sends back the same number
  // (exact_version.h).
  return exactVersionId(fingerprint.content_hash.low ^ (fingerprint.content_hash.high << 1));
}

Result<disk::WorkspaceRoots> DiskBackend::workspace() const {
  std::vector<std::string> wanted = roots_ ? roots_() : std::vector<std::string>{};
  Result<disk::WorkspaceRoots> all = disk::WorkspaceRoots::make(wanted);
  if (!all) {
    std::vector<std::string> existing; // drop roots that vanished, keep the rest
    for (const std::string& root : wanted)
      if (disk::WorkspaceRoots::make({root})) existing.push_back(root);
    all = disk::WorkspaceRoots::make(existing);
  }
  // Temps a killed writer left in a root: gone the first time this process sees the root.
  if (all)
    for (const std::string& root : all->roots())
      disk::sweepStaleTempsOnce(root);
  return all;
}

std::vector<std::string> DiskBackend::roots() const {
  Result<disk::WorkspaceRoots> roots = workspace();
  return roots ? roots->roots() : std::vector<std::string>{};
}

Result<disk::ResolvedPath> DiskBackend::resolve(const std::string& path) const {
  Result<disk::WorkspaceRoots> roots = workspace();
  if (!roots) return std::move(roots).error();
  if (roots->roots().empty()) {
    Error error = Error::make(ErrorCode::OutsideWorkspace,
                              path + " is outside the workspace: no workspace root is set");
    error.withHint("open a folder in the editor, or pass --workspace DIR");
    error.data.path = path;
    return error;
  }
  Result<disk::ResolvedPath> resolved = path.empty() || path[0] == '/'
                                            ? roots->resolve(path)
                                            : roots->resolve(path, roots->roots()[0]);
  if (!resolved) {
    Error error = std::move(resolved).error();
    if (!error.data.path) error.data.path = path;
    return error;
  }
  return resolved;
}

Result<DiskText> DiskBackend::load(const disk::ResolvedPath& where, bool allow_missing) const {
  DiskText out;
  out.where = where;
  disk::sweepStaleTempsBeside(where); // once per directory and process
  Result<disk::FileSnapshot> file = disk::readTextFile(where);
  if (!file) {
    Error error = std::move(file).error();
    if (error.code == ErrorCode::FileNotFound && allow_missing) return out;
    if (!error.data.path) error.data.path = where.real_path;
    return error;
  }
  out.fingerprint = file->fingerprint;
  out.text = Rope(file->bytes);
  out.version = versionOf(file->fingerprint);
  return out;
}

Result<disk::Fingerprint> DiskBackend::write(const DiskText& base, const Rope& after,
                                             const disk::PublishGate& gate) const {
  std::string bytes = after.toString();
  disk::WriteOptions options;
  options.before_publish = gate;
  Result<disk::WriteResult> written = [&]() -> Result<disk::WriteResult> {
    if (!base.exists()) return disk::atomicCreate(base.where, bytes, options);
    options.expected = base.fingerprint;
    return disk::atomicReplace(base.where, bytes, options);
  }();
  if (!written) {
    Error error = std::move(written).error();
    if (!error.data.path) error.data.path = base.where.real_path;
    return error;
  }
  return written->fingerprint;
}

Status DiskBackend::remove(const DiskText& base, const disk::PublishGate& gate) const {
  disk::WriteOptions options;
  options.before_publish = gate;
  options.expected = base.fingerprint;
  return disk::atomicDelete(base.where, options);
}

Result<disk::Fingerprint> DiskBackend::move(const DiskText& base, const disk::ResolvedPath& to,
                                            const Rope& after,
                                            const disk::PublishGate& gate) const {
  disk::WriteOptions options;
  options.before_publish = gate;
  options.expected = base.fingerprint;
  Result<disk::WriteResult> written = disk::atomicMove(base.where, to, after.toString(), options);
  if (!written) return std::move(written).error();
  return written->fingerprint;
}

Result<DocumentSnapshot> DiskBackend::snapshot(const ServiceTarget& target) {
  return snapshotOf(load(*target.resolved, true));
}

Result<DocumentSnapshot> DiskBackend::snapshotFromRead(const ServiceTarget& target,
                                                       const DiskRead& read, bool* reused) const {
  if (reused) *reused = false;
  const disk::ResolvedPath& where = *target.resolved;
  const disk::ConfinedTarget confined = disk::ConfinedTarget::of(where);
  const std::int64_t settled = nanoseconds(read.since) - kStatSlackNs;
  std::optional<disk::Fingerprint> fingerprint;
  if (!confined.name.empty() && read.bytes.size() <= disk::kMaxFileBytes &&
      static_cast<std::uint64_t>(read.before.st_size) == read.bytes.size() &&
      platform::modifiedNanoseconds(read.before) <= settled &&
      platform::changedNanoseconds(read.before) <= settled) {
    // Reached as load() reaches it: the confined directory, then the entry, no symlink followed.
    if (Result<disk::ConfinedDir> dir = disk::ConfinedDir::openParent(confined)) {
      struct stat now {};
      if (::fstatat(dir->fd(), confined.name.c_str(), &now, AT_SYMLINK_NOFOLLOW) == 0 &&
          sameRegularFile(read.before, now))
        fingerprint = disk::fingerprintOf(now, read.bytes);
    }
  }
  if (!fingerprint) return snapshotOf(load(where, true)); // changed, or refused: read as ever
  disk::sweepStaleTempsBeside(where); // as load(): once per directory and process
  if (Status text = disk::checkText(read.bytes, where.real_path); !text)
    return std::move(text).error();
  DocumentSnapshot now;
  now.text = Rope(read.bytes);
  now.version = versionOf(*fingerprint);
  now.fingerprint = fingerprint;
  if (reused) *reused = true;
  return now;
}

Status DiskBackend::apply(const Commit& commit, const DiskText& base, const PlannedChange& change,
                          const disk::PublishGate& gate,
                          std::optional<disk::Fingerprint>& written) const {
  auto keep = [&](Result<disk::Fingerprint> landed) -> Status {
    if (!landed) return std::move(landed).error();
    written = *landed;
    return Status::success();
  };
  switch (change.kind) {
  case AppliedEdit::Kind::Update:
  case AppliedEdit::Kind::Create:
    return keep(write(base, change.edit.after, gate));
  case AppliedEdit::Kind::Delete:
    return remove(base, gate);
  case AppliedEdit::Kind::Move:
    return keep(move(base, *commit.destination->resolved, change.edit.after, gate));
  }
  return Status::success();
}

void DiskBackend::commit(Commit commit, CommitDone done) {
  Result<DocumentSnapshot> now =
      commit.base ? Result<DocumentSnapshot>(*commit.base) : snapshot(commit.target);
  if (!now) return done(std::move(now).error());
  Result<PlannedChange> change = commit.plan(*now, false);
  if (!change) return done(std::move(change).error());
  AppliedEdit edit;
  edit.backend = AppliedEdit::Backend::Disk;
  edit.kind = change->kind;
  edit.method = commit.intent.method;
  edit.caller = commit.intent.caller;
  edit.uri = commit.target.uri;
  edit.path = commit.target.path;
  if (commit.destination) edit.moved_to = commit.destination->path;
  edit.version_before = now->exists ? now->version : 0;
  edit.before = change->edit.before;
  edit.after = change->edit.after;
  edit.plan = change->edit.plan;
  edit.reverts = change->reverts;

  Committed landed;
  if (change->kind == AppliedEdit::Kind::Update && change->edit.plan.edits.empty()) {
    // Nothing to write (a revert whose hunks cancel out): the journal still learns the intent.
    edit.version_after = now->version;
    landed.op = ledger_.recordLanded(edit);
  } else {
    DiskText base{*commit.target.resolved, now->fingerprint, now->text, now->version};
    std::optional<disk::Fingerprint> written;
    Status status = Status::success();
    landed.op = ledger_.recordAround(edit, [&](const disk::PublishGate& gate) {
      status = apply(commit, base, *change, gate, written);
      edit.version_after = written ? versionOf(*written) : 0;
      return status.ok();
    });
    if (!status) return done(std::move(status).error());
  }
  landed.edit = std::move(edit);
  landed.planned = std::move(change->edit);
  landed.target = commit.target;
  landed.destination = commit.destination;
  done(std::move(landed));
}

} // namespace hashline::lsp
