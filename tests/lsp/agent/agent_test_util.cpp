// Helpers for the agent tests; see agent_test_util.h.
#include "agent_test_util.h"

#include "lsp/transport/framing.h"
#include "tests/lsp/support/hashline_binary.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <poll.h>
#include <spawn.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace hashline::test {

namespace fs = std::filesystem;
using nlohmann::json;

AgentSandbox::AgentSandbox() {
  char pattern[] = "/tmp/hashline-agent-test-XXXXXX";
  char* made = ::mkdtemp(pattern);
  root_ = made ? made : "/tmp/hashline-agent-test-failed";
  // Canonical, so paths compare equal to what realpath gives.
  root_ = fs::canonical(root_).string();
  fs::create_directories(workspace());
  fs::create_directories(state());
  fs::create_directories(outside());
  fs::create_directories(runtime());
  ::chmod(runtime().c_str(), 0700);
  ::setenv("HASHLINE_STATE_DIR", state().c_str(), 1);
  ::setenv("HASHLINE_RUNTIME_DIR", runtime().c_str(), 1);
  ::unsetenv("HASHLINE_WORKSPACE");
  ::unsetenv("HASHLINE_SESSION");
  ::unsetenv("HASHLINE_AGENT_SOCKET");
  ::unsetenv("HASHLINE_NO_SIDECAR");
}

AgentSandbox::~AgentSandbox() {
  std::error_code ignored;
  fs::remove_all(root_, ignored);
}

std::string AgentSandbox::write(const std::string& path, const std::string& bytes) const {
  std::string full = path[0] == '/' ? path : workspace() + "/" + path;
  fs::create_directories(fs::path(full).parent_path());
  std::ofstream out(full, std::ios::binary | std::ios::trunc);
  out << bytes;
  return full;
}

std::string AgentSandbox::read(const std::string& path) const {
  std::string full = path[0] == '/' ? path : workspace() + "/" + path;
  std::ifstream in(full, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

json CliRun::json() const {
  return json::parse(out, nullptr, false);
}

namespace {

std::string drain(int fd) {
  std::string text;
  char buffer[65536];
  for (;;) {
    ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
  }
  return text;
}

pid_t spawn(const std::vector<std::string>& args, const std::string& cwd, int in_fd, int out_fd,
            int err_fd) {
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in_fd, 0);
    ::dup2(out_fd, 1);
    ::dup2(err_fd, 2);
    if (::chdir(cwd.c_str()) != 0) ::_exit(126);
    std::vector<std::string> storage = {hashlineBinary()};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& arg : storage)
      argv.push_back(arg.data());
    argv.push_back(nullptr);
    ::execv(hashlineBinary(), argv.data());
    ::_exit(127);
  }
  return pid;
}

int exitCodeOf(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

} // namespace

CliRun runHashline(const std::vector<std::string>& args, const std::string& cwd,
                   const std::string& input) {
  // stdout/stderr go to temp files: no pipe deadlock, whatever the sizes.
  char out_name[] = "/tmp/hashline-cli-out-XXXXXX";
  char err_name[] = "/tmp/hashline-cli-err-XXXXXX";
  char in_name[] = "/tmp/hashline-cli-in-XXXXXX";
  int out_fd = ::mkstemp(out_name), err_fd = ::mkstemp(err_name), in_fd = ::mkstemp(in_name);
  (void)!::write(in_fd, input.data(), input.size());
  ::lseek(in_fd, 0, SEEK_SET);
  pid_t pid = spawn(args, cwd, in_fd, out_fd, err_fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  CliRun run;
  run.exit_code = exitCodeOf(status);
  ::lseek(out_fd, 0, SEEK_SET);
  ::lseek(err_fd, 0, SEEK_SET);
  run.out = drain(out_fd);
  run.err = drain(err_fd);
  for (int fd : {out_fd, err_fd, in_fd})
    ::close(fd);
  for (const char* name : {out_name, err_name, in_name})
    ::unlink(name);
  return run;
}

BackgroundCli::BackgroundCli(const std::vector<std::string>& args, const std::string& cwd) {
  char out_name[] = "/tmp/hashline-cli-out-XXXXXX";
  char err_name[] = "/tmp/hashline-cli-err-XXXXXX";
  out_fd_ = ::mkstemp(out_name);
  err_fd_ = ::mkstemp(err_name);
  ::unlink(out_name);
  ::unlink(err_name);
  int null_fd = ::open("/dev/null", O_RDONLY);
  pid_ = spawn(args, cwd, null_fd, out_fd_, err_fd_);
  ::close(null_fd);
}

BackgroundCli::~BackgroundCli() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (out_fd_ >= 0) ::close(out_fd_);
  if (err_fd_ >= 0) ::close(err_fd_);
}

CliRun BackgroundCli::wait() {
  CliRun run;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  run.exit_code = exitCodeOf(status);
  ::lseek(out_fd_, 0, SEEK_SET);
  ::lseek(err_fd_, 0, SEEK_SET);
  run.out = drain(out_fd_);
  run.err = drain(err_fd_);
  return run;
}

McpProcess::McpProcess(const std::vector<std::string>& args, const std::string& cwd) {
  int to_child[2], from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0 || ::pipe2(from_child, O_CLOEXEC) != 0) return;
  char err_name[] = "/tmp/hashline-mcp-err-XXXXXX";
  err_fd_ = ::mkstemp(err_name);
  ::unlink(err_name);
  std::vector<std::string> full = {"mcp"};
  full.insert(full.end(), args.begin(), args.end());
  pid_ = spawn(full, cwd, to_child[0], from_child[1], err_fd_);
  ::close(to_child[0]);
  ::close(from_child[1]);
  in_fd_ = to_child[1];
  out_fd_ = from_child[0];
}

McpProcess::~McpProcess() {
  if (in_fd_ >= 0) ::close(in_fd_);
  if (pid_ > 0) {
    for (int waited = 0; waited < 3000; ++waited) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  if (out_fd_ >= 0) ::close(out_fd_);
  if (err_fd_ >= 0) ::close(err_fd_);
}

void McpProcess::send(int id, const std::string& method, const json& params) {
  std::string line =
      json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump() + "\n";
  EXPECT_TRUE(::write(in_fd_, line.data(), line.size()) == static_cast<ssize_t>(line.size()));
}

json McpProcess::waitResponse(int id) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (;;) {
    for (std::size_t end; (end = buffered_.find('\n')) != std::string::npos;) {
      json message = json::parse(buffered_.substr(0, end), nullptr, false);
      buffered_.erase(0, end + 1);
      if (message.is_object() && message.value("id", json()) == json(id)) return message;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return json();
    pollfd entry{out_fd_, POLLIN, 0};
    if (::poll(&entry, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[65536];
    ssize_t got = ::read(out_fd_, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return json();
    buffered_.append(chunk, static_cast<std::size_t>(got));
  }
}

json McpProcess::call(int id, const std::string& method, const json& params) {
  send(id, method, params);
  return waitResponse(id);
}

void McpProcess::initialize() {
  json answer = call(0, "initialize",
                     {{"protocolVersion", "2025-06-18"},
                      {"capabilities", json::object()},
                      {"clientInfo", {{"name", "test-agent"}, {"version", "1"}}}});
  EXPECT_TRUE(answer.contains("result")) << answer.dump();
  std::string line =
      json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump() + "\n";
  EXPECT_TRUE(::write(in_fd_, line.data(), line.size()) == static_cast<ssize_t>(line.size()));
}

json McpProcess::tool(int id, const std::string& name, const json& arguments) {
  return call(id, "tools/call", {{"name", name}, {"arguments", arguments}});
}

std::string mcpRequestLine(std::int64_t id, const std::string& method, const json& params) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump() + "\n";
}

std::string mcpInitializeLine(std::int64_t id, const std::string& client,
                              const std::string& version) {
  return mcpRequestLine(id, "initialize",
                        {{"protocolVersion", version},
                         {"capabilities", json::object()},
                         {"clientInfo", {{"name", client}, {"version", "1"}}}});
}

std::string mcpInitializedLine() {
  return json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}.dump() + "\n";
}

std::int64_t deadPid() {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

std::string writeDiscoveryRecord(const AgentSandbox& sandbox, std::int64_t pid,
                                 std::int64_t editor_pid, std::string socket) {
  if (socket.empty()) socket = sandbox.runtime() + "/sidecar-" + std::to_string(pid) + ".sock";
  json record = {{"pid", pid},
                 {"roots", {sandbox.workspace()}},
                 {"socket", socket},
                 {"version", "test"},
                 {"started", "2026-01-01T00:00:00Z"}};
  if (editor_pid > 0) record["editorPid"] = editor_pid;
  return sandbox.write(sandbox.runtime() + "/sidecar-" + std::to_string(pid) + ".json",
                       record.dump());
}

int connectUnix(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool writeAll(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t wrote = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return false;
    sent += static_cast<std::size_t>(wrote);
  }
  return true;
}

std::optional<std::string> readFrame(int fd) {
  lsp::FrameParser parser;
  char buffer[65536];
  for (;;) {
    lsp::FrameEvent event = parser.next();
    if (event.kind == lsp::FrameEvent::Message) return event.body;
    if (event.kind != lsp::FrameEvent::NeedMore) return std::nullopt;
    pollfd entry{fd, POLLIN, 0};
    if (::poll(&entry, 1, 30000) <= 0) return std::nullopt;
    ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got <= 0) return std::nullopt;
    parser.feed(std::string_view(buffer, static_cast<std::size_t>(got)));
  }
}

json socketCall(const std::string& socket_path, const std::string& method, const json& params) {
  int fd = connectUnix(socket_path);
  if (fd < 0) return nullptr;
  json request = {{"jsonrpc", "2.0"}, {"id", 7}, {"method", method}, {"params", params}};
  writeAll(fd, lsp::frameMessage(request.dump()));
  auto frame = readFrame(fd);
  ::close(fd);
  if (!frame) return nullptr;
  return json::parse(*frame, nullptr, false);
}

std::vector<std::string> waitForDiscoveryFiles(const std::string& runtime_dir, std::size_t count) {
  std::vector<std::string> found;
  for (int attempt = 0; attempt < 3000; ++attempt) {
    found.clear();
    if (DIR* dir = ::opendir(runtime_dir.c_str())) {
      while (dirent* entry = ::readdir(dir)) {
        std::string name = entry->d_name;
        if (name.rfind("sidecar-", 0) == 0 && name.size() > 5 &&
            name.compare(name.size() - 5, 5, ".json") == 0)
          found.push_back(runtime_dir + "/" + name);
      }
      ::closedir(dir);
      if (found.size() >= count) return found;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return found;
}

std::optional<std::string> waitForDiscoveryFile(const std::string& runtime_dir) {
  std::vector<std::string> found = waitForDiscoveryFiles(runtime_dir, 1);
  if (found.empty()) return std::nullopt;
  return found.back();
}

std::string applyDocumentEdit(std::string text, const nlohmann::json& edit, const std::string& uri,
                              std::int64_t& version) {
  const nlohmann::json* change = nullptr;
  if (edit.contains("documentChanges"))
    for (const auto& candidate : edit["documentChanges"])
      if (candidate["textDocument"]["uri"] == uri) change = &candidate;
  if (!change) {
    ADD_FAILURE() << "no edit of " << uri << " in " << edit.dump();
    return text;
  }
  version = (*change)["textDocument"]["version"];
  std::vector<nlohmann::json> edits((*change)["edits"].begin(), (*change)["edits"].end());
  auto offsetOf = [&text](const nlohmann::json& position) {
    std::size_t offset = 0;
    for (int line = 0; line < position["line"].get<int>(); ++line)
      offset = text.find('\n', offset) + 1;
    return offset + position["character"].get<std::size_t>();
  };
  std::sort(edits.begin(), edits.end(), [&](const nlohmann::json& a, const nlohmann::json& b) {
    return offsetOf(a["range"]["start"]) > offsetOf(b["range"]["start"]);
  });
  for (const auto& e : edits) {
    std::size_t start = offsetOf(e["range"]["start"]), end = offsetOf(e["range"]["end"]);
    text.replace(start, end - start, e["newText"].get<std::string>());
  }
  return text;
}

int modeOf(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return -1;
  return static_cast<int>(info.st_mode & 07777);
}

bool exists(const std::string& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0;
}

std::string fileUri(const std::string& path) {
  return "file://" + path;
}

} // namespace hashline::test
