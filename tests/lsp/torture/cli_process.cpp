// Spawning, waiting for and killing the real `hashline` binary; see cli_process.h.
#include "tests/lsp/torture/cli_process.h"

#include "tests/lsp/support/hashline_binary.h"
#include "tests/lsp/torture/write_detector.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace hashline::test {
namespace {

int unlinkedTempFile() {
  char name[] = "/tmp/hashline-torture-cli-XXXXXX";
  int fd = ::mkstemp(name);
  if (fd >= 0) ::unlink(name);
  return fd;
}

std::string drain(int fd) {
  std::string bytes;
  ::lseek(fd, 0, SEEK_SET);
  char chunk[65536];
  for (;;) {
    ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    bytes.append(chunk, static_cast<std::size_t>(got));
  }
  return bytes;
}

struct Child {
  pid_t pid = -1;
  int out_fd = -1;
  int err_fd = -1;
};

Child start(const std::vector<std::string>& args, const std::string& cwd) {
  Child child;
  child.out_fd = unlinkedTempFile();
  child.err_fd = unlinkedTempFile();
  int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  std::vector<std::string> argv_strings{hashlineBinary()};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : argv_strings)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, null_fd, 0);
  ::posix_spawn_file_actions_adddup2(&actions, child.out_fd, 1);
  ::posix_spawn_file_actions_adddup2(&actions, child.err_fd, 2);
  ::posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  if (::posix_spawn(&child.pid, argv[0], &actions, nullptr, argv.data(), environ) != 0)
    child.pid = -1;
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(null_fd);
  return child;
}

CliOutcome finish(Child& child, bool sent_kill) {
  CliOutcome outcome;
  int status = 0;
  if (child.pid > 0) {
    while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  outcome.killed = sent_kill && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  if (WIFEXITED(status))
    outcome.exit_code = WEXITSTATUS(status);
  else if (!outcome.killed && WIFSIGNALED(status))
    outcome.exit_code = 128 + WTERMSIG(status);
  if (!outcome.killed) {
    outcome.out = drain(child.out_fd);
    outcome.err = drain(child.err_fd);
  }
  ::close(child.out_fd);
  ::close(child.err_fd);
  return outcome;
}

} // namespace

CliOutcome runCli(const std::vector<std::string>& args, const std::string& cwd) {
  Child child = start(args, cwd);
  return finish(child, false);
}

CliOutcome runCliKilledAfter(const std::vector<std::string>& args, const std::string& cwd,
                             std::chrono::microseconds delay) {
  Child child = start(args, cwd);
  std::this_thread::sleep_for(delay);
  if (child.pid > 0) ::kill(child.pid, SIGKILL);
  return finish(child, true);
}

CliOutcome runCliWatchingWrites(const std::vector<std::string>& args, const std::string& cwd,
                                const std::string& watched_dir,
                                const std::vector<std::string>& names,
                                std::optional<std::chrono::microseconds> kill_delay) {
  // Started before the child, so its first write cannot be missed.
  WriteDetector detector(watched_dir, names);
  if (!detector.error().empty()) {
    CliOutcome failed;
    failed.err = detector.error();
    return failed;
  }
  const auto started = std::chrono::steady_clock::now();
  std::optional<std::chrono::microseconds> first_write;
  auto seen = [&] {
    first_write = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - started);
  };
  Child child = start(args, cwd);
  while (child.pid > 0 && !first_write) {
    if (detector.waitForWrite(std::chrono::milliseconds(5))) {
      seen(); // the kill's delay counts from here
      break;
    }
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(child.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == child.pid) {
      // It ended: take the changes it made since the last look, then stop.
      if (detector.collectAfterExit()) seen();
      break;
    }
  }
  const bool kill = first_write && kill_delay;
  if (kill) {
    std::this_thread::sleep_for(*kill_delay);
    ::kill(child.pid, SIGKILL);
  }
  CliOutcome outcome = finish(child, kill);
  outcome.first_write = first_write;
  return outcome;
}

} // namespace hashline::test
