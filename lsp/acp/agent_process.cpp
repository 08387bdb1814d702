// Starting and ending the agent's process group; see agent_process.h.
#include "lsp/acp/agent_process.h"

#include "lsp/platform/executable_path.h"
#include "lsp/platform/process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace hashline::acp {

namespace {

void closeBoth(int fds[2]) {
  for (int i = 0; i < 2; ++i)
    if (fds[i] >= 0) ::close(fds[i]);
}

std::string describeStatus(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "stopped";
}

int exitCodeOf(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

/// In the child, after fork: never returns.
[[noreturn]] void execAgent(const std::vector<std::string>& argv, int in_read, int out_write,
                            int status_write, pid_t parent) {
  ::setpgid(0, 0);
#ifdef __linux__
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127); // the proxy died before prctl took effect
#else
  (void)parent;
#endif
  // Dispositions the proxy set (SIGPIPE ignored) must not leak into the agent.
  ::signal(SIGPIPE, SIG_DFL);
  ::dup2(in_read, STDIN_FILENO);
  ::dup2(out_write, STDOUT_FILENO);
  std::vector<char*> args;
  for (const std::string& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  ::execvp(args[0], args.data());
  int error = errno;
  ssize_t ignored = ::write(status_write, &error, sizeof error);
  (void)ignored;
  ::_exit(127);
}

} // namespace

std::optional<AgentProcess> startAgent(const std::vector<std::string>& argv, std::string& error) {
  if (argv.empty()) {
    error = "no agent command";
    return std::nullopt;
  }
  int in[2] = {-1, -1}, out[2] = {-1, -1}, status[2] = {-1, -1};
  if (!platform::openCloseOnExecPipe(in) || !platform::openCloseOnExecPipe(out) ||
      !platform::openCloseOnExecPipe(status)) {
    error = std::string("pipe: ") + std::strerror(errno);
    closeBoth(in);
    closeBoth(out);
    closeBoth(status);
    return std::nullopt;
  }
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("fork: ") + std::strerror(errno);
    closeBoth(in);
    closeBoth(out);
    closeBoth(status);
    return std::nullopt;
  }
  if (pid == 0) execAgent(argv, in[0], out[1], status[1], parent);
  ::setpgid(pid, pid); // also in the parent, so killpg works even before the child ran
  ::close(in[0]);
  ::close(out[1]);
  ::close(status[1]);
  int exec_error = 0;
  ssize_t got;
  do {
    got = ::read(status[0], &exec_error, sizeof exec_error);
  } while (got < 0 && errno == EINTR);
  ::close(status[0]);
  if (got == static_cast<ssize_t>(sizeof exec_error)) {
    error = argv[0] + ": " + std::strerror(exec_error);
    ::close(in[1]);
    ::close(out[0]);
    ::waitpid(pid, nullptr, 0);
    return std::nullopt;
  }
  return AgentProcess{pid, in[1], out[0]};
}

std::optional<int> reapAgent(pid_t pid, std::string& status_text) {
  int status = 0;
  pid_t done;
  do {
    done = ::waitpid(pid, &status, WNOHANG);
  } while (done < 0 && errno == EINTR);
  if (done != pid) return std::nullopt;
  status_text = describeStatus(status);
  return exitCodeOf(status);
}

std::optional<int> endAgentGroup(pid_t pid, bool reaped, std::chrono::milliseconds grace,
                                 std::string& status_text) {
  std::optional<int> code;
  if (!reaped) code = reapAgent(pid, status_text);
  // The group may outlive its leader (the agent's children): always signal the group, and wait
  // while any of it (or the unreaped leader) is left.
  ::killpg(pid, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + grace;
  auto leftover = [&] { return (!reaped && !code) || ::killpg(pid, 0) == 0; };
  while (leftover() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (!reaped && !code) code = reapAgent(pid, status_text);
  }
  ::killpg(pid, SIGKILL);
  if (!reaped && !code) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    status_text = describeStatus(status);
    code = exitCodeOf(status);
  }
  return code;
}

std::string currentExecutablePath() {
  std::string self = platform::ownExecutablePath();
  return self.empty() ? std::string("hashline") : self;
}

} // namespace hashline::acp
