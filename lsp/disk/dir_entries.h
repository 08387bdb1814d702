// directoryEntries: the names in a directory, listed through a descriptor (never by path), for
// the sweeps that scan a directory of our own — stale temps (temp_file.h) and dead sidecars'
// discovery files (lsp/agent/discovery.h). Thread-safe (a descriptor of its own per call).
#pragma once

#include <string>
#include <vector>

namespace hashline::disk {

/// The entries of the directory open as `dir_fd` (which may be O_PATH), without "." and "..";
/// empty when it cannot be listed. Listed through a descriptor of its own, so `dir_fd`'s offset
/// is untouched, and collected first, so the caller may remove entries while going through them.
std::vector<std::string> directoryEntries(int dir_fd);

} // namespace hashline::disk
