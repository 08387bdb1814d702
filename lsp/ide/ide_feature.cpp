// Wiring of Claude Code's IDE integration into `hashline lsp`; see ide_feature.h.
#include "lsp/ide/ide_feature.h"

#include "lsp/cli/arguments.h"
#include "lsp/disk/disk_file.h"
#include "lsp/ide/ide_handshake.h"
#include "lsp/ide/ide_lock_file.h"
#include "lsp/ide/ide_open_diff.h"
#include "lsp/ide/ide_protocol.h"
#include "lsp/ide/ide_server.h"
#include "lsp/platform/process.h"
#include "lsp/server/lsp_server.h"
#include "lsp/service/hashline_service.h"
#include "lsp/support/log.h"
#include "lsp/support/uri.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
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
  std::unique_ptr<IdeEditorTools> editor_tools;
  std::unique_ptr<IdeProtocol> protocol;
  std::unique_ptr<IdeServer> server;
  IdeLockInfo lock;
  std::string directory;

  void publish() {
    Result<std::string> written = writeIdeLockFile(directory, lock);
    if (!written) return log::error("claude ide: ", written.error().message);
    lockFileCleanup().path = *written;
  }

  /// What `hashline status` and the editor's status item show: whether the server is on, where,
  /// and which Claude Codes are connected.
  nlohmann::json state() const {
    if (!server) return {{"enabled", false}};
    return {{"enabled", true},
            {"port", lock.port},
            {"lockFile", lockFileCleanup().path},
            {"clients", protocol->connectedClients()}};
  }
};

// The length of UTF-8 `text` in UTF-16 code units.
std::size_t utf16Units(const std::string& text) {
  std::size_t units = 0;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) != 0x80) units += byte >= 0xF0 ? 2 : 1; // a lead byte; 4-byte: a pair
  }
  return units;
}

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
    ide.editor_tools = std::make_unique<IdeEditorTools>(server);
    ide.protocol = std::make_unique<IdeProtocol>(
        service, [&server] { return server.workspaceRoots(); }, ide.diffs.get(),
        [&server](const std::string& path) { return bufferDiffersFromDisk(server, path); },
        ide.editor_tools.get());
    ide.server = std::make_unique<IdeServer>(server.io(), *ide.protocol, token, maxMessageBytes());
    Result<int> port = ide.server->listen();
    if (!port) return log::error("claude ide: ", port.error().message);
    ide.lock = {*port, platform::currentProcessId(), server.workspaceRoots(), token};
    ide.publish();
    log::info("claude ide: listening on 127.0.0.1:", *port, ", lock file ", lockFileCleanup().path);
    ide.protocol->onClientsChanged([&server] { server.notify("hashline/claudeIde", ide.state()); });
  });
  // The editor learns the state once it may be sent notifications, then on every change.
  server.onInitialized([&server] {
    if (ide.server) server.notify("hashline/claudeIde", ide.state());
  });
  service.addStatusField("claudeIde", [] { return ide.state(); });
  // The user sends lines to Claude Code (Neovim :HashlineSendToClaude, VS Code's command): an
  // at_mentioned notification to every connected Claude Code, as its IDE extensions send.
  server.methods().addCommand("hashline.sendToClaude", [&server](nlohmann::json arguments,
                                                                 Reply reply) {
    const nlohmann::json args =
        arguments.is_array() && !arguments.empty() ? arguments[0] : arguments;
    if (!args.is_object() || !args.contains("uri") || !args["uri"].is_string())
      return reply.error(RpcErrorCode::InvalidParams,
                         "invalid params for hashline.sendToClaude: expected {uri, from?, to?}");
    auto line = [&args](const char* name) -> std::optional<std::int64_t> {
      auto it = args.find(name);
      if (it == args.end() || !it->is_number_integer() || it->get<std::int64_t>() < 1)
        return std::nullopt;
      return it->get<std::int64_t>();
    };
    const std::optional<std::string> path = fileUriToPath(args["uri"].get<std::string>());
    if (!path || !server.documents().findByPath(*path))
      return reply.result({{"status", "refused"},
                           {"error",
                            {{"code", "FILE_NOT_FOUND"},
                             {"message", "the document is not open in the editor"},
                             {"hint", "send lines of a file open in the editor"}}}});
    if (!ide.server)
      return reply.result(
          {{"status", "ok"},
           {"sent", 0},
           {"note", "the Claude IDE server is off: turn it on (Neovim: setup{ claude_ide = "
                    "true }; VS Code: hashline.claudeIde; or hashline lsp --claude-ide), then "
                    "start Claude Code with hashline claude"}});
    nlohmann::json params = {{"filePath", *path}};
    const std::optional<std::int64_t> from = line("from"), to = line("to");
    if (from) params["lineStart"] = *from - 1; // 0-based, as Claude Code's IDE extensions send
    if (to) params["lineEnd"] = std::max(*to, from.value_or(*to)) - 1;
    // First the lines as the selection (Claude Code shows it and takes its text), then the
    // mention itself.
    const OpenDocument* open = server.documents().findByPath(*path);
    const Rope& text = open->document.text();
    const std::size_t last_line = text.lineCount() - 1;
    const std::size_t first = std::min<std::size_t>(from ? *from - 1 : 0, last_line);
    const std::size_t last =
        std::min<std::size_t>(to ? std::max(*to, from.value_or(*to)) - 1 : last_line, last_line);
    const std::size_t begin = text.lineStartByte(first), end = text.lineEndByte(last);
    constexpr std::size_t kMaxSelectionBytes = 64 * 1024;
    std::string selected = text.slice(begin, std::min(end, begin + kMaxSelectionBytes));
    if (end > begin + kMaxSelectionBytes) // cut: never inside a UTF-8 sequence
      while (!selected.empty() && (static_cast<unsigned char>(selected.back()) & 0xC0) == 0x80)
        selected.pop_back();
    if (end > begin + kMaxSelectionBytes && !selected.empty() &&
        static_cast<unsigned char>(selected.back()) >= 0xC0)
      selected.pop_back(); // the lead byte of the cut sequence
    // The end at the last line's end (UTF-16 units, as VS Code counts): Claude Code reads an
    // end at character 0 as stopping before that line.
    const std::size_t last_line_units = utf16Units(text.slice(text.lineStartByte(last), end));
    nlohmann::json selection = {{"text", std::move(selected)},
                                {"filePath", *path},
                                {"fileUrl", open->uri},
                                {"selection",
                                 {{"start", {{"line", first}, {"character", 0}}},
                                  {"end", {{"line", last}, {"character", last_line_units}}},
                                  {"isEmpty", false}}}};
    ide.server->broadcast(
        {{"jsonrpc", "2.0"}, {"method", "selection_changed"}, {"params", std::move(selection)}});
    const std::size_t sent =
        ide.server->broadcast({{"jsonrpc", "2.0"}, {"method", "at_mentioned"}, {"params", params}});
    log::info("claude ide: at_mentioned ", *path, " to ", sent, " connection(s)");
    nlohmann::json result = {{"status", "ok"}, {"sent", sent}};
    if (sent == 0)
      result["note"] =
          "no Claude Code is connected: start it in this workspace with hashline claude";
    reply.result(std::move(result));
  });
  server.onRootsChanged([](const std::vector<std::string>& roots) {
    if (!ide.server) return;
    ide.lock.workspace_folders = roots;
    ide.publish();
  });
}

} // namespace hashline::lsp
