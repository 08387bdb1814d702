// JournalFile: the journal of one workspace on disk — `<workspace state dir>/journal.jsonl`,
// never inside the repository (lsp/disk/state_dir.h).
//
// Append-only, one JSON record per line (lsp/journal/journal_json.h), each append fsynced.
// Several processes (the sidecar inside `hashline lsp`, CLI runs) share the file: every
// transaction takes `journal.lock` (disk::FileLock), first reads what others appended since
// (`refresh`; a file replaced by another process's compaction is reloaded whole), then changes
// the model and appends. Malformed lines — a record torn by a kill in mid-write — are skipped and
// counted, never fatal; the next append starts on a fresh line. Bounded: when the file passes
// `max_ops` ops or `max_bytes`, the oldest ops are dropped and the file is rewritten atomically
// (temp file, fsync, rename, fsync of the directory) to three quarters of the bounds.
// Synchronous; serialized across processes by the lock; one object per thread.
#pragma once

#include "engine/journal/journal.h"
#include "engine/support/result.h"

#include <cstdint>
#include <functional>
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
  /// `directory` must exist (a private state directory).
  explicit JournalFile(std::string directory, JournalBounds bounds = {});

  const std::string& path() const { return path_; }
  /// Malformed lines skipped so far.
  std::size_t skippedRecords() const { return skipped_; }

  /// Under the lock: refresh `journal`, run `change` (which updates the model and returns the
  /// records to append, in order), append them fsynced, compact when over the bounds.
  using Change = std::function<std::vector<nlohmann::json>(journal::Journal& journal)>;
  Status transact(journal::Journal& journal, const Change& change);
  /// Under the lock: reads what was appended since the last look.
  Status refresh(journal::Journal& journal);

  /// Applies one record to the model (replay); false when malformed.
  static bool replay(journal::Journal& journal, const nlohmann::json& record);

private:
  Status refreshLocked(journal::Journal& journal);
  Status compactLocked(journal::Journal& journal);

  std::string directory_;
  std::string path_;
  std::string lock_path_;
  JournalBounds bounds_;
  std::uint64_t inode_ = 0;
  std::uint64_t offset_ = 0; // bytes of the file already in the model
  std::size_t skipped_ = 0;
};

} // namespace hashline::lsp
