// `hashline lsp [--log-file PATH] [--log-level L] [--max-message-bytes N] [--stdio]
//  [--clientProcessId PID] [--confirm] [--reconcile MODE] [--claude-ide]`: wires the stdio
//  transport, the server and its features.
#include "lsp/cli/lsp_command.h"

#include "lsp/cli/arguments.h"
#include "lsp/platform/memory_tuning.h"
#include "lsp/platform/process.h"
#include "lsp/reconcile/reconcile_options.h"
#include "lsp/server/features.h"
#include "lsp/server/lsp_server.h"
#include "lsp/support/log.h"
#include "lsp/transport/stream_transport.h"
#include "lsp/version.h"

#include <boost/asio/io_context.hpp>
#include <cstdio>
#include <cstdlib>
#include <signal.h>
#include <unistd.h>

namespace hashline::cli {

namespace {

constexpr const char* kUsage =
    "usage: hashline lsp [options]\n"
    "Serves the Language Server Protocol on stdin/stdout; the editor starts it.\n\n"
    "options:\n"
    "  --log-file PATH          append the log to PATH (default: stderr; never stdout)\n"
    "  --log-level LEVEL        error, warn, info or debug (default: info)\n"
    "  --max-message-bytes N    refuse messages larger than N bytes; K, M, G suffixes\n"
    "                           (default: 64M)\n"
    "  --clientProcessId PID    exit when process PID ends (as initialize's processId)\n"
    "  --confirm                send agent edits for the user's confirmation by default\n"
    "                           (as HASHLINE_CONFIRM_EDITS=1; initializationOptions.confirmEdits\n"
    "                           and each request's `confirm` win)\n"
    "  --reconcile MODE         off, clean or merge (default): foreign disk writes to open\n"
    "                           files become merged buffer edits (docs/reconcile.md; as\n"
    "                           HASHLINE_RECONCILE; initializationOptions.reconcile wins)\n"
    "  --claude-ide             serve Claude Code's IDE protocol (WebSocket on 127.0.0.1 and a\n"
    "                           lock file in $CLAUDE_CONFIG_DIR/ide; as HASHLINE_CLAUDE_IDE=1;\n"
    "                           initializationOptions.claudeIde wins; docs/claude-ide.md)\n"
    "  --stdio                  accepted for editor compatibility (stdio is the channel)\n"
    "  -h, --help               show this help\n";

int usageError(const std::string& message) {
  std::fprintf(stderr, "hashline lsp: %s\n\n%s", message.c_str(), kUsage);
  return 2;
}

} // namespace

int runLspCommand(std::vector<std::string> raw) {
  Arguments args(std::move(raw));
  std::string log_file, log_level = "info", max_bytes, client_pid, reconcile;
  while (!args.done()) {
    if (args.flag("-h") || args.flag("--help")) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (args.flag("--stdio")) continue;
    if (args.flag("--claude-ide")) {
      ::setenv("HASHLINE_CLAUDE_IDE", "1", 1); // read when initialize comes
      continue;
    }
    if (args.flag("--confirm")) {
      ::setenv("HASHLINE_CONFIRM_EDITS", "1", 1); // read with the other service options
      continue;
    }
    if (args.option("--log-file", log_file) || args.option("--log-level", log_level) ||
        args.option("--max-message-bytes", max_bytes) ||
        args.option("--clientProcessId", client_pid) || args.option("--reconcile", reconcile))
      continue;
    return usageError("unknown argument '" + args.take() + "'");
  }
  if (!args.error.empty()) return usageError(args.error);

  if (!reconcile.empty()) {
    if (!lsp::parseReconcileMode(reconcile))
      return usageError("invalid --reconcile '" + reconcile + "' (off, clean or merge)");
    ::setenv("HASHLINE_RECONCILE", reconcile.c_str(), 1); // read with the reconciler's options
  }
  auto level = log::levelFromName(log_level);
  if (!level) return usageError("unknown log level '" + log_level + "'");
  log::setLevel(*level);
  if (!log_file.empty() && !log::setSink(log_file))
    return usageError("cannot open log file '" + log_file + "'");

  lsp::FramingLimits limits;
  if (!max_bytes.empty()) {
    auto parsed = parseByteSize(max_bytes);
    if (!parsed) return usageError("invalid --max-message-bytes '" + max_bytes + "'");
    limits.max_body_bytes = *parsed;
  }
  lsp::LspServerOptions options;
  if (!client_pid.empty()) {
    try {
      options.client_process_id = std::stoll(client_pid);
    } catch (const std::exception&) {
      return usageError("invalid --clientProcessId '" + client_pid + "'");
    }
  }

  platform::ignoreBrokenPipe(); // a vanished editor is a write error, not a kill
  // Big buffers (a didOpen body, its text) always get their own mapping and go back to the
  // system when freed; glibc would otherwise raise the threshold after the first such free and
  // keep later ones in the heap, inflating the resident size for the life of the process.
  platform::mapAllocationsFrom(std::size_t(1) << 20);
  boost::asio::io_context io;
  auto transport = lsp::makeStdioTransport(io, limits);
  // The protocol owns the (duplicated) stdout now; stray writes to fd 1 go to stderr instead.
  ::dup2(STDERR_FILENO, STDOUT_FILENO);

  log::info("hashline ", programVersion(), " serving LSP on stdio (pid ",
            platform::currentProcessId(), ", message cap ", limits.max_body_bytes, " bytes)");
  lsp::LspServer server(io, std::move(transport), options);
  lsp::registerAllFeatures(server);
  return server.run();
}

} // namespace hashline::cli
