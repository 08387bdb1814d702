// Persistence of the journal; see journal_file.h.
#include "lsp/journal/journal_file.h"

#include "lsp/disk/file_lock.h"
#include "lsp/journal/journal_json.h"
#include "lsp/support/log.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::lsp {

using nlohmann::json;
using namespace hashline::journal;

namespace {

Error ioError(const std::string& what, const std::string& path) {
  return Error::make(ErrorCode::IoError,
                     what + " " + path + ": " + std::string(std::strerror(errno)));
}

Status writeAll(int fd, const std::string& bytes, const std::string& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ioError("cannot write", path);
    done += static_cast<std::size_t>(n);
  }
  return Status::success();
}

} // namespace

JournalFile::JournalFile(std::string directory, JournalBounds bounds)
    : directory_(std::move(directory)), path_(directory_ + "/journal.jsonl"),
      lock_path_(directory_ + "/journal.lock"), bounds_(bounds) {}

bool JournalFile::replay(Journal& journal, const json& record) {
  if (!record.is_object()) return false;
  std::string type = record.value("t", "");
  try {
    if (type == "op") {
      std::optional<JournalOp> op = opFromRecord(record);
      if (!op) return false;
      if (journal.find(op->id)) return true; // already known
      journal.record(std::move(*op));
      return true;
    }
    if (type == "state") {
      auto ref = parseHunkRef(record.at("ref").get<std::string>());
      if (!ref) return false;
      std::string state = record.at("state").get<std::string>();
      journal.setHunkState(*ref, state == "accepted" ? HunkState::Accepted : HunkState::Pending);
      return true;
    }
    if (type == "turn") {
      journal.noteTurn(record.at("session").get<std::string>(),
                       record.at("turn").get<std::int64_t>());
      return true;
    }
  } catch (const json::exception&) {
  }
  return false;
}

Status JournalFile::refresh(Journal& journal) {
  Result<disk::FileLock> lock = disk::FileLock::acquire(lock_path_);
  if (!lock) return lock.error();
  return refreshLocked(journal);
}

Status JournalFile::refreshLocked(Journal& journal) {
  int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT) return ioError("cannot open", path_);
    if (inode_ != 0) journal.clear(); // removed by someone: start over
    inode_ = 0;
    offset_ = 0;
    return Status::success();
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    ::close(fd);
    return ioError("cannot stat", path_);
  }
  auto size = static_cast<std::uint64_t>(info.st_size);
  if (static_cast<std::uint64_t>(info.st_ino) != inode_ || size < offset_) {
    // First look, or the file was rewritten (compaction by another process): reload whole.
    journal.clear();
    inode_ = static_cast<std::uint64_t>(info.st_ino);
    offset_ = 0;
  }
  std::string bytes;
  if (size > offset_) {
    bytes.resize(size - offset_);
    std::size_t got = 0;
    while (got < bytes.size()) {
      ssize_t n =
          ::pread(fd, bytes.data() + got, bytes.size() - got, static_cast<off_t>(offset_ + got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    bytes.resize(got);
  }
  ::close(fd);
  // Whole lines only; a tail without its newline is a torn record (we hold the lock, so no
  // writer is in the middle of it): it stays unread and the next append starts a new line.
  std::size_t start = 0;
  for (std::size_t newline; (newline = bytes.find('\n', start)) != std::string::npos;
       start = newline + 1) {
    std::string_view line(bytes.data() + start, newline - start);
    if (line.empty()) continue;
    json record = json::parse(line, nullptr, false);
    if (record.is_discarded() || !replay(journal, record)) {
      ++skipped_;
      log::warn("journal ", path_, ": skipped a malformed record at byte ", offset_ + start);
    }
  }
  offset_ += start;
  return Status::success();
}

Status JournalFile::transact(Journal& journal, const Change& change) {
  Result<disk::FileLock> lock = disk::FileLock::acquire(lock_path_);
  if (!lock) return lock.error();
  if (Status refreshed = refreshLocked(journal); !refreshed) return refreshed;
  std::vector<json> records = change(journal);
  if (records.empty()) return Status::success();
  int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return ioError("cannot open", path_);
  struct stat info {};
  ::fstat(fd, &info);
  std::string bytes;
  if (static_cast<std::uint64_t>(info.st_size) > offset_) bytes += '\n'; // after a torn record
  for (const json& record : records)
    bytes += recordLine(record) + "\n";
  Status written = writeAll(fd, bytes, path_);
  if (written && ::fsync(fd) != 0) written = ioError("cannot fsync", path_);
  ::fstat(fd, &info);
  ::close(fd);
  if (!written) return written;
  inode_ = static_cast<std::uint64_t>(info.st_ino);
  offset_ = static_cast<std::uint64_t>(info.st_size);
  if (journal.ops().size() > bounds_.max_ops || offset_ > bounds_.max_bytes)
    return compactLocked(journal);
  return Status::success();
}

Status JournalFile::compactLocked(Journal& journal) {
  // Drop the oldest ops until three quarters of both bounds are met.
  std::vector<std::string> lines;
  for (const JournalOp& op : journal.ops())
    lines.push_back(recordLine(opRecordJSON(op)) + "\n");
  std::size_t total = 0;
  for (const std::string& line : lines)
    total += line.size();
  std::size_t drop = 0;
  while (drop < lines.size() &&
         (lines.size() - drop > bounds_.max_ops * 3 / 4 || total > bounds_.max_bytes * 3 / 4)) {
    total -= lines[drop].size();
    ++drop;
  }
  journal.dropOldest(drop);
  std::string bytes;
  for (const auto& [session, turn] : journal.turns())
    bytes += recordLine(json{{"t", "turn"}, {"session", session}, {"turn", turn}}) + "\n";
  for (std::size_t i = drop; i < lines.size(); ++i)
    bytes += lines[i];

  std::string temp = path_ + ".tmp-" + std::to_string(::getpid());
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return ioError("cannot create", temp);
  Status written = writeAll(fd, bytes, temp);
  if (written && ::fsync(fd) != 0) written = ioError("cannot fsync", temp);
  ::close(fd);
  if (written && ::rename(temp.c_str(), path_.c_str()) != 0)
    written = ioError("cannot rename", temp);
  if (!written) {
    ::unlink(temp.c_str());
    return written;
  }
  int dir = ::open(directory_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  struct stat info {};
  if (::stat(path_.c_str(), &info) == 0) {
    inode_ = static_cast<std::uint64_t>(info.st_ino);
    offset_ = static_cast<std::uint64_t>(info.st_size);
  }
  log::info("journal ", path_, ": compacted, dropped ", drop, " oldest ops");
  return Status::success();
}

} // namespace hashline::lsp
