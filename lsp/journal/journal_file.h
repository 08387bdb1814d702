// JournalFile: the journal of one workspace on disk — `<workspace state dir>/journal.jsonl`,
// never inside the repository (lsp/disk/state_dir.h).
//
// Append-only, one JSON record per line (lsp/journal/journal_json.h). Several processes (the
// sidecar inside `hashline lsp`, CLI runs) share the file: every transaction takes
// `journal.lock` (disk::FileLock), reads only what others appended since (`refresh`, from the
// byte offset it had reached; a file replaced by another process's compaction is reloaded
// whole), then changes the model and appends, all through one open of the file. Malformed lines
// — a record torn by a kill in mid-write — are skipped and counted, never fatal; the next append
// starts on a fresh line. Bounded: when the file passes `max_ops` ops or `max_bytes`, the oldest
// ops are dropped and the file is rewritten atomically (temp file, fsync, rename, fsync of the
// directory) to three quarters of the bounds.
//
// Durability (docs/journal.md). Every record is written by one write(2) under the lock before the
// call returns, so a killed process loses nothing it appended. `Synced` appends are fsynced
// before returning (disk edits' intents, review states, turns, reversals); `Grouped` appends
// (edits of editor buffers) are fsynced at most once per kGroupSync (the first append after a
// quiet second syncs at once), and by any later synced append: an OS crash or power loss can
// lose the buffer-edit records of the last second, plus a tail not yet written back by the
// kernel when the session went quiet right before it.
//
// Disk writes are journaled around the write (`around`): under the lock, held until the write
// returned, an `intent` record of the op is appended and fsynced, then the write (an atomic
// rename) runs, then `done` (the op is in the journal) or `abort` follows. A process that finds
// an intent without its outcome knows its writer died (it could not take the lock otherwise) and
// asks the resolver whether the write landed — the file now has the op's "after" content, or
// failing that still carries its hunks — and appends the outcome. So after a kill at any point
// the file is unchanged, or it changed and the journal has the op to undo it.
//
// Edits of editor buffers cannot hold the lock until the editor confirms them: their intents
// (lsp/journal/buffer_intent.h) are appended before the applyEdit is sent, and their outcome (the
// op naming the intent, or a `buffer-outcome`) follows when the mirror confirms or the editor
// refuses. An intent without an outcome may be in flight in a live sidecar: every refresh asks the
// buffer-intent resolver, which settles only those whose sidecar is gone and whose buffer (or
// file) can tell; the others stay listed (`bufferIntents`), also across compaction.
// Synchronous; serialized across processes by the lock; one object per thread.
#pragma once

#include "engine/journal/journal.h"
#include "engine/support/result.h"
#include "lsp/disk/atomic_writer.h"
#include "lsp/journal/buffer_intent.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace hashline::lsp {

struct JournalBounds {
  std::size_t max_ops = 5000;
  std::size_t max_bytes = 16u << 20;
};

class JournalFile {
public:
  enum class Durability { Synced, Grouped };
  static constexpr std::chrono::milliseconds kGroupSync{1000};

  /// `directory` must exist (a private state directory).
  explicit JournalFile(std::string directory, JournalBounds bounds = {});
  ~JournalFile();
  JournalFile(const JournalFile&) = delete;
  JournalFile& operator=(const JournalFile&) = delete;

  const std::string& path() const { return path_; }
  /// Malformed lines skipped so far.
  std::size_t skippedRecords() const { return skipped_; }
  /// Intents read without an outcome and not resolved (no resolver set).
  std::size_t unresolvedIntents() const { return intents_.size(); }

  /// Under the lock: refresh `journal`, run `change` (which updates the model and returns the
  /// records to append, in order), append them, compact when over the bounds.
  using Change = std::function<std::vector<nlohmann::json>(journal::Journal& journal)>;
  Status transact(journal::Journal& journal, const Change& change,
                  Durability durability = Durability::Synced);
  /// Under the lock: reads what was appended since the last look.
  Status refresh(journal::Journal& journal);

  /// Decides an intent found without its outcome (its writer died): true when its write landed.
  using IntentResolver = std::function<bool(const journal::JournalOp& intent)>;
  void setIntentResolver(IntentResolver resolver) { resolver_ = std::move(resolver); }

  /// Buffer intents read or written without an outcome yet (in flight, or left by a dead sidecar
  /// and not decidable yet), by id.
  const std::map<std::string, BufferIntent>& bufferIntents() const { return buffer_intents_; }
  /// Buffer intents settled "unknown" (nobody could tell whether they landed), newest last; the
  /// last kUnknownKept are kept across compaction.
  struct UnknownLanding {
    BufferIntent intent;
    std::string why;
  };
  static constexpr std::size_t kUnknownKept = 100;
  const std::deque<UnknownLanding>& unknownLandings() const { return unknown_; }
  /// Decides a buffer intent without an outcome; nullopt leaves it for later (its sidecar runs,
  /// or no buffer or file can tell yet). Asked under the lock at every refresh.
  using BufferIntentResolver = std::function<std::optional<LandingVerdict>(const BufferIntent&)>;
  void setBufferIntentResolver(BufferIntentResolver resolver) {
    buffer_resolver_ = std::move(resolver);
  }

  /// A disk write journaled by `around`: true when it landed. It must pass `gate` to the atomic
  /// write (WriteOptions::before_publish), which waits there until the intent is durable.
  using GatedWrite = std::function<bool(const disk::PublishGate& gate)>;
  /// Journals the write of one file around it (see above): `op` (id assigned here) as an fsynced
  /// intent, then `write` (true when it landed), then the outcome; the lock is held throughout.
  /// The intent's fsync runs on a thread of its own while `write` prepares its temp file; the
  /// gate awaits it before publication. Returns the op's id, 0 when `write` did not land. When
  /// the journal cannot be written, `write` still runs and a landed op is kept in memory; the
  /// error is returned.
  Result<std::uint64_t> around(journal::Journal& journal, journal::JournalOp op,
                               const GatedWrite& write);

  /// Applies one record to the model (replay); false when malformed. Intents and their outcomes
  /// are JournalFile's own bookkeeping and ignored here.
  static bool replay(journal::Journal& journal, const nlohmann::json& record);

private:
  struct Open; // the journal file open for one transaction
  Status refreshLocked(journal::Journal& journal, Open* open);
  bool replayLine(journal::Journal& journal, const nlohmann::json& record);
  Status resolveIntentsLocked(journal::Journal& journal, Open& open);
  /// The outcomes of the buffer intents the resolver decides now (the model updated).
  std::vector<nlohmann::json> settleBufferIntentsLocked(journal::Journal& journal);
  /// Keeps `bufferIntents` and `unknownLandings` up to date with a record read or appended.
  void trackBufferRecord(const nlohmann::json& record);
  /// How an append reaches the disk: fsynced before returning, grouped (kGroupSync), or left to
  /// the kernel — only for records whose loss a reader repairs by itself (an intent's outcome).
  enum class Flush { Now, Grouped, Lazy };
  Status appendLocked(Open& open, const std::vector<nlohmann::json>& records, Flush flush);
  Status compactLocked(journal::Journal& journal);
  void syncLazyTail();

  std::string directory_;
  std::string path_;
  std::string lock_path_;
  JournalBounds bounds_;
  std::uint64_t inode_ = 0;
  std::uint64_t offset_ = 0; // bytes of the file already in the model
  std::size_t skipped_ = 0;
  std::map<std::uint64_t, journal::JournalOp> intents_; // read, outcome not yet seen
  IntentResolver resolver_;
  std::map<std::string, BufferIntent> buffer_intents_; // no outcome seen yet
  std::deque<UnknownLanding> unknown_;
  BufferIntentResolver buffer_resolver_;
  std::chrono::steady_clock::time_point last_sync_{};
  bool unsynced_ = false; // Grouped records not fsynced yet
};

} // namespace hashline::lsp
