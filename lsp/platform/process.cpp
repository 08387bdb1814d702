// processAlive and ignoreBrokenPipe with kill(2) and signal(3).
#include "lsp/platform/process.h"

#include <cerrno>
#include <csignal>
#include <sys/types.h>

namespace hashline::platform {

bool processAlive(std::int64_t pid) {
  if (pid <= 0) return false;
  // EPERM: it exists but is someone else's.
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

void ignoreBrokenPipe() {
  ::signal(SIGPIPE, SIG_IGN);
}

} // namespace hashline::platform
