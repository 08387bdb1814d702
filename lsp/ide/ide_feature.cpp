// Wiring of Claude Code's IDE integration into `hashline lsp`; see ide_feature.h.
#include "lsp/ide/ide_feature.h"

#include "lsp/cli/arguments.h"
#include "lsp/disk/disk_file.h"
#include "lsp/ide/ide_handshake.h"
#include "lsp/ide/ide_lock_file.h"
#include "lsp/ide/ide_open_diff.h"
#include "lsp/ide/ide_protocol.h"
#include "lsp/ide/ide_server.h"
#include "lsp/server/lsp_server.h"
#include "lsp/support/log.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace hashline::lsp {

namespace {

/// Unlinks the lock file at process exit, however `run()` ended (the token must not outlive us).
struct LockFileCleanup {
  std::string path;
  ~LockFileCleanup() {
    if (!path.empty()) ::unlink(path.c_str());
  }
};

LockFileCleanup& lockFileCleanup() {
  static LockFileCleanup cleanup;
  return cleanup;
}

bool wanted(const InitializeParams& params) {
  const auto& options = params.initializationOptions;
  if (options.is_object() && options.contains("claudeIde") && options["claudeIde"].is_boolean())
    return options["claudeIde"].get<bool>();
  const char* value = std::getenv("HASHLINE_CLAUDE_IDE");
  return value && (std::string(value) == "1" || std::string(value) == "true");
}

std::size_t maxMessageBytes() {
  std::size_t bytes = std::size_t{16} << 20;
  if (const char* value = std::getenv("HASHLINE_CLAUDE_IDE_MAX_MESSAGE_BYTES"))
    if (auto parsed = cli::parseByteSize(value)) bytes = *parsed;
  return bytes;
}

// What the feature keeps for the life of the process.
struct ClaudeIde {
  std::unique_ptr<IdeOpenDiff> diffs;
  std::unique_ptr<IdeProtocol> protocol;
  std::unique_ptr<IdeServer> server;
  IdeLockInfo lock;
  std::string directory;

  void publish() {
    Result<std::string> written = writeIdeLockFile(directory, lock);
    if (!written) return log::error("claude ide: ", written.error().message);
    lockFileCleanup().path = *written;
  }
};

// Whether the editor's buffer for `path` differs from the file on disk (nullopt: not open).
std::optional<bool> bufferDiffersFromDisk(const LspServer& server, const std::string& path) {
  const OpenDocument* open = server.documents().findByPath(path);
  if (open == nullptr) return std::nullopt;
  auto disk = disk::readFileBytes(path);
  return !disk || open->document.text().toString() != disk->bytes;
}

} // namespace

void registerClaudeIde(LspServer& server, HashlineService& service) {
  // Never destroyed, like the agent endpoint: connections may hold replies until the io_context
  // stops, and the io_context dies before static destructors run.
  static auto& ide = *new ClaudeIde();
  server.onInitialize([&server, &service](const InitializeParams& params, nlohmann::json&) {
    if (!wanted(params)) return;
    ide.directory = claudeIdeDirectory();
    if (std::size_t swept = sweepStaleIdeLockFiles(ide.directory); swept > 0)
      log::info("claude ide: swept ", swept, " stale lock file(s) in ", ide.directory);
    std::string token = makeIdeAuthToken();
    if (token.empty()) return log::error("claude ide: no random bytes for a token; not started");
    ide.diffs = std::make_unique<IdeOpenDiff>(server, service);
    ide.protocol = std::make_unique<IdeProtocol>(
        service, [&server] { return server.workspaceRoots(); }, ide.diffs.get(),
        [&server](const std::string& path) { return bufferDiffersFromDisk(server, path); });
    ide.server = std::make_unique<IdeServer>(server.io(), *ide.protocol, token, maxMessageBytes());
    Result<int> port = ide.server->listen();
    if (!port) return log::error("claude ide: ", port.error().message);
    ide.lock = {*port, static_cast<std::int64_t>(::getpid()), server.workspaceRoots(), token};
    ide.publish();
    log::info("claude ide: listening on 127.0.0.1:", *port, ", lock file ", lockFileCleanup().path);
  });
  server.onRootsChanged([](const std::vector<std::string>& roots) {
    if (!ide.server) return;
    ide.lock.workspace_folders = roots;
    ide.publish();
  });
}

} // namespace hashline::lsp
