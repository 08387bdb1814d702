// Processes and signals: whether a process still runs (the editor that started us, a sidecar
// named in a discovery file, a Claude Code lock file's owner) and SIGPIPE turned into write
// errors. kill(pid, 0) and signal() on POSIX; Windows seam: OpenProcess + GetExitCodeProcess,
// and no SIGPIPE at all.
#pragma once

#include <cstdint>

namespace hashline::platform {

/// True while process `pid` exists (also when it belongs to another user); false for pid ≤ 0.
bool processAlive(std::int64_t pid);
/// A write to a closed pipe or socket fails with EPIPE instead of killing the process.
void ignoreBrokenPipe();

} // namespace hashline::platform
