// Wiring of the agent socket into `hashline lsp`; see agent_feature.h.
#include "lsp/agent/agent_feature.h"

#include "lsp/agent/agent_endpoint.h"
#include "lsp/cli/arguments.h"
#include "lsp/platform/process.h"
#include "lsp/server/lsp_server.h"
#include "lsp/server/method_registry.h"
#include "lsp/support/log.h"

#include <boost/asio/signal_set.hpp>
#include <cstdlib>
#include <memory>
#include <signal.h>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace hashline::lsp {

namespace {

/// Unlinks the socket and discovery file at process exit, however `run()` ended — the record
/// only if the endpoint (immortal, so still there) does not keep it for a restart. Touches no
/// Asio object: the io_context is gone by then.
struct ExitCleanup {
  std::string socket_path;
  std::string discovery_file;
  const AgentEndpoint* endpoint = nullptr;
  ~ExitCleanup() {
    if (!socket_path.empty()) ::unlink(socket_path.c_str());
    if (!discovery_file.empty() && !(endpoint && endpoint->keepsRecordAtStop()))
      ::unlink(discovery_file.c_str());
  }
};

ExitCleanup& exitCleanup() {
  static ExitCleanup cleanup;
  return cleanup;
}

bool disabledByClient(const InitializeParams& params) {
  const auto& options = params.initializationOptions;
  return options.is_object() && options.contains("agentSocket") &&
         options["agentSocket"].is_boolean() && !options["agentSocket"].get<bool>();
}

bool disabledByEnvironment() {
  const char* value = std::getenv("HASHLINE_AGENT_SOCKET");
  return value && (std::string(value) == "0" || std::string(value) == "false");
}

FramingLimits socketLimits() {
  FramingLimits limits;
  limits.max_body_bytes = std::size_t{16} << 20;
  if (const char* value = std::getenv("HASHLINE_AGENT_MAX_MESSAGE_BYTES"))
    if (auto bytes = cli::parseByteSize(value)) limits.max_body_bytes = *bytes;
  return limits;
}

} // namespace

void registerAgentEndpoint(LspServer& server, AgentService& service) {
  // Deliberately never destroyed (like the service it calls): connections may hold replies until
  // the io_context stops, and the io_context dies before static destructors run. Kept reachable
  // from a static, so they are immortal rather than lost (LeakSanitizer reported them at exit).
  auto* endpoint = new AgentEndpoint(server.io(), service, socketLimits());
  auto* signals = new boost::asio::signal_set(server.io(), SIGTERM, SIGINT);
  static auto& immortal = *new std::vector<std::pair<AgentEndpoint*, boost::asio::signal_set*>>();
  immortal.emplace_back(endpoint, signals);
  signals->async_wait([endpoint, &server](boost::system::error_code error, int signal) {
    if (error) return;
    log::info("signal ", signal, ": withdrawing the agent socket and stopping");
    endpoint->stop();
    exitCleanup() = {};
    server.io().stop();
  });

  server.onInitialize([endpoint, &server](const InitializeParams& params, nlohmann::json&) {
    if (disabledByClient(params) || disabledByEnvironment()) {
      log::info("agent socket disabled by ", disabledByClient(params)
                                                 ? "initializationOptions.agentSocket"
                                                 : "HASHLINE_AGENT_SOCKET");
      return;
    }
    // The editor: what initialize names, else whoever started this process.
    endpoint->setEditorProcess(params.processId && *params.processId > 0
                                   ? *params.processId
                                   : platform::parentProcessId());
    Status listening = endpoint->listen(server.workspaceRoots());
    if (!listening) {
      log::error("agent socket unavailable: ", listening.error().message);
      return;
    }
    exitCleanup().socket_path = endpoint->socketPath();
    exitCleanup().discovery_file = endpoint->discoveryFile();
    exitCleanup().endpoint = endpoint;
  });
  // The editor stops this sidecar only to start another (VS Code's Restart Server, a settings
  // change): the record stays at exit, and the gap is SIDECAR_GONE rather than disk mode.
  server.methods().addNotification("hashline/restarting", [endpoint](const nlohmann::json&) {
    log::info("the editor restarts this sidecar: its discovery record stays until the next one "
              "replaces it");
    endpoint->keepRecordAtStop();
  });
  // Folders added later are served too: CLIs find this sidecar through the discovery file.
  server.onRootsChanged(
      [endpoint](const std::vector<std::string>& roots) { endpoint->updateRoots(roots); });
}

} // namespace hashline::lsp
