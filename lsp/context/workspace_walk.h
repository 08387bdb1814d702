// The disk half of the workspace search: walks the search scopes (directories and files under the
// workspace roots), skipping what .gitignore files exclude (root and nested ones, gitignore.h),
// `.git/`, symlinks, and files the `--glob` filters reject, then scans the files it found on a
// few threads for any line the matcher accepts, skipping binary files (a NUL byte in the first
// 8 KiB) and files above a size cap. The result is the files with a match, in walk order (each
// directory's entries sorted by name), so a search's answer does not depend on thread timing.
//
// Files whose real path is in `listed_only` (the documents open in the editor: their live text
// is searched instead) are listed in `listed` but not read. A scope named explicitly as a file is
// searched even when ignored, as rg does. The scan only filters and reads: each file with a match
// comes with the bytes the scan read and the stat of the descriptor they came from (up to
// `keep_bytes` in all), which the caller hands to its confined backend
// (DiskBackend::snapshotFromRead) instead of reading the file a second time; the backend takes
// them only while the file is still that one, unchanged, and the caller decides the hits on the
// snapshot's text.
//
// Threading: blocking; uses up to `threads` threads (the caller's included) for the scan.
#pragma once

#include "lsp/context/gitignore.h"
#include "lsp/context/search_matcher.h"

#include <cstddef>
#include <string>
#include <sys/stat.h>
#include <time.h>
#include <unordered_set>
#include <vector>

namespace hashline::context {

struct WalkScope {
  std::string root;     // canonical workspace root
  std::string relative; // the directory or file below it ("" = the root itself)
  bool is_file = false;
};

struct WalkOptions {
  std::vector<WalkScope> scopes;
  GlobFilter globs;
  std::unordered_set<std::string> listed_only; // real paths not to read (open documents)
  std::size_t threads = 0;                     // 0: the machine's cores (at most 8)
  std::size_t max_file_bytes = std::size_t(64) << 20;
  std::size_t keep_bytes = std::size_t(64) << 20; // of matching files' bytes kept, in all
};

/// A file with a matching line, as the scan read it.
struct ScannedFile {
  std::string real_path;
  bool kept = false;     // `bytes` and `before` hold the read (else keep_bytes was spent)
  std::string bytes;     // the whole file as the scan read it
  struct stat before {}; // fstat of the descriptor `bytes` were read from, before the read
};

struct WalkResult {
  std::vector<ScannedFile> candidates; // files with a matching line, in walk order
  struct timespec started {};          // CLOCK_REALTIME before the first file was stat'ed
  std::vector<std::string> listed;     // real paths of `listed_only` files the walk reached
  std::size_t files_scanned = 0;
  std::size_t binary_skipped = 0;
  std::size_t large_skipped = 0;
  std::size_t unreadable = 0;
};

WalkResult walkAndScan(const WalkOptions& options, const SearchMatcher& matcher);

} // namespace hashline::context
