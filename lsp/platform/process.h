// Processes and signals: this process's id and its parent's; whether a process still runs (the
// editor that started us, a sidecar named in a discovery file, a Claude Code lock file's owner),
// when it started and whether it is a zombie (so a discovery record can tell its process from a
// reused pid); SIGPIPE turned into write errors; a handler for the signals that ask it to end.
// getpid/getppid, kill(pid, 0), /proc/PID/stat (Linux; elsewhere unknown) and signal() on POSIX;
// Windows seam: GetCurrentProcessId, OpenProcess + GetExitCodeProcess / GetProcessTimes, and no
// SIGPIPE at all.
#pragma once

#include "lsp/platform/native_handle.h"

#include <cstdint>
#include <optional>

namespace hashline::platform {

/// This process's id (getpid; Windows seam: GetCurrentProcessId).
std::int64_t currentProcessId();
/// The process that started this one (getppid; Windows seam: the parent's id from a process
/// snapshot, CreateToolhelp32Snapshot).
std::int64_t parentProcessId();
/// True while process `pid` exists (also when it belongs to another user); false for pid ≤ 0.
bool processAlive(std::int64_t pid);
struct ProcessStatus {
  std::uint64_t start_ticks = 0; // when it started, in clock ticks since boot
  bool exited = false;           // a zombie: it died and its parent has not reaped it yet
};
/// The kernel's word on `pid`; nullopt when it does not exist or the system does not tell.
std::optional<ProcessStatus> processStatus(std::int64_t pid);
/// A write to a closed pipe or socket fails with EPIPE instead of killing the process.
void ignoreBrokenPipe();
/// `handler` runs (in signal context) when the process is asked to end: SIGTERM, SIGINT and
/// SIGHUP on POSIX. Windows seam: SetConsoleCtrlHandler.
void onTerminationRequest(void (*handler)(int reason));
/// A pipe whose two ends are close-on-exec (pipe2(O_CLOEXEC) on Linux; pipe + FD_CLOEXEC on
/// macOS, which has no pipe2): `ends` = {read, write}; false with errno set on failure.
bool openCloseOnExecPipe(FileHandle ends[2]);

} // namespace hashline::platform
