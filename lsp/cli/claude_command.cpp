// The `claude` subcommand: Claude Code started against this workspace's sidecar; see
// claude_command.h.
#include "lsp/cli/claude_command.h"

#include "lsp/cli/arguments.h"
#include "lsp/disk/workspace_roots.h"
#include "lsp/ide/ide_lock_file.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace hashline::cli {

namespace {

constexpr const char* kUsage =
    "usage: hashline claude [--print-env] [--] [CLAUDE ARGS...]\n"
    "Starts Claude Code (`claude`, on PATH) in this workspace connected to the Claude IDE server\n"
    "of the hashline sidecar your editor runs here, so its IDE features (openDiff into your live\n"
    "buffer, selection, diagnostics) work without /ide: it sets CLAUDE_CODE_SSE_PORT and\n"
    "ENABLE_IDE_INTEGRATION=true, then runs `claude CLAUDE ARGS...`.\n"
    "  --print-env   print the two variables as shell exports instead (eval \"$(hashline claude\n"
    "                --print-env)\"), e.g. for a terminal that starts claude itself\n"
    "The sidecar serves the IDE protocol when the editor plugin asks for it (Neovim:\n"
    "setup{ claude_ide = true }; VS Code: hashline.claudeIde) or runs `hashline lsp\n"
    "--claude-ide`.\n"
    "Claude Code shows an edit in the editor (a review of your live buffer) only when it asks\n"
    "your permission for it: run it in its default permission mode (--permission-mode default);\n"
    "with --dangerously-skip-permissions it writes files itself, which hashline merges into\n"
    "the open buffers as a foreign write.\n";

bool holds(const std::string& folder, const std::string& directory) {
  if (folder.empty()) return false;
  if (directory == folder) return true;
  const std::string prefix = folder.back() == '/' ? folder : folder + "/";
  return directory.rfind(prefix, 0) == 0;
}

} // namespace

std::optional<int> ideServerPortFor(const std::string& ide_directory,
                                    const std::string& directory) {
  std::optional<int> best;
  std::size_t best_length = 0;
  for (const lsp::IdeLockInfo& lock : lsp::liveIdeLockFiles(ide_directory))
    for (const std::string& folder : lock.workspace_folders)
      if (holds(folder, directory) && (!best || folder.size() > best_length)) {
        best = lock.port;
        best_length = folder.size();
      }
  return best;
}

int runClaudeCommand(std::vector<std::string> args) {
  bool print_env = false;
  std::vector<std::string> passed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (passed.empty() && (arg == "-h" || arg == "--help"))
      return subcommandUsage("claude", kUsage, "help");
    if (passed.empty() && arg == "--print-env") {
      print_env = true;
      continue;
    }
    if (passed.empty() && arg == "--") {
      passed.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      break;
    }
    passed.push_back(arg); // everything else is Claude Code's
  }
  const std::string ide_directory = lsp::claudeIdeDirectory();
  Result<std::string> cwd = disk::currentDirectory();
  if (!cwd || ide_directory.empty()) {
    std::fprintf(stderr, "hashline claude: %s\n",
                 ide_directory.empty() ? "neither CLAUDE_CONFIG_DIR nor HOME is set"
                                       : cwd.error().message.c_str());
    return 1;
  }
  const std::optional<int> port = ideServerPortFor(ide_directory, *cwd);
  if (!port) {
    std::fprintf(stderr,
                 "hashline claude: no hashline sidecar serves Claude Code's IDE protocol for %s "
                 "(no live lock file of hashline in %s)\n"
                 "hint: open the workspace in your editor with hashline's claudeIde option on "
                 "(Neovim: setup{ claude_ide = true }; VS Code: hashline.claudeIde; or hashline "
                 "lsp --claude-ide), then run this again; hashline doctor shows what it finds\n",
                 cwd->c_str(), ide_directory.c_str());
    return 1;
  }
  if (print_env) {
    std::printf("export CLAUDE_CODE_SSE_PORT=%d\nexport ENABLE_IDE_INTEGRATION=true\n", *port);
    return 0;
  }
  ::setenv("CLAUDE_CODE_SSE_PORT", std::to_string(*port).c_str(), 1);
  ::setenv("ENABLE_IDE_INTEGRATION", "true", 1);
  std::vector<char*> argv;
  std::string program = "claude";
  argv.push_back(program.data());
  for (std::string& arg : passed)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  ::execvp(program.c_str(), argv.data());
  const int error = errno;
  std::fprintf(stderr, "hashline claude: cannot run claude: %s\n%s", std::strerror(error),
               error == ENOENT ? "hint: install Claude Code (npm install -g "
                                 "@anthropic-ai/claude-code) or put it on PATH\n"
                               : "");
  return error == ENOENT ? 127 : 126;
}

} // namespace hashline::cli
