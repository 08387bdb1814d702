// `hashline acp [options] -- AGENT [ARGS...]`: the ACP proxy an editor launches instead of the
// agent (docs/acp.md). Parses the options, starts the agent (agent_process.h) and runs the proxy
// (proxy_core.h, proxy_loop.h) until one side is gone. Exit: the agent's exit code when it
// ended, 0 when the client left, 2 usage, 127 when the agent cannot be started.
#pragma once

#include <string>
#include <vector>

namespace hashline::cli {

int runAcpCommand(std::vector<std::string> args);

} // namespace hashline::cli
