// The agent service inside `hashline lsp`: LSP commands `hashline.read`, `hashline.edit`, … via
// workspace/executeCommand (`arguments: [ {…params} ]`), and the same methods as LSP requests
// `hashline/read`, `hashline/edit`, … (params = the object itself). Both call one
// HashlineService::forEditor(server) built here, with options from the environment
// (service_options.h). The service lives as long as the process (the server's tables hold it).
#pragma once

namespace hashline::lsp {

class LspServer;
class HashlineService;

/// Registers every service method; returns the service (e.g. for the agent socket to share).
HashlineService& registerAgentService(LspServer& server);

} // namespace hashline::lsp
