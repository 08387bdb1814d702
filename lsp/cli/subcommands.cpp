// `hashline [--help|--version] <subcommand> ...`: finds the subcommand and runs it.
#include "lsp/cli/subcommands.h"

#include "lsp/acp/acp_command.h"
#include "lsp/cli/agent_commands.h"
#include "lsp/cli/claude_command.h"
#include "lsp/cli/context_command.h"
#include "lsp/cli/diagnostics_command.h"
#include "lsp/cli/doctor_command.h"
#include "lsp/cli/journal_commands.h"
#include "lsp/cli/lsp_command.h"
#include "lsp/cli/reconcile_commands.h"
#include "lsp/cli/search_command.h"
#include "lsp/cli/setup_command.h"
#include "lsp/mcp/mcp_command.h"
#include "lsp/version.h"

#include <cstdio>

namespace hashline::cli {

const std::vector<Subcommand>& subcommands() {
  static const std::vector<Subcommand> table = {
      {"lsp", "serve the Language Server Protocol on stdin/stdout (the editor starts this)",
       runLspCommand},
      {"read", "print a file as anchored rows LINE:LLL:BBB→text", runReadCommand},
      {"search", "find a regex or --literal in the workspace (open buffers live), as anchored rows",
       runSearchCommand},
      {"diagnostics", "the editor's diagnostics (its language servers, unsaved text) as rows",
       runDiagnosticsCommand},
      {"context", "the user's selection and visible files in the editor, as rows",
       runContextCommand},
      {"outline", "a file's symbols and their line spans, from the editor's language server",
       runOutlineCommand},
      {"edit", "apply anchored edits (replace, insert_after, insert_before, delete, write)",
       runEditCommand},
      {"replace", "replace a unique text (--old/--new) in a file", runReplaceCommand},
      {"headtail", "replace the span from a unique head line to the next tail line",
       runHeadTailCommand},
      {"range", "replace lines S..E as numbered at a version (--at V)", runRangeCommand},
      {"patch", "apply a codex-style patch (*** Begin Patch) from FILE or stdin", runPatchCommand},
      {"draft", "apply a lazy draft with '... existing code ...' elisions", runDraftCommand},
      {"ed", "run an ed-style script addressed by anchors or lines", runEdCommand},
      {"status", "show the sidecar or disk mode, roots, open documents", runStatusCommand},
      {"mcp", "serve the Model Context Protocol on stdin/stdout (agents start this)",
       runMcpCommand},
      {"acp", "run an ACP agent behind hashline: acp -- AGENT ARGS (the editor starts this)",
       runAcpCommand},
      {"log", "list the journal's ops (who changed what, per turn)", runLogCommand},
      {"diff", "show an op's diff, or a turn's net diff (--turn T)", runDiffCommand},
      {"undo", "reverse one op on the file as it is now (CONFLICT if its lines changed)",
       runUndoCommand},
      {"rewind", "reverse a turn (--turn T) or session, whole or one file (--path P)",
       runRewindCommand},
      {"turn", "begin a new turn of the session (turn begin|end|current)", runTurnCommand},
      {"pending", "list agent hunks not yet reviewed, where they are now", runPendingCommand},
      {"conflicts", "list disk writes kept out of open buffers (they overlap unsaved typing)",
       runConflictsCommand},
      {"resolve", "take the disk's side of a conflict (--take theirs) or keep yours (ours)",
       runResolveCommand},
      {"accept", "mark an op, hunk (OP#K) or turn reviewed", runAcceptCommand},
      {"reject", "reverse one hunk (OP#K), keeping everything else", runRejectCommand},
      {"claude", "start Claude Code connected to this workspace's sidecar as its IDE",
       runClaudeCommand},
      {"doctor", "check the install, agent registrations and the sidecar, with fixes",
       runDoctorCommand},
      {"setup",
       "register hashline with claude, codex, gemini, vscode-copilot, opencode, copilot, pi",
       runSetupCommand},
  };
  return table;
}

namespace {

void printHelp(std::FILE* out) {
  std::fprintf(out,
               "hashline %.*s - an LSP sidecar that lets agents edit live editor buffers through\n"
               "verified line anchors.\n\n"
               "usage: hashline <command> [options]\n"
               "       hashline <command> --help     options of one command\n\n"
               "commands:\n",
               static_cast<int>(programVersion().size()), programVersion().data());
  for (const auto& command : subcommands())
    std::fprintf(out, "  %-8.*s %.*s\n", static_cast<int>(command.name.size()), command.name.data(),
                 static_cast<int>(command.summary.size()), command.summary.data());
  std::fprintf(out, "\noptions:\n"
                    "  -h, --help     show this help\n"
                    "  --version      print the version\n");
}

} // namespace

int runCli(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  // Options written before the subcommand (e.g. `hashline --log-level debug lsp`) are handed
  // to the subcommand as if written after it.
  std::vector<std::string> leading;
  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      printHelp(stdout);
      return 0;
    }
    if (arg == "--version") {
      std::printf("hashline %.*s\n", static_cast<int>(programVersion().size()),
                  programVersion().data());
      return 0;
    }
    if (arg.rfind("-", 0) != 0) break;
    leading.push_back(arg);
    // A value-taking option written as `--name value`: keep the value with it.
    if (arg.find('=') == std::string::npos && i + 1 < args.size() &&
        args[i + 1].rfind("-", 0) != 0 &&
        (arg == "--log-file" || arg == "--log-level" || arg == "--max-message-bytes" ||
         arg == "--clientProcessId" || arg == "--session" || arg == "--agent" || arg == "--turn" ||
         arg == "--workspace"))
      leading.push_back(args[++i]);
  }
  if (i >= args.size()) {
    printHelp(stderr);
    return 2;
  }
  for (const auto& command : subcommands()) {
    if (command.name != args[i]) continue;
    std::vector<std::string> rest = leading;
    rest.insert(rest.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
    return command.run(std::move(rest));
  }
  std::fprintf(stderr, "hashline: unknown command '%s' (see hashline --help)\n", args[i].c_str());
  return 2;
}

} // namespace hashline::cli
