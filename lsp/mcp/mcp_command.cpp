// `hashline mcp`: arguments, then the server on a newline-framed stdio transport; see
// mcp_command.h.
#include "lsp/mcp/mcp_command.h"

#include "lsp/cli/arguments.h"
#include "lsp/mcp/mcp_server.h"
#include "lsp/platform/process.h"
#include "lsp/support/log.h"
#include "lsp/transport/stream_transport.h"

#include <boost/asio/io_context.hpp>
#include <cstdio>
#include <cstdlib>
#include <signal.h>
#include <unistd.h>

namespace hashline::cli {

namespace {

constexpr const char* kUsage =
    "usage: hashline mcp [options]\n"
    "Serves the Model Context Protocol on stdin/stdout (newline-delimited JSON-RPC); an agent\n"
    "starts it, e.g. `claude mcp add hashline -- hashline mcp`. Tools: hashline_read,\n"
    "hashline_edit, hashline_replace, hashline_headtail, hashline_range, hashline_patch,\n"
    "hashline_draft, hashline_ed, hashline_status. Calls go to the editor's `hashline lsp` whose\n"
    "workspace holds the file, else to the disk. Each call finds the sidecar afresh, so a\n"
    "restarted one is reached by itself; while an editor's sidecar is gone (died, or does not\n"
    "answer) edits are refused with SIDECAR_GONE and reads come from the disk with a warning.\n\n"
    "options:\n"
    "  --workspace DIR   workspace root for disk mode (default: $HASHLINE_WORKSPACE, else the\n"
    "                    nearest directory above the current one holding .git, else the current)\n"
    "  --session ID      the session the tools act as (default: $HASHLINE_SESSION, else \"mcp\")\n"
    "  --agent NAME      the agent's name in the journal (default: the client's name)\n"
    "  --log-level L     error, warn (default), info or debug; the log goes to stderr\n"
    "  --tools LIST      offer only these tools, e.g. read,edit,replace,patch (default: all)\n"
    "  --structured      tool results also carry the result object as structuredContent (for\n"
    "                    programs; agents hand it to the model beside or instead of the text)\n"
    "  --disk            when the editor's sidecar for the workspace is gone, work on the disk\n"
    "                    anyway instead of refusing edits with SIDECAR_GONE (the user's choice\n"
    "                    in the MCP configuration; the tools have no such argument)\n"
    "  --max-message-bytes N\n"
    "                    answer lines longer than N bytes with an error and skip them; K, M,\n"
    "                    G suffixes (default: 64M)\n"
    "  -h, --help        show this help\n";

} // namespace

int runMcpCommand(std::vector<std::string> raw) {
  Arguments args(std::move(raw));
  std::string workspace, session, agent, log_level = "warn", tools = "all", max_bytes;
  bool structured = false, disk = false;
  while (!args.done()) {
    if (args.flag("-h") || args.flag("--help")) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (args.flag("--structured")) {
      structured = true;
      continue;
    }
    if (args.flag("--disk")) {
      disk = true;
      continue;
    }
    if (args.option("--workspace", workspace) || args.option("--session", session) ||
        args.option("--agent", agent) || args.option("--log-level", log_level) ||
        args.option("--tools", tools) || args.option("--max-message-bytes", max_bytes))
      continue;
    std::fprintf(stderr, "hashline mcp: unknown argument '%s'\n\n%s", args.take().c_str(), kUsage);
    return 2;
  }
  if (!args.error.empty()) {
    std::fprintf(stderr, "hashline mcp: %s\n\n%s", args.error.c_str(), kUsage);
    return 2;
  }
  auto level = log::levelFromName(log_level);
  if (!level) {
    std::fprintf(stderr, "hashline mcp: unknown log level '%s'\n", log_level.c_str());
    return 2;
  }
  log::setLevel(*level);
  auto selection = mcp::parseToolSelection(tools);
  if (auto* problem = std::get_if<std::string>(&selection)) {
    std::fprintf(stderr, "hashline mcp: %s\n", problem->c_str());
    return 2;
  }
  lsp::FramingLimits limits;
  if (!max_bytes.empty()) {
    auto parsed = parseByteSize(max_bytes);
    if (!parsed) {
      std::fprintf(stderr, "hashline mcp: invalid --max-message-bytes '%s'\n\n%s",
                   max_bytes.c_str(), kUsage);
      return 2;
    }
    limits.max_body_bytes = *parsed;
  }
  platform::ignoreBrokenPipe(); // a vanished client is a write error, not a kill

  agent::RouterOptions options;
  if (!workspace.empty()) options.workspace = workspace;
  options.force_disk = disk;
  // Relative paths in tool calls are relative to the workspace root (as the tools say).
  options.base_dir = agent::AgentRouter(options).diskRoots().front();
  // A relative --workspace was taken against the current directory: keep it absolute, or the
  // router would take it again against base_dir.
  if (options.workspace) options.workspace = options.base_dir;
  mcp::ToolCaller caller;
  if (!session.empty())
    caller.session = session;
  else if (const char* value = std::getenv("HASHLINE_SESSION"); value && *value)
    caller.session = value;
  if (!agent.empty()) caller.agent = agent;
  boost::asio::io_context io;
  auto transport = lsp::makeStdioTransport(io, limits, lsp::Framing::Lines);
  // The protocol owns the (duplicated) stdout now; stray writes to fd 1 go to stderr instead.
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  mcp::McpServer server(io, std::move(transport), options, caller,
                        std::get<mcp::ToolSelection>(selection));
  if (!agent.empty()) server.keepAgentName();
  if (structured) server.offerStructuredContent();
  return server.run();
}

} // namespace hashline::cli
