// Atomic replace / create / delete / move: confined directory descriptor, temp file, fsync,
// lock, last-moment fingerprint check, rename or no-replace link, directory fsync — with every
// failure path cleaning up after itself.
#include "lsp/disk/atomic_writer.h"

#include "lsp/disk/confined_dir.h"
#include "lsp/disk/disk_file.h"
#include "lsp/disk/file_lock.h"
#include "lsp/disk/temp_file.h"
#include "lsp/disk/unique_fd.h"
#include "lsp/platform/atomic_files.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace hashline::disk {
namespace {

// A target's confined place: where it is, and its directory, open.
struct Place {
  ConfinedTarget target;
  ConfinedDir dir;
  const std::string& name() const { return target.name; }
  const std::string& shown() const { return target.real_path; }
};

Result<Place> openPlace(const ResolvedPath& where,
                        ConfinedDir::Missing missing = ConfinedDir::Missing::Fail) {
  ConfinedTarget target = ConfinedTarget::of(where);
  if (target.name.empty()) return systemError(EISDIR, "write", where.real_path);
  auto dir = ConfinedDir::openParent(target, missing);
  if (!dir) return std::move(dir).error();
  return Place{std::move(target), std::move(*dir)};
}

// A path of our own, canonical, anchored at "/" (so it is walked like a confined one).
Result<ResolvedPath> locate(const std::string& path) {
  std::string base = "/";
  if (path.empty() || path.front() != '/') {
    auto cwd = currentDirectory();
    if (!cwd) return std::move(cwd).error();
    base = std::move(*cwd);
  }
  auto real_path = resolveRealPath(path, base);
  if (!real_path) return std::move(real_path).error();
  ResolvedPath where;
  where.real_path = std::move(*real_path);
  where.root = "/";
  where.relative = where.real_path.substr(1);
  return where;
}

bool syncDirectory(int dir_fd) {
  while (::fsync(dir_fd) != 0) {
    if (errno != EINTR) return false;
  }
  return true;
}

Error staleError(const std::string& path, std::string_view what) {
  Error error = Error::make(ErrorCode::StaleVersion, path + " " + std::string(what));
  error.data.path = path;
  return error;
}

Status reportPhase(const WriteOptions& options, WritePhase phase) {
  if (options.on_phase) return options.on_phase(phase);
  return Status::success();
}

// The existing file a replace, delete or move starts from: its stat and a no-follow descriptor
// (O_PATH: enough for fstat and its extended attributes, whatever its mode).
struct Existing {
  UniqueFd fd;
  struct stat info {};
};

// The entry must be a regular file; a missing one is stale when the caller expected content
// there, else FILE_NOT_FOUND; a symlink (the name was resolved to a real file) is a swap.
Result<Existing> statExisting(const Place& place, const WriteOptions& options) {
  Existing existing;
  existing.fd.reset(platform::openForMetadata(place.dir.fd(), place.name().c_str()));
  if (!existing.fd) {
    int err = errno;
    if (err == ENOENT && options.expected)
      return staleError(place.shown(), "was deleted since it was read");
    // Outside Linux a symlink fails the open itself (no O_PATH): the same swap error.
    return confinedError(err, place.dir.fd(), place.name(), "stat", place.shown());
  }
  if (::fstat(existing.fd.get(), &existing.info) != 0)
    return systemError(errno, "stat", place.shown());
  if (S_ISLNK(existing.info.st_mode))
    return confinedError(ELOOP, place.dir.fd(), place.name(), "stat", place.shown());
  if (!S_ISREG(existing.info.st_mode))
    return Error::make(ErrorCode::IoError, place.shown() + " is not a regular file");
  return existing;
}

Status checkAbsent(const Place& place) {
  struct stat entry {};
  if (::fstatat(place.dir.fd(), place.name().c_str(), &entry, AT_SYMLINK_NOFOLLOW) == 0)
    return staleError(place.shown(), "already exists; read it and edit it instead");
  if (errno != ENOENT) return systemError(errno, "stat", place.shown());
  return Status::success();
}

Status checkExpected(const Place& place, const WriteOptions& options) {
  if (!options.expected) return Status::success();
  // Hashed block by block: no second whole copy of a large file.
  auto current = fingerprintFileAt(place.dir.fd(), place.name(), place.shown());
  if (!current) {
    if (current.error().code == ErrorCode::FileNotFound)
      return staleError(place.shown(), "was deleted since it was read");
    return std::move(current).error();
  }
  if (!current->sameContentAs(*options.expected))
    return staleError(place.shown(), "changed since it was read (now " +
                                         std::to_string(current->size_bytes) + " bytes, read at " +
                                         std::to_string(options.expected->size_bytes) + ")");
  return Status::success();
}

// Locks for `real_paths` (taken in sorted order, so two movers never deadlock).
Result<std::vector<FileLock>> lockAll(std::vector<std::string> real_paths,
                                      const WriteOptions& options) {
  std::vector<FileLock> locks;
  if (!options.take_lock) return locks;
  std::sort(real_paths.begin(), real_paths.end());
  real_paths.erase(std::unique(real_paths.begin(), real_paths.end()), real_paths.end());
  for (const auto& path : real_paths) {
    auto lock = FileLock::forPath(path);
    if (!lock) return std::move(lock).error();
    locks.push_back(std::move(*lock));
  }
  return locks;
}

Result<Fingerprint> publishedFingerprint(const TempFile& temp, std::string_view bytes,
                                         const std::string& shown_path) {
  struct stat published {};
  if (::fstat(temp.fd(), &published) != 0) return systemError(errno, "stat", shown_path);
  return fingerprintOf(published, bytes);
}

Status awaitGate(const WriteOptions& options) {
  return options.before_publish ? options.before_publish() : Status::success();
}

// A temp beside `place`'s entry, written, given the original's owner, mode and extended
// attributes (none for a new file), and synced: the part of every operation before the lock.
Result<TempFile> filledTemp(const Place& place, std::string_view bytes, const Existing* original,
                            mode_t create_mode, const WriteOptions& options) {
  sweepStaleTempsOnce(place.dir.fd());
  auto temp = TempFile::create(place.dir.fd(), place.dir.path(), place.name(),
                               original ? 0600 : create_mode, options.use_tmpfile);
  if (!temp) return std::move(temp).error();
  if (auto status = reportPhase(options, WritePhase::TempCreated); !status)
    return std::move(status).error();
  if (auto status = temp->write(bytes); !status) return std::move(status).error();
  if (original) {
    if (auto status = temp->copyOwnerAndMode(original->info); !status)
      return std::move(status).error();
    temp->copyExtendedAttributes(original->fd.get());
  }
  if (auto status = reportPhase(options, WritePhase::TempWritten); !status)
    return std::move(status).error();
  if (options.durable)
    if (auto status = temp->sync(); !status) return std::move(status).error();
  if (auto status = reportPhase(options, WritePhase::TempSynced); !status)
    return std::move(status).error();
  return temp;
}

WriteResult published(const Place& place, const TempFile& temp, std::string_view bytes) {
  WriteResult result;
  result.path = place.target.real_path;
  result.used_tmpfile = temp.unnamed();
  auto fingerprint = publishedFingerprint(temp, bytes, place.shown());
  if (fingerprint) result.fingerprint = *fingerprint;
  return result;
}

} // namespace

Result<WriteResult> atomicReplace(const ResolvedPath& where, std::string_view bytes,
                                  const WriteOptions& options) {
  auto place = openPlace(where);
  if (!place) return std::move(place).error();
  auto original = statExisting(*place, options);
  if (!original) return std::move(original).error();
  auto temp = filledTemp(*place, bytes, &*original, 0, options);
  if (!temp) return std::move(temp).error();

  auto locks = lockAll({place->target.real_path}, options);
  if (!locks) return std::move(locks).error();
  if (auto status = temp->name(); !status) return std::move(status).error();
  if (auto status = reportPhase(options, WritePhase::TempNamed); !status)
    return std::move(status).error();
  if (auto status = checkExpected(*place, options); !status) return std::move(status).error();
  if (auto status = reportPhase(options, WritePhase::Checked); !status)
    return std::move(status).error();
  if (auto status = awaitGate(options); !status) return std::move(status).error();
  if (auto status = temp->renameOver(place->name()); !status) return std::move(status).error();

  WriteResult result = published(*place, *temp, bytes);
  (void)reportPhase(options, WritePhase::Published);
  result.directory_synced = options.durable && syncDirectory(place->dir.fd());
  (void)reportPhase(options, WritePhase::DirectorySynced);
  return result;
}

Result<WriteResult> atomicCreate(const ResolvedPath& where, std::string_view bytes,
                                 const WriteOptions& options) {
  auto place = openPlace(where, ConfinedDir::Missing::Create);
  if (!place) return std::move(place).error();
  if (auto status = checkAbsent(*place); !status) return std::move(status).error();
  auto temp = filledTemp(*place, bytes, nullptr, options.create_mode, options);
  if (!temp) return std::move(temp).error();

  auto locks = lockAll({place->target.real_path}, options);
  if (!locks) return std::move(locks).error();
  if (auto status = reportPhase(options, WritePhase::Checked); !status)
    return std::move(status).error();
  if (auto status = awaitGate(options); !status) return std::move(status).error();
  if (auto status = temp->publishNew(place->name()); !status) return std::move(status).error();
  place->dir.keepCreated();

  WriteResult result = published(*place, *temp, bytes);
  (void)reportPhase(options, WritePhase::Published);
  result.directory_synced = options.durable && syncDirectory(place->dir.fd());
  place->dir.syncCreated();
  (void)reportPhase(options, WritePhase::DirectorySynced);
  return result;
}

Status atomicDelete(const ResolvedPath& where, const WriteOptions& options) {
  auto place = openPlace(where);
  if (!place) return std::move(place).error();
  auto locks = lockAll({place->target.real_path}, options);
  if (!locks) return std::move(locks).error();
  auto original = statExisting(*place, options);
  if (!original) return std::move(original).error();
  if (auto status = checkExpected(*place, options); !status) return status;
  if (auto status = reportPhase(options, WritePhase::Checked); !status) return status;
  if (auto status = awaitGate(options); !status) return status;
  if (::unlinkat(place->dir.fd(), place->name().c_str(), 0) != 0)
    return systemError(errno, "delete", place->shown());
  (void)reportPhase(options, WritePhase::Published);
  syncDirectory(place->dir.fd());
  (void)reportPhase(options, WritePhase::DirectorySynced);
  return Status::success();
}

Result<WriteResult> atomicMove(const ResolvedPath& from, const ResolvedPath& to,
                               std::string_view bytes, const WriteOptions& options) {
  if (from.real_path == to.real_path) return atomicReplace(from, bytes, options);
  auto source = openPlace(from);
  if (!source) return std::move(source).error();
  auto original = statExisting(*source, options);
  if (!original) return std::move(original).error();
  auto destination = openPlace(to, ConfinedDir::Missing::Create);
  if (!destination) return std::move(destination).error();
  if (auto status = checkAbsent(*destination); !status)
    return staleError(destination->shown(), "already exists; a move never replaces a file");

  auto temp = filledTemp(*destination, bytes, &*original, 0, options);
  if (!temp) return std::move(temp).error();
  auto locks = lockAll({source->target.real_path, destination->target.real_path}, options);
  if (!locks) return std::move(locks).error();
  if (auto status = checkExpected(*source, options); !status) return std::move(status).error();
  if (auto status = reportPhase(options, WritePhase::Checked); !status)
    return std::move(status).error();
  if (auto status = awaitGate(options); !status) return std::move(status).error();
  if (auto status = temp->publishNew(destination->name()); !status)
    return std::move(status).error();
  if (::unlinkat(source->dir.fd(), source->name().c_str(), 0) != 0) {
    int err = errno;
    (void)::unlinkat(destination->dir.fd(), destination->name().c_str(), 0);
    return systemError(err, "remove the moved file", source->shown());
  }
  destination->dir.keepCreated();

  WriteResult result = published(*destination, *temp, bytes);
  (void)reportPhase(options, WritePhase::Published);
  result.directory_synced = syncDirectory(destination->dir.fd());
  if (source->dir.path() != destination->dir.path())
    result.directory_synced = syncDirectory(source->dir.fd()) && result.directory_synced;
  destination->dir.syncCreated();
  (void)reportPhase(options, WritePhase::DirectorySynced);
  return result;
}

Result<WriteResult> atomicReplace(const std::string& path, std::string_view bytes,
                                  const WriteOptions& options) {
  auto where = locate(path);
  if (!where) return std::move(where).error();
  return atomicReplace(*where, bytes, options);
}

Result<WriteResult> atomicCreate(const std::string& path, std::string_view bytes,
                                 const WriteOptions& options) {
  auto where = locate(path);
  if (!where) return std::move(where).error();
  return atomicCreate(*where, bytes, options);
}

Status atomicDelete(const std::string& path, const WriteOptions& options) {
  auto where = locate(path);
  if (!where) return std::move(where).error();
  return atomicDelete(*where, options);
}

Result<WriteResult> atomicMove(const std::string& from, const std::string& to,
                               std::string_view bytes, const WriteOptions& options) {
  auto source = locate(from);
  if (!source) return std::move(source).error();
  auto destination = locate(to);
  if (!destination) return std::move(destination).error();
  return atomicMove(*source, *destination, bytes, options);
}

Result<WriteResult> atomicWrite(const std::string& path, std::string_view bytes,
                                const WriteOptions& options) {
  auto where = locate(path);
  if (!where) return std::move(where).error();
  WriteOptions unconditional = options;
  unconditional.expected.reset();
  // Two tries: a file that appears (or vanishes) between the check and the write.
  for (int attempt = 0;; ++attempt) {
    struct stat entry {};
    bool exists = ::stat(where->real_path.c_str(), &entry) == 0;
    auto written = exists ? atomicReplace(*where, bytes, unconditional)
                          : atomicCreate(*where, bytes, unconditional);
    bool raced = !written && (written.error().code == ErrorCode::StaleVersion ||
                              written.error().code == ErrorCode::FileNotFound);
    if (!raced || attempt == 1) return written;
  }
}

} // namespace hashline::disk
