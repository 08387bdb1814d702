// PipedProcess: spawn, the pipes, the exit status and the log; see piped_process.h.
#include "tests/lsp/support/piped_process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace hashline::test {

namespace {
int exitCodeOf(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
} // namespace

PipedProcess::PipedProcess(const std::vector<std::string>& argv, const std::string& cwd,
                           const Environment& env) {
  ::signal(SIGPIPE, SIG_IGN); // a dead child must fail a write, not kill the test
  char log_template[] = "/tmp/hashline-test-log-XXXXXX";
  int log_fd = ::mkstemp(log_template);
  log_path_ = log_template;
  int in_pipe[2], out_pipe[2];
  if (argv.empty() || ::pipe2(in_pipe, O_CLOEXEC) != 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "cannot start a child: "
                  << (argv.empty() ? "no program" : std::strerror(errno));
    if (log_fd >= 0) ::close(log_fd);
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());

  std::vector<std::string> args_strings = argv;
  std::vector<char*> args;
  for (std::string& arg : args_strings)
    args.push_back(arg.data());
  args.push_back(nullptr);
  std::vector<std::string> environment; // the added variables first: getenv takes the first
  for (const auto& [name, value] : env)
    environment.push_back(name + "=" + value);
  for (char** entry = environ; *entry; ++entry)
    environment.emplace_back(*entry);
  std::vector<char*> envp;
  for (std::string& entry : environment)
    envp.push_back(entry.data());
  envp.push_back(nullptr);

  int error = ::posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(log_fd);
  to_child_ = in_pipe[1];
  from_child_ = out_pipe[0];
  if (error != 0) {
    ADD_FAILURE() << "cannot start " << argv[0] << (cwd.empty() ? "" : " in " + cwd) << ": "
                  << std::strerror(error);
    pid_ = -1;
  }
}

PipedProcess::~PipedProcess() {
  stop(std::chrono::seconds(5));
  if (from_child_ >= 0) ::close(from_child_);
  if (!log_path_.empty()) ::unlink(log_path_.c_str());
}

bool PipedProcess::write(std::string_view bytes) {
  if (to_child_ < 0) return false;
  while (!bytes.empty()) {
    ssize_t written = ::write(to_child_, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

void PipedProcess::closeInput() {
  if (to_child_ >= 0) ::close(to_child_);
  to_child_ = -1;
}

void PipedProcess::readUntilEnd(const std::function<void(std::string_view)>& chunk) {
  if (from_child_ < 0) return;
  char buffer[64 * 1024];
  for (;;) {
    ssize_t got = ::read(from_child_, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;
    chunk(std::string_view(buffer, static_cast<std::size_t>(got)));
  }
}

bool PipedProcess::running() {
  if (pid_ <= 0 || exit_code_) return false;
  int status = 0;
  pid_t done = ::waitpid(pid_, &status, WNOHANG);
  if (done == 0) return true;
  if (done == pid_) exit_code_ = exitCodeOf(status);
  return false;
}

std::optional<int> PipedProcess::waitForExit(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (running()) {
    if (std::chrono::steady_clock::now() > deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return exit_code_;
}

void PipedProcess::signal(int signal) {
  if (running()) ::kill(pid_, signal);
}

void PipedProcess::stop(std::chrono::milliseconds grace) {
  closeInput();
  if (!waitForExit(grace) && running()) {
    ::kill(pid_, SIGKILL);
    waitForExit(std::chrono::seconds(30));
  }
}

std::string PipedProcess::log() const {
  std::ifstream in(log_path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace hashline::test
