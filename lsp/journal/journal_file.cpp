// Persistence of the journal; see journal_file.h.
#include "lsp/journal/journal_file.h"

#include "lsp/disk/atomic_writer.h"
#include "lsp/disk/file_lock.h"
#include "lsp/journal/journal_json.h"
#include "lsp/support/log.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <thread>
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

struct JournalFile::Open {
  int fd = -1;
  struct stat info {};
  ~Open() {
    if (fd >= 0) ::close(fd);
  }
};

namespace {

bool syncDescriptor(int fd) {
  while (::fsync(fd) != 0)
    if (errno != EINTR) return false;
  return true;
}

// The fsync of one descriptor on a thread of its own, awaited once (or at destruction); inline
// when no thread can be started.
class BackgroundSync {
public:
  explicit BackgroundSync(int fd) {
    try {
      thread_ = std::thread([this, fd] { synced_ = syncDescriptor(fd); });
    } catch (const std::system_error&) {
      synced_ = syncDescriptor(fd);
    }
  }
  BackgroundSync(const BackgroundSync&) = delete;
  BackgroundSync& operator=(const BackgroundSync&) = delete;
  ~BackgroundSync() { (void)await(); }

  bool await() {
    if (thread_.joinable()) thread_.join();
    return synced_;
  }

private:
  bool synced_ = false;
  std::thread thread_;
};

} // namespace

JournalFile::JournalFile(std::string directory, JournalBounds bounds)
    : directory_(std::move(directory)), path_(directory_ + "/journal.jsonl"),
      lock_path_(directory_ + "/journal.lock"), bounds_(bounds) {}

JournalFile::~JournalFile() {
  syncLazyTail();
}

void JournalFile::syncLazyTail() {
  if (!unsynced_) return;
  unsynced_ = false;
  int fd = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

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
    if (type == "intent" || type == "done" || type == "abort" || type == "buffer-intent" ||
        type == "buffer-outcome")
      return true;
  } catch (const json::exception&) {
  }
  return false;
}

bool JournalFile::replayLine(Journal& journal, const json& record) {
  if (!record.is_object()) return false;
  std::string type = record.value("t", "");
  try {
    if (type == "intent") {
      std::optional<JournalOp> op = opFromRecord(record.at("op"));
      if (!op) return false;
      if (!journal.find(op->id)) intents_[op->id] = std::move(*op);
      return true;
    }
    if (type == "done" || type == "abort") {
      auto it = intents_.find(record.at("id").get<std::uint64_t>());
      if (it == intents_.end()) return true; // its intent was compacted away or torn
      if (type == "done" && !journal.find(it->first)) journal.record(std::move(it->second));
      intents_.erase(it);
      return true;
    }
    if (type == "buffer-intent" && !bufferIntentFromRecord(record)) return false;
  } catch (const json::exception&) {
    return false;
  }
  if (!replay(journal, record)) return false;
  trackBufferRecord(record);
  return true;
}

void JournalFile::trackBufferRecord(const json& record) {
  std::string type = record.value("t", "");
  if (type == "buffer-intent") {
    if (std::optional<BufferIntent> intent = bufferIntentFromRecord(record))
      buffer_intents_[intent->id] = std::move(*intent);
    return;
  }
  std::string id;
  if (type == "buffer-outcome") id = record.value("id", "");
  if (type == "op") id = record.value("intent", "");
  if (id.empty()) return;
  auto it = buffer_intents_.find(id);
  if (it == buffer_intents_.end()) return; // its intent was torn, or compacted away settled
  if (type == "buffer-outcome" && record.value("landing", "") == "unknown") {
    unknown_.push_back({std::move(it->second), record.value("why", "")});
    if (unknown_.size() > kUnknownKept) unknown_.pop_front();
  }
  buffer_intents_.erase(it);
}

std::vector<json> JournalFile::settleBufferIntentsLocked(Journal& journal) {
  std::vector<json> outcomes;
  for (auto it = buffer_intents_.begin(); it != buffer_intents_.end();) {
    std::optional<LandingVerdict> verdict = buffer_resolver_(it->second);
    if (!verdict) {
      ++it;
      continue;
    }
    BufferIntent& intent = it->second;
    log::info("journal ", path_, ": the buffer edit of ", intent.op.name, " sent by sidecar ",
              intent.writer.pid, " (which died before the editor confirmed it) ",
              verdict->landing == Landing::Landed      ? "landed"
              : verdict->landing == Landing::NotLanded ? "did not land"
                                                       : "cannot be settled",
              ": ", verdict->why);
    if (verdict->landing == Landing::Landed) {
      JournalOp op = intent.op;
      op.id = 0;
      op.version_after = verdict->version_after;
      json record = opRecordJSON(journal.record(std::move(op)));
      record["intent"] = intent.id;
      outcomes.push_back(std::move(record));
    } else {
      outcomes.push_back(bufferOutcomeRecord(intent.id, verdict->landing, verdict->why));
      if (verdict->landing == Landing::Unknown) {
        unknown_.push_back({std::move(intent), verdict->why});
        if (unknown_.size() > kUnknownKept) unknown_.pop_front();
      }
    }
    it = buffer_intents_.erase(it);
  }
  return outcomes;
}

Status JournalFile::refresh(Journal& journal) {
  Result<disk::FileLock> lock = disk::FileLock::acquire(lock_path_);
  if (!lock) return lock.error();
  return refreshLocked(journal, nullptr);
}

Status JournalFile::refreshLocked(Journal& journal, Open* writing) {
  // A writer opens the file once for reading what is new and appending; a reader only reads.
  Open reading;
  Open& open = writing ? *writing : reading;
  if (!writing) {
    open.fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (open.fd < 0) {
      if (errno != ENOENT) return ioError("cannot open", path_);
      if (inode_ != 0) { // removed by someone: start over
        journal.clear();
        intents_.clear();
        buffer_intents_.clear();
        unknown_.clear();
      }
      inode_ = 0;
      offset_ = 0;
      return Status::success();
    }
    if (::fstat(open.fd, &open.info) != 0) return ioError("cannot stat", path_);
  }
  auto size = static_cast<std::uint64_t>(open.info.st_size);
  if (static_cast<std::uint64_t>(open.info.st_ino) != inode_ || size < offset_) {
    // First look, or the file was rewritten (compaction by another process): reload whole.
    journal.clear();
    intents_.clear();
    buffer_intents_.clear();
    unknown_.clear();
    inode_ = static_cast<std::uint64_t>(open.info.st_ino);
    offset_ = 0;
  }
  std::string bytes;
  if (size > offset_) {
    bytes.resize(size - offset_);
    std::size_t got = 0;
    while (got < bytes.size()) {
      ssize_t n = ::pread(open.fd, bytes.data() + got, bytes.size() - got,
                          static_cast<off_t>(offset_ + got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    bytes.resize(got);
  }
  // Whole lines only; a tail without its newline is a torn record (we hold the lock, so no
  // writer is in the middle of it): it stays unread and the next append starts a new line.
  std::size_t start = 0;
  for (std::size_t newline; (newline = bytes.find('\n', start)) != std::string::npos;
       start = newline + 1) {
    std::string_view line(bytes.data() + start, newline - start);
    if (line.empty()) continue;
    json record = json::parse(line, nullptr, false);
    if (record.is_discarded() || !replayLine(journal, record)) {
      ++skipped_;
      log::warn("journal ", path_, ": skipped a malformed record at byte ", offset_ + start);
    }
  }
  offset_ += start;
  const bool disk_intents = !intents_.empty() && resolver_;
  const bool buffer_intents = !buffer_intents_.empty() && buffer_resolver_;
  if (!disk_intents && !buffer_intents) return Status::success();
  Open appending;
  auto target = [&]() -> Open* {
    if (writing) return writing;
    if (appending.fd < 0) {
      appending.fd = ::open(path_.c_str(), O_RDWR | O_APPEND | O_CLOEXEC);
      if (appending.fd < 0 || ::fstat(appending.fd, &appending.info) != 0) return nullptr;
    }
    return &appending;
  };
  // A disk intent without its outcome, seen under the lock its writer held until the outcome
  // was written: the writer died. Resolve it now, before anything else is appended (and before
  // a settled buffer edit takes the next op id, which may be the intent's own).
  if (disk_intents) {
    Open* open_for_append = target();
    if (!open_for_append) return ioError("cannot open", path_);
    if (Status resolved = resolveIntentsLocked(journal, *open_for_append); !resolved)
      return resolved;
  }
  if (!buffer_intents) return Status::success();
  std::vector<json> buffer_outcomes = settleBufferIntentsLocked(journal);
  if (buffer_outcomes.empty()) return Status::success();
  Open* open_for_append = target();
  if (!open_for_append) return ioError("cannot open", path_);
  // Fsynced: a settlement is decided once, from a buffer that may change right after.
  return appendLocked(*open_for_append, buffer_outcomes, Flush::Now);
}

Status JournalFile::resolveIntentsLocked(Journal& journal, Open& open) {
  std::vector<json> outcomes;
  for (auto& [id, op] : intents_) {
    bool landed = resolver_(op);
    log::info("journal ", path_, ": op ", id, " of a process that died mid-write ",
              landed ? "landed" : "did not land");
    outcomes.push_back({{"t", landed ? "done" : "abort"}, {"id", id}});
    if (landed && !journal.find(id)) journal.record(std::move(op));
  }
  intents_.clear();
  return appendLocked(open, outcomes, Flush::Now);
}

Status JournalFile::appendLocked(Open& open, const std::vector<json>& records, Flush flush) {
  if (records.empty()) return Status::success();
  std::string bytes;
  if (static_cast<std::uint64_t>(open.info.st_size) > offset_) bytes += '\n'; // after a torn tail
  for (const json& record : records)
    bytes += recordLine(record) + "\n";
  // One write: a kill leaves the whole of it or a torn tail that readers skip.
  Status written = writeAll(open.fd, bytes, path_);
  if (!written) return written;
  auto now = std::chrono::steady_clock::now();
  bool sync = flush == Flush::Now;
  if (flush == Flush::Grouped &&
      (last_sync_ == std::chrono::steady_clock::time_point{} || now - last_sync_ >= kGroupSync))
    sync = true; // the first grouped append after a quiet spell syncs at once
  if (sync) {
    if (::fsync(open.fd) != 0) return ioError("cannot fsync", path_);
    last_sync_ = now;
    unsynced_ = false;
  } else if (flush == Flush::Grouped) {
    unsynced_ = true; // synced by the next synced append, at the latest at destruction
  }
  // We hold the lock: nobody else appended meanwhile.
  open.info.st_size += static_cast<off_t>(bytes.size());
  inode_ = static_cast<std::uint64_t>(open.info.st_ino);
  offset_ = static_cast<std::uint64_t>(open.info.st_size);
  return Status::success();
}

Status JournalFile::transact(Journal& journal, const Change& change, Durability durability) {
  Result<disk::FileLock> lock = disk::FileLock::acquire(lock_path_);
  if (!lock) return lock.error();
  Open open;
  open.fd = ::open(path_.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (open.fd < 0) return ioError("cannot open", path_);
  if (::fstat(open.fd, &open.info) != 0) return ioError("cannot stat", path_);
  if (Status refreshed = refreshLocked(journal, &open); !refreshed) return refreshed;
  std::vector<json> records = change(journal);
  if (Status appended = appendLocked(
          open, records, durability == Durability::Synced ? Flush::Now : Flush::Grouped);
      !appended)
    return appended;
  for (const json& record : records)
    trackBufferRecord(record);
  if (!intents_.empty()) return Status::success(); // never compact away an unresolved intent
  if (journal.ops().size() > bounds_.max_ops || offset_ > bounds_.max_bytes)
    return compactLocked(journal);
  return Status::success();
}

Result<std::uint64_t> JournalFile::around(Journal& journal, JournalOp op, const GatedWrite& write) {
  auto inMemory = [&](Error error) -> Result<std::uint64_t> {
    // The journal is unwritable: the write still happens (a journal problem never blocks an
    // edit), the op is kept in memory only.
    if (!write([] { return Status::success(); })) return error;
    op.id = 0;
    if (op.turn <= 0) op.turn = journal.currentTurn(op.session);
    journal.record(std::move(op));
    return error;
  };
  Result<disk::FileLock> lock = disk::FileLock::acquire(lock_path_);
  if (!lock) return inMemory(lock.error());
  Open open;
  open.fd = ::open(path_.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (open.fd < 0) return inMemory(ioError("cannot open", path_));
  if (::fstat(open.fd, &open.info) != 0) return inMemory(ioError("cannot stat", path_));
  if (Status refreshed = refreshLocked(journal, &open); !refreshed)
    return inMemory(refreshed.error());
  std::uint64_t id = journal.lastId();
  if (!intents_.empty()) id = std::max(id, intents_.rbegin()->first);
  op.id = id + 1;
  if (op.turn <= 0) op.turn = journal.currentTurn(op.session);
  json intent = {{"t", "intent"}, {"op", opRecordJSON(op)}};
  // The intent is on disk before the write can land: written now, fsynced beside the write's
  // temp file, awaited at the gate right before publication. Its outcome need not be synced (if
  // it is lost, the next reader resolves the intent by the file's content).
  if (Status logged = appendLocked(open, {intent}, Flush::Lazy); !logged)
    return inMemory(logged.error());
  BackgroundSync intent_sync(open.fd);
  bool intent_durable = false;
  bool landed = write([&] {
    // A journal problem never blocks an edit: an unsynced intent is reported after the write.
    intent_durable = intent_sync.await();
    return Status::success();
  });
  intent_durable = intent_sync.await();
  if (intent_durable) last_sync_ = std::chrono::steady_clock::now();
  std::uint64_t recorded = 0;
  if (landed) recorded = journal.record(std::move(op)).id;
  json outcome = {{"t", landed ? "done" : "abort"}, {"id", id + 1}};
  // Lazy: not even the exit of a one-shot CLI run waits for it (that fsync was one of a large
  // `patch`'s six); lost in an OS crash, the intent is resolved as above.
  Status appended = appendLocked(open, {outcome}, Flush::Lazy);
  if (!appended) {
    // The intent stays unresolved on disk; the next reader resolves it by the file's content.
    return appended.error();
  }
  if (!intent_durable) return ioError("cannot fsync", path_);
  if (intents_.empty() && (journal.ops().size() > bounds_.max_ops || offset_ > bounds_.max_bytes))
    if (Status compacted = compactLocked(journal); !compacted) return compacted.error();
  return recorded;
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
  // Buffer intents without an outcome (in flight, or awaiting their editor) and the last
  // undecidable ones stay.
  for (const auto& [id, intent] : buffer_intents_)
    bytes += recordLine(bufferIntentRecord(intent)) + "\n";
  for (const UnknownLanding& unknown : unknown_)
    bytes += recordLine(bufferIntentRecord(unknown.intent)) + "\n" +
             recordLine(bufferOutcomeRecord(unknown.intent.id, Landing::Unknown, unknown.why)) +
             "\n";

  // One atomic write (lsp/disk): a new inode, so readers holding the old one see the change.
  disk::WriteOptions options;
  options.create_mode = 0600;
  options.take_lock = false; // we hold the journal's lock
  Result<disk::WriteResult> written = disk::atomicWrite(path_, bytes, options);
  if (!written)
    return Error::make(ErrorCode::IoError,
                       "cannot rewrite " + path_ + ": " + written.error().message);
  unsynced_ = false; // the new file was fsynced whole
  last_sync_ = std::chrono::steady_clock::now();
  inode_ = written->fingerprint.inode;
  offset_ = written->fingerprint.size_bytes;
  log::info("journal ", path_, ": compacted, dropped ", drop, " oldest ops");
  return Status::success();
}

} // namespace hashline::lsp
