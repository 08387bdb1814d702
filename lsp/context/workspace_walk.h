// The disk half of the workspace search: walks the search scopes (directories and files under the
// workspace roots), skipping what .gitignore files exclude (root and nested ones, gitignore.h),
// `.git/`, symlinks, and files the `--glob` filters reject, then scans the files it found on a
// few threads for any line the matcher accepts, skipping binary files (a NUL byte in the first
// 8 KiB) and files above a size cap. The result is the files with a match, in walk order (each
// directory's entries sorted by name), so a search's answer does not depend on thread timing.
//
// Files whose real path is in `listed_only` (the documents open in the editor: their live text
// is searched instead) are listed in `visited` but not read. A scope named explicitly as a file is
// searched even when ignored, as rg does. The scan only filters: the caller re-reads each
// candidate through its confined backend and decides hits on that text.
//
// Threading: blocking; uses up to `threads` threads (the caller's included) for the scan.
#pragma once

#include "lsp/context/gitignore.h"
#include "lsp/context/search_matcher.h"

#include <cstddef>
#include <string>
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
};

struct WalkResult {
  std::vector<std::string> candidates; // real paths with a matching line, in walk order
  std::vector<std::string> listed;     // real paths of `listed_only` files the walk reached
  std::size_t files_scanned = 0;
  std::size_t binary_skipped = 0;
  std::size_t large_skipped = 0;
  std::size_t unreadable = 0;
};

WalkResult walkAndScan(const WalkOptions& options, const SearchMatcher& matcher);

} // namespace hashline::context
