// AgentRouter: where the CLI and MCP send a service call — the editor's sidecar, or the disk.
//
// For a call addressing a file (`path`, relative paths taken against the caller's directory),
// the router looks for a live sidecar whose workspace root holds the file's real path
// (discovery.h; deepest root wins) and forwards the call over its socket (agent_client.h). With
// none, it runs HashlineService::forDisk in-process on the disk roots — `--workspace DIR` /
// HASHLINE_WORKSPACE, else the nearest ancestor of the caller's directory holding `.git`, else
// that directory — with what sessions read loaded from and saved to one binary file per
// (session, document) under `<workspaceStateDirectory(root)>/observations/` (only the pairs a call
// names are loaded; only changed ones are saved: observation_json.h), so NOT_OBSERVED and
// staleness work across separate runs. A patch goes to the one sidecar whose roots hold its files
// (that sidecar sends each file to its open buffer or to the disk, all-or-nothing), or to the
// disk when no sidecar holds any of them; a patch whose files span two sidecars, or a sidecar
// and no sidecar, is refused (OUTSIDE_WORKSPACE, with a hint to split it). `status` and the
// journal commands are routed by the workspace.
//
// A sidecar that claims the path but is not there to answer — its record outlived it (discovery.h
// keeps it while its editor runs), its socket refuses, or it does not answer `hashline/ping`
// within `ping_timeout` (HASHLINE_SIDECAR_PING_MS, default 10 s) — is never silently replaced by
// the disk: a call that changes something is refused SIDECAR_GONE, a read is answered from the
// disk with a warning, and `force_disk` (CLI --disk, `hashline mcp --disk`) writes the disk on
// purpose (sidecar_gone.h). A live sidecar that answers always gets the call, --disk or not: it
// writes the disk itself for files the editor does not hold open. A request the sidecar received
// and then left unanswered (sidecar_timeout) is SIDECAR_GONE saying it may still land. Every call
// discovers afresh, so a long-lived router (MCP) reaches a restarted sidecar by itself.
// HASHLINE_NO_SIDECAR=1 skips discovery.
//
// Threading: blocking, single-threaded; one router per CLI run or MCP server.
#pragma once

#include "lsp/agent/agent_client.h"
#include "lsp/agent/discovery.h"
#include "lsp/service/agent_service.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace hashline::agent {

struct RouterOptions {
  /// `--workspace DIR` (else HASHLINE_WORKSPACE is consulted).
  std::optional<std::string> workspace;
  /// The directory relative paths are taken against; empty = the process's.
  std::string base_dir;
  std::chrono::milliseconds sidecar_timeout = kDefaultSidecarTimeout;
  /// How long a sidecar has to answer the liveness ping; unset: HASHLINE_SIDECAR_PING_MS, else
  /// 10 s.
  std::optional<std::chrono::milliseconds> ping_timeout;
  /// Work on the disk when the workspace's sidecar is gone (--disk), instead of refusing.
  bool force_disk = false;
};

/// Where the last call went.
struct RouteInfo {
  enum class Backend { None, Sidecar, Disk } backend = Backend::None;
  std::int64_t sidecar_pid = 0;
  bool sidecar_gone = false;      // Disk because the sidecar was gone (read, or --disk)
  std::vector<std::string> roots; // disk roots, or the sidecar's roots
};

class AgentRouter {
public:
  explicit AgentRouter(RouterOptions options);

  /// Runs service `method` (without prefix: "read", "edit", …) with `params`; blocking.
  lsp::ServiceOutcome call(const std::string& method, nlohmann::json params);

  const RouteInfo& lastRoute() const { return route_; }
  /// The roots disk mode uses (canonical when they exist).
  std::vector<std::string> diskRoots() const;

private:
  std::string baseDir() const;
  /// The in-process disk service on `roots` (default: diskRoots()).
  lsp::ServiceOutcome callDisk(const std::string& method, nlohmann::json params,
                               std::vector<std::string> roots = {});
  /// The call when `sidecar`, which serves `path`, is gone because `why`.
  lsp::ServiceOutcome callWhileGone(const std::string& method, nlohmann::json params,
                                    const SidecarInfo& sidecar, const std::string& path,
                                    const std::string& why);

  RouterOptions options_;
  RouteInfo route_;
};

/// The file paths a codex-style patch names (`*** Add/Update/Delete File:`, `*** Move to:`).
std::vector<std::string> patchPaths(const std::string& patch);

} // namespace hashline::agent
