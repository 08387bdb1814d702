// `hashline mcp [--workspace DIR] [--session ID] [--agent NAME] [--log-level L] [--tools LIST]
// [--max-message-bytes N]`: the MCP server on stdin/stdout (mcp_server.h). Registered in
// lsp/cli/subcommands.cpp.
#pragma once

#include <string>
#include <vector>

namespace hashline::cli {

int runMcpCommand(std::vector<std::string> args);

} // namespace hashline::cli
