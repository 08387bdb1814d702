// currentProcessId, parentProcessId, processAlive, processStatus, ignoreBrokenPipe and
// onTerminationRequest with getpid(2), getppid(2), kill(2), /proc, signal(3) and sigaction(2).
#include "lsp/platform/process.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <sstream>
#include <string>
#include <sys/types.h>
#include <unistd.h>

namespace hashline::platform {

std::int64_t currentProcessId() {
  return static_cast<std::int64_t>(::getpid());
}

std::int64_t parentProcessId() {
  return static_cast<std::int64_t>(::getppid());
}

bool processAlive(std::int64_t pid) {
  if (pid <= 0) return false;
  // EPERM: it exists but is someone else's.
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

std::optional<ProcessStatus> processStatus(std::int64_t pid) {
#if defined(__linux__)
  if (pid <= 0) return std::nullopt;
  // Opened relative to a descriptor of /proc, not as "/proc/PID/stat": qemu-user answers a
  // program's own /proc/PID/stat itself, with a start time a tick off the kernel's, and a
  // sidecar's discovery record (its own start time) must match what other processes read.
  const int proc = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (proc < 0) return std::nullopt;
  const int fd = ::openat(proc, (std::to_string(pid) + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
  ::close(proc);
  if (fd < 0) return std::nullopt;
  std::string stat;
  char chunk[1024];
  for (ssize_t got; (got = ::read(fd, chunk, sizeof chunk)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    stat.append(chunk, static_cast<std::size_t>(got));
  }
  ::close(fd);
  // "PID (COMM) STATE PPID ...": the command may hold spaces and parentheses, so fields count
  // from the last ')': STATE is field 3, starttime field 22.
  auto close = stat.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(stat.substr(close + 1));
  ProcessStatus status;
  std::string field;
  for (int index = 3; index <= 22 && (fields >> field); ++index) {
    if (index == 3) status.exited = field == "Z" || field == "X";
    if (index == 22) {
      status.start_ticks = std::strtoull(field.c_str(), nullptr, 10);
      return status;
    }
  }
  return std::nullopt;
#else
  (void)pid;
  return std::nullopt;
#endif
}

void ignoreBrokenPipe() {
  ::signal(SIGPIPE, SIG_IGN);
}

void onTerminationRequest(void (*handler)(int reason)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask); // a macro on macOS: never spelled ::sigemptyset
  for (int signal : {SIGTERM, SIGINT, SIGHUP})
    ::sigaction(signal, &action, nullptr);
}

bool openCloseOnExecPipe(FileHandle ends[2]) {
#if defined(__linux__)
  return ::pipe2(ends, O_CLOEXEC) == 0;
#else
  if (::pipe(ends) != 0) return false;
  if (::fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0 && ::fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0)
    return true;
  const int err = errno;
  ::close(ends[0]);
  ::close(ends[1]);
  ends[0] = ends[1] = -1;
  errno = err;
  return false;
#endif
}

} // namespace hashline::platform
