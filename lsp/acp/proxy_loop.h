// The I/O half of `hashline acp`: one poll loop between the client (the proxy's stdin/stdout)
// and the agent's pipes. Reads are split into lines (lsp/transport/line_framing.h, oversized
// lines skipped without buffering), handed to the ProxyCore, and what it produces is queued per
// destination and written without blocking, so neither side can stall the other; reading from a
// side stops while the other side's queue is over a few MB (back-pressure). fs/* calls go to the
// FileWorker and its answers are queued to the agent.
//
// Endings (none hangs, and the agent's process group never outlives the proxy):
// - the agent exits or closes its output: pending client requests get an error, the queue to
//   the client is flushed (bounded), the group is ended; the proxy exits with the agent's code;
// - the client closes its output (stdin EOF): the agent's stdin is closed after its queue is
//   flushed and the agent gets `exit_grace` to exit before its group is ended; exit 0;
// - the client stops reading (stdout broken) or SIGTERM / SIGINT / SIGHUP: the group is ended.
// Handshake requests the agent leaves unanswered past `handshake_timeout` get an error.
//
// Threading: runs on the calling (main) thread until the proxy ends.
#pragma once

#include "lsp/acp/agent_process.h"
#include "lsp/acp/file_bridge.h"
#include "lsp/acp/proxy_core.h"

#include <chrono>
#include <cstddef>

namespace hashline::acp {

struct LoopOptions {
  std::size_t max_message_bytes = std::size_t{64} << 20;
  std::chrono::milliseconds handshake_timeout{120'000}; // 0: none
  std::chrono::milliseconds exit_grace{3'000};
  FileBridgeOptions files;
};

/// Runs the proxy until one side is gone; returns the process exit code.
int runProxyLoop(ProxyCore& core, AgentProcess agent, const LoopOptions& options);

} // namespace hashline::acp
