// `hashline acp`: options, the agent, the proxy loop; see acp_command.h.
#include "lsp/acp/acp_command.h"

#include "lsp/acp/acp_message.h"
#include "lsp/acp/agent_process.h"
#include "lsp/acp/proxy_core.h"
#include "lsp/acp/proxy_loop.h"
#include "lsp/cli/arguments.h"
#include "lsp/disk/workspace_roots.h"
#include "lsp/platform/process.h"
#include "lsp/support/log.h"
#include "lsp/transport/line_framing.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace hashline::cli {

namespace {

constexpr const char* kUsage =
    "usage: hashline acp [options] -- AGENT [ARGS...]\n"
    "An Agent Client Protocol proxy: configure the editor's ACP agent command as\n"
    "`hashline acp -- AGENT ARGS` (e.g. `hashline acp -- gemini --acp`). It starts the agent and\n"
    "passes every message through unchanged, except: `initialize` tells the agent the client\n"
    "reads and writes files; `session/new|load|resume` add hashline's MCP server; the agent's\n"
    "fs/read_text_file is answered from the live editor buffer (unsaved text) or the disk, and\n"
    "its fs/write_text_file becomes a hashline edit merged with the user's typing (journaled\n"
    "under the agent's name and the ACP session, undoable; an overlap with the typing is refused\n"
    "to the agent, nothing written). Edited buffers are not saved. See docs/acp.md.\n\n"
    "options:\n"
    "  --agent NAME          the agent's name in the journal (default: its agentInfo)\n"
    "  --workspace DIR       workspace for sessions without a cwd (default: the current dir)\n"
    "  --no-mcp              do not add hashline's MCP server to sessions\n"
    "  --max-write-bytes N   refuse fs/write_text_file content over N bytes (default 16M)\n"
    "  --max-message-bytes N answer lines over N bytes with an error (default 64M)\n"
    "  --handshake-timeout S answer initialize/session setup the agent leaves unanswered for\n"
    "                        S seconds with an error (default 120; 0: wait forever)\n"
    "  --log-level L         error, warn (default), info or debug; the log goes to stderr\n"
    "  -h, --help            show this help\n";

bool sizeOption(Arguments& args, const char* name, std::size_t& out, std::string& problem) {
  std::string value;
  if (!args.option(name, value)) return false;
  auto parsed = parseByteSize(value);
  if (!parsed)
    problem = std::string("invalid ") + name + " '" + value + "'";
  else
    out = *parsed;
  return true;
}

/// With no agent: the client's first request (its `initialize`) gets the error, so the editor
/// shows why instead of "the agent exited".
void answerFirstRequest(const std::string& message) {
  lsp::LineParser parser;
  char buffer[64 << 10];
  for (;;) {
    ssize_t got = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;
    parser.feed(std::string_view(buffer, static_cast<std::size_t>(got)));
    for (lsp::FrameEvent event = parser.next(); event.kind != lsp::FrameEvent::NeedMore;
         event = parser.next()) {
      acp::AcpMessage request = acp::readAcpLine(event.body);
      if (request.kind != acp::MessageKind::Request) continue;
      std::string line = acp::errorLine(request.id, -32603, message) + "\n";
      ssize_t ignored = ::write(STDOUT_FILENO, line.data(), line.size());
      (void)ignored;
      return;
    }
  }
}

} // namespace

int runAcpCommand(std::vector<std::string> raw) {
  Arguments args(std::move(raw));
  acp::ProxyOptions proxy;
  acp::LoopOptions loop;
  std::string workspace, agent, log_level = "warn", timeout, problem;
  std::vector<std::string> command;
  while (!args.done() && problem.empty() && args.error.empty()) {
    if (args.flag("-h") || args.flag("--help")) return subcommandUsage("acp", kUsage, "help");
    if (args.flag("--")) {
      while (!args.done())
        command.push_back(args.take());
      break;
    }
    if (args.flag("--no-mcp")) {
      proxy.inject_mcp = false;
      continue;
    }
    if (args.option("--workspace", workspace) || args.option("--agent", agent) ||
        args.option("--log-level", log_level) || args.option("--handshake-timeout", timeout) ||
        sizeOption(args, "--max-write-bytes", loop.files.max_write_bytes, problem) ||
        sizeOption(args, "--max-message-bytes", loop.max_message_bytes, problem))
      continue;
    if (args.peek().rfind("-", 0) == 0) {
      problem = "unknown option '" + args.peek() + "'";
      break;
    }
    while (!args.done()) // the agent's command without `--`
      command.push_back(args.take());
  }
  if (problem.empty()) problem = args.error;
  if (problem.empty() && command.empty()) problem = "missing the agent command (-- AGENT ARGS)";
  if (!timeout.empty()) {
    auto seconds = parseInteger(timeout);
    if (!seconds || *seconds < 0)
      problem = "invalid --handshake-timeout '" + timeout + "' (whole seconds)";
    else
      loop.handshake_timeout = std::chrono::seconds(*seconds);
  }
  auto level = log::levelFromName(log_level);
  if (problem.empty() && !level) problem = "unknown log level '" + log_level + "'";
  if (!problem.empty()) return subcommandUsage("acp", kUsage, problem);
  log::setLevel(*level);

  auto cwd = disk::currentDirectory();
  std::string base = cwd ? *cwd : std::string("/");
  if (workspace.empty())
    if (const char* value = std::getenv("HASHLINE_WORKSPACE"); value && *value) workspace = value;
  if (workspace.empty()) workspace = base;
  auto real = disk::resolveRealPath(workspace, base);
  proxy.workspace = real ? *real : workspace;
  if (!agent.empty()) proxy.agent_name = agent;
  proxy.hashline_binary = acp::currentExecutablePath();
  proxy.new_session_prefix = "acp-" + std::to_string(platform::currentProcessId());

  platform::ignoreBrokenPipe(); // a vanished reader is a write error, not a kill
  std::string error;
  std::optional<acp::AgentProcess> process = acp::startAgent(command, error);
  if (!process) {
    std::fprintf(stderr, "hashline acp: cannot start the agent: %s\n", error.c_str());
    answerFirstRequest("hashline acp: cannot start the agent: " + error +
                       " (check the command after `--`)");
    return 127;
  }
  acp::ProxyCore core(proxy);
  int code = acp::runProxyLoop(core, *process, loop);
  // The file worker may still wait on an editor: end the process without joining it.
  std::fflush(nullptr);
  std::_Exit(code);
}

} // namespace hashline::cli
