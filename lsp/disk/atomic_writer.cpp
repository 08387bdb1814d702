// Atomic replace / create / delete / move: temp file, fsync, lock, last-moment fingerprint check,
// rename or no-replace link, directory fsync — with every failure path cleaning up after itself.
#include "lsp/disk/atomic_writer.h"

#include "lsp/disk/disk_file.h"
#include "lsp/disk/file_lock.h"
#include "lsp/disk/temp_file.h"
#include "lsp/disk/workspace_roots.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace hashline::disk {
namespace {

class UniqueFd {
public:
  explicit UniqueFd(int fd = -1) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&&) = delete;
  ~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

private:
  int fd_;
};

// A path split into its canonical directory and entry name.
struct Target {
  std::string real_path;
  std::string dir;
  std::string name;
};

Result<Target> locate(const std::string& path) {
  std::string base = "/";
  if (path.empty() || path.front() != '/') {
    auto cwd = currentDirectory();
    if (!cwd) return std::move(cwd).error();
    base = std::move(*cwd);
  }
  auto real_path = resolveRealPath(path, base);
  if (!real_path) return std::move(real_path).error();
  Target target;
  target.real_path = std::move(*real_path);
  auto slash = target.real_path.rfind('/');
  target.dir = slash == 0 ? "/" : target.real_path.substr(0, slash);
  target.name = target.real_path.substr(slash + 1);
  if (target.name.empty()) return Error::make(ErrorCode::IoError, path + " is a directory");
  return target;
}

Result<UniqueFd> openDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return systemError(errno, "open directory", dir);
  return UniqueFd(fd);
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

// The file at `real_path` must be a regular file; a missing one is stale when the caller
// expected content there, else FILE_NOT_FOUND.
Result<struct stat> statExisting(const Target& target, const std::string& shown_path,
                                 const WriteOptions& options) {
  struct stat file_stat {};
  if (::stat(target.real_path.c_str(), &file_stat) != 0) {
    int err = errno;
    if (err == ENOENT && options.expected)
      return staleError(shown_path, "was deleted since it was read");
    return systemError(err, "stat", shown_path);
  }
  if (!S_ISREG(file_stat.st_mode))
    return Error::make(ErrorCode::IoError, shown_path + " is not a regular file");
  return file_stat;
}

Status checkExpected(const Target& target, const std::string& shown_path,
                     const WriteOptions& options) {
  if (!options.expected) return Status::success();
  auto current = readFileBytes(target.real_path);
  if (!current) {
    if (current.error().code == ErrorCode::FileNotFound)
      return staleError(shown_path, "was deleted since it was read");
    return std::move(current).error();
  }
  if (!current->fingerprint.sameContentAs(*options.expected))
    return staleError(shown_path, "changed since it was read (now " +
                                      std::to_string(current->fingerprint.size_bytes) +
                                      " bytes, read at " +
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

// Directories made for a new file; removed again unless the create commits.
class CreatedDirectories {
public:
  ~CreatedDirectories() {
    if (committed_) return;
    for (auto it = made_.rbegin(); it != made_.rend(); ++it)
      (void)::rmdir(it->c_str());
  }
  Status makeParents(const std::string& dir) {
    struct stat dir_stat {};
    if (::stat(dir.c_str(), &dir_stat) == 0) {
      if (!S_ISDIR(dir_stat.st_mode)) return systemError(ENOTDIR, "create in", dir);
      return Status::success();
    }
    if (errno != ENOENT) return systemError(errno, "stat", dir);
    auto slash = dir.rfind('/');
    if (slash != std::string::npos && slash > 0)
      if (auto status = makeParents(dir.substr(0, slash)); !status) return status;
    if (::mkdir(dir.c_str(), 0777) != 0) {
      if (errno == EEXIST) return Status::success();
      return systemError(errno, "mkdir", dir);
    }
    made_.push_back(dir);
    return Status::success();
  }
  // The new directory entries are durable once each made directory's parent is synced.
  void syncParents() const {
    for (const auto& dir : made_) {
      auto slash = dir.rfind('/');
      auto parent = openDirectory(slash == 0 ? "/" : dir.substr(0, slash));
      if (parent) syncDirectory(parent->get());
    }
  }
  void commit() { committed_ = true; }

private:
  std::vector<std::string> made_;
  bool committed_ = false;
};

Result<Fingerprint> publishedFingerprint(const TempFile& temp, std::string_view bytes,
                                         const std::string& shown_path) {
  struct stat published {};
  if (::fstat(temp.fd(), &published) != 0) return systemError(errno, "stat", shown_path);
  return fingerprintOf(published, bytes);
}

// Writes, fixes mode/owner, syncs: the part of every operation before the lock.
// `original` (path and stat) is the file whose owner, mode and extended attributes the new
// content keeps; null for a new file.
Status fillTemp(TempFile& temp, std::string_view bytes, const Target* original,
                const struct stat* original_stat, const WriteOptions& options) {
  if (auto status = reportPhase(options, WritePhase::TempCreated); !status) return status;
  if (auto status = temp.write(bytes); !status) return status;
  if (original && original_stat) {
    if (auto status = temp.copyOwnerAndMode(*original_stat); !status) return status;
    temp.copyExtendedAttributes(original->real_path);
  }
  if (auto status = reportPhase(options, WritePhase::TempWritten); !status) return status;
  if (auto status = temp.sync(); !status) return status;
  return reportPhase(options, WritePhase::TempSynced);
}

} // namespace

Result<WriteResult> atomicReplace(const std::string& path, std::string_view bytes,
                                  const WriteOptions& options) {
  auto target = locate(path);
  if (!target) return std::move(target).error();
  auto file_stat = statExisting(*target, path, options);
  if (!file_stat) return std::move(file_stat).error();
  auto dir = openDirectory(target->dir);
  if (!dir) return std::move(dir).error();
  sweepStaleTempsOnce(target->dir);

  auto temp = TempFile::create(dir->get(), target->dir, target->name, 0600, options.use_tmpfile);
  if (!temp) return std::move(temp).error();
  if (auto status = fillTemp(*temp, bytes, &*target, &*file_stat, options); !status)
    return std::move(status).error();

  auto locks = lockAll({target->real_path}, options);
  if (!locks) return std::move(locks).error();
  if (auto status = temp->name(); !status) return std::move(status).error();
  if (auto status = reportPhase(options, WritePhase::TempNamed); !status)
    return std::move(status).error();
  if (auto status = checkExpected(*target, path, options); !status)
    return std::move(status).error();
  if (auto status = reportPhase(options, WritePhase::Checked); !status)
    return std::move(status).error();
  if (auto status = temp->renameOver(target->name); !status) return std::move(status).error();

  WriteResult result;
  result.path = target->real_path;
  result.used_tmpfile = temp->unnamed();
  auto fingerprint = publishedFingerprint(*temp, bytes, path);
  if (fingerprint) result.fingerprint = *fingerprint;
  (void)reportPhase(options, WritePhase::Published);
  result.directory_synced = syncDirectory(dir->get());
  (void)reportPhase(options, WritePhase::DirectorySynced);
  return result;
}

Result<WriteResult> atomicCreate(const std::string& path, std::string_view bytes,
                                 const WriteOptions& options) {
  auto target = locate(path);
  if (!target) return std::move(target).error();
  struct stat existing {};
  if (::lstat(target->real_path.c_str(), &existing) == 0)
    return staleError(path, "already exists; read it and edit it instead");
  if (errno != ENOENT) return systemError(errno, "stat", path);

  CreatedDirectories created;
  if (auto status = created.makeParents(target->dir); !status) return std::move(status).error();
  auto dir = openDirectory(target->dir);
  if (!dir) return std::move(dir).error();
  sweepStaleTempsOnce(target->dir);

  auto temp = TempFile::create(dir->get(), target->dir, target->name, 0666, options.use_tmpfile);
  if (!temp) return std::move(temp).error();
  if (auto status = fillTemp(*temp, bytes, nullptr, nullptr, options); !status)
    return std::move(status).error();

  auto locks = lockAll({target->real_path}, options);
  if (!locks) return std::move(locks).error();
  if (auto status = reportPhase(options, WritePhase::Checked); !status)
    return std::move(status).error();
  if (auto status = temp->publishNew(target->name); !status) return std::move(status).error();
  created.commit();

  WriteResult result;
  result.path = target->real_path;
  result.used_tmpfile = temp->unnamed();
  auto fingerprint = publishedFingerprint(*temp, bytes, path);
  if (fingerprint) result.fingerprint = *fingerprint;
  (void)reportPhase(options, WritePhase::Published);
  result.directory_synced = syncDirectory(dir->get());
  created.syncParents();
  (void)reportPhase(options, WritePhase::DirectorySynced);
  return result;
}

Status atomicDelete(const std::string& path, const WriteOptions& options) {
  auto target = locate(path);
  if (!target) return std::move(target).error();
  auto dir = openDirectory(target->dir);
  if (!dir) return std::move(dir).error();
  auto locks = lockAll({target->real_path}, options);
  if (!locks) return std::move(locks).error();
  auto file_stat = statExisting(*target, path, options);
  if (!file_stat) return std::move(file_stat).error();
  if (auto status = checkExpected(*target, path, options); !status) return status;
  if (auto status = reportPhase(options, WritePhase::Checked); !status) return status;
  if (::unlinkat(dir->get(), target->name.c_str(), 0) != 0)
    return systemError(errno, "delete", path);
  (void)reportPhase(options, WritePhase::Published);
  syncDirectory(dir->get());
  (void)reportPhase(options, WritePhase::DirectorySynced);
  return Status::success();
}

Result<WriteResult> atomicMove(const std::string& from, const std::string& to,
                               std::string_view bytes, const WriteOptions& options) {
  auto source = locate(from);
  if (!source) return std::move(source).error();
  auto destination = locate(to);
  if (!destination) return std::move(destination).error();
  if (source->real_path == destination->real_path) return atomicReplace(from, bytes, options);

  auto source_stat = statExisting(*source, from, options);
  if (!source_stat) return std::move(source_stat).error();
  struct stat existing {};
  if (::lstat(destination->real_path.c_str(), &existing) == 0)
    return staleError(to, "already exists; a move never replaces a file");
  if (errno != ENOENT) return systemError(errno, "stat", to);

  CreatedDirectories created;
  if (auto status = created.makeParents(destination->dir); !status)
    return std::move(status).error();
  auto source_dir = openDirectory(source->dir);
  if (!source_dir) return std::move(source_dir).error();
  auto destination_dir = openDirectory(destination->dir);
  if (!destination_dir) return std::move(destination_dir).error();
  sweepStaleTempsOnce(destination->dir);

  auto temp = TempFile::create(destination_dir->get(), destination->dir, destination->name, 0600,
                               options.use_tmpfile);
  if (!temp) return std::move(temp).error();
  if (auto status = fillTemp(*temp, bytes, &*source, &*source_stat, options); !status)
    return std::move(status).error();

  auto locks = lockAll({source->real_path, destination->real_path}, options);
  if (!locks) return std::move(locks).error();
  if (auto status = checkExpected(*source, from, options); !status)
    return std::move(status).error();
  if (auto status = reportPhase(options, WritePhase::Checked); !status)
    return std::move(status).error();
  if (auto status = temp->publishNew(destination->name); !status) return std::move(status).error();
  if (::unlinkat(source_dir->get(), source->name.c_str(), 0) != 0) {
    int err = errno;
    (void)::unlinkat(destination_dir->get(), destination->name.c_str(), 0);
    return systemError(err, "remove the moved file", from);
  }
  created.commit();

  WriteResult result;
  result.path = destination->real_path;
  result.used_tmpfile = temp->unnamed();
  auto fingerprint = publishedFingerprint(*temp, bytes, to);
  if (fingerprint) result.fingerprint = *fingerprint;
  (void)reportPhase(options, WritePhase::Published);
  result.directory_synced = syncDirectory(destination_dir->get());
  if (source->dir != destination->dir)
    result.directory_synced = syncDirectory(source_dir->get()) && result.directory_synced;
  created.syncParents();
  (void)reportPhase(options, WritePhase::DirectorySynced);
  return result;
}

} // namespace hashline::disk
