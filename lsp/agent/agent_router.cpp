// Routing of CLI/MCP calls to a sidecar or the in-process disk service; see agent_router.h.
#include "lsp/agent/agent_router.h"

#include "engine/forms/patch_parser.h"
#include "lsp/agent/discovery.h"
#include "lsp/agent/sidecar_gone.h"
#include "lsp/disk/state_dir.h"
#include "lsp/disk/workspace_roots.h"
#include "lsp/journal/journal_service.h"
#include "lsp/protocol/error_json.h"
#include "lsp/service/hashline_service.h"
#include "lsp/service/observation_json.h"
#include "lsp/support/log.h"

#include <cstdlib>
#include <sys/stat.h>

namespace hashline::agent {

using lsp::ServiceOutcome;
using nlohmann::json;

namespace {

bool isDirectory(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

std::string joinPath(const std::string& base, const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  if (base.empty()) return path;
  return base.back() == '/' ? base + path : base + "/" + path;
}

std::string parentOf(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return path.substr(0, slash);
}

bool usesPath(const std::string& method) {
  return method != "patch" && method != "status";
}

json refusal(Error error) {
  return lsp::refusalToJSON(error);
}

} // namespace

std::vector<std::string> patchPaths(const std::string& patch) {
  // The engine's parser, so routing sees exactly the files the patch will touch (padded
  // headers, heredoc wrappers, CRLF). A patch that does not parse names no file; it is refused
  // where it goes, with the parser's error.
  std::vector<std::string> paths;
  Result<forms::Patch> parsed = forms::parsePatch(patch);
  if (!parsed) return paths;
  for (const forms::PatchHunk& hunk : parsed->hunks) {
    paths.push_back(hunk.path);
    if (hunk.move_to) paths.push_back(*hunk.move_to);
  }
  return paths;
}

AgentRouter::AgentRouter(RouterOptions options) : options_(std::move(options)) {
  if (!options_.workspace)
    if (const char* value = std::getenv("HASHLINE_WORKSPACE"); value && *value)
      options_.workspace = value;
  if (!options_.ping_timeout) {
    options_.ping_timeout = std::chrono::milliseconds(10'000);
    if (const char* value = std::getenv("HASHLINE_SIDECAR_PING_MS"); value && *value) {
      char* end = nullptr;
      long long ms = std::strtoll(value, &end, 10);
      if (end && *end == '\0' && ms > 0) options_.ping_timeout = std::chrono::milliseconds(ms);
    }
  }
}

std::string AgentRouter::baseDir() const {
  if (!options_.base_dir.empty()) return options_.base_dir;
  auto cwd = disk::currentDirectory();
  return cwd ? *cwd : std::string("/");
}

std::vector<std::string> AgentRouter::diskRoots() const {
  std::string base = baseDir();
  if (options_.workspace) {
    auto real = disk::resolveRealPath(*options_.workspace, base);
    return {real ? *real : joinPath(base, *options_.workspace)};
  }
  auto real_base = disk::resolveRealPath(base, "/");
  std::string start = real_base ? *real_base : base;
  for (std::string dir = start;; dir = parentOf(dir)) {
    if (isDirectory(dir + "/.git") || ::access((dir + "/.git").c_str(), F_OK) == 0) return {dir};
    if (dir == "/") break;
  }
  return {start};
}

namespace {

bool discoveryEnabled() {
  const char* no_sidecar = std::getenv("HASHLINE_NO_SIDECAR");
  return !(no_sidecar && std::string(no_sidecar) == "1");
}

// Where a patch goes: the one sidecar whose roots hold its files, or the disk when no sidecar
// holds any. The patch is verified and applied all-or-nothing in one place — the sidecar sends
// each file to its open buffer or to the disk itself — so files held by two sidecars, or by a
// sidecar and by none, are refused before anything is read or written.
Result<std::optional<SidecarRecord>> sidecarForPatch(const std::vector<std::string>& paths,
                                                     const std::string& root) {
  std::optional<SidecarRecord> chosen;
  std::optional<std::string> chosen_path, unclaimed_path;
  for (const std::string& path : paths) {
    auto real = disk::resolveRealPath(joinPath(root, path), root);
    if (!real) continue; // refused where the patch goes, with the rest of the patch
    std::optional<SidecarRecord> sidecar = findRecordFor(*real);
    if (!sidecar) {
      if (!unclaimed_path) unclaimed_path = path;
    } else if (!chosen) {
      chosen = std::move(sidecar);
      chosen_path = path;
    } else if (sidecar->info.pid != chosen->info.pid) {
      Error error = Error::make(ErrorCode::OutsideWorkspace,
                                "the patch touches " + *chosen_path + ", served by " +
                                    describeSidecar(chosen->info) + ", and " + path +
                                    ", served by " + describeSidecar(sidecar->info) +
                                    "; one patch is applied all-or-nothing in one workspace");
      error.withHint("split the patch into one per editor workspace and apply each");
      error.data.path = path;
      return error;
    }
    if (chosen && unclaimed_path) {
      Error error = Error::make(ErrorCode::OutsideWorkspace,
                                "the patch touches " + *chosen_path + ", served by " +
                                    describeSidecar(chosen->info) + ", and " + *unclaimed_path +
                                    ", outside that editor's workspace; one patch is applied "
                                    "all-or-nothing in one workspace");
      error.withHint("split the patch: one for the files under the editor's roots, one for the "
                     "rest");
      error.data.path = *unclaimed_path;
      return error;
    }
  }
  return chosen;
}

} // namespace

ServiceOutcome AgentRouter::call(const std::string& method, json params) {
  route_ = {};
  if (!params.is_object()) params = json::object();
  const std::string base = baseDir();
  const bool discover = discoveryEnabled();

  // The real path that decides the route (a patch: each of its files).
  std::optional<std::string> key_path;
  std::optional<SidecarRecord> sidecar;
  if (usesPath(method) && params.contains("path") && params["path"].is_string()) {
    std::string absolute = joinPath(base, params["path"].get<std::string>());
    params["path"] = absolute;
    if (auto real = disk::resolveRealPath(absolute, base)) key_path = *real;
  } else if (method == "patch" && params.contains("patch") && params["patch"].is_string()) {
    std::string root = diskRoots().front();
    key_path = root;
    if (discover) {
      auto routed = sidecarForPatch(patchPaths(params["patch"].get<std::string>()), root);
      if (!routed) return refusal(std::move(routed).error());
      sidecar = std::move(*routed);
    }
    if (!sidecar) return callDisk(method, std::move(params));
  } else if (method == "status" || lsp::JournalService::handles(method)) {
    key_path = diskRoots().front();
  }
  // Anything else without a file of its own (a path that does not resolve, a new method) goes
  // where the workspace goes: the sidecar answers it, or the disk service refuses it properly.
  if (!key_path) key_path = diskRoots().front();
  if (!sidecar && discover) sidecar = findRecordFor(*key_path);
  if (!sidecar) return callDisk(method, std::move(params));
  if (!sidecar->live())
    return callWhileGone(method, std::move(params), sidecar->info, *key_path,
                         "it exited without shutting down (killed or crashed) while its editor "
                         "still runs");

  route_.backend = RouteInfo::Backend::Sidecar;
  route_.sidecar_pid = sidecar->info.pid;
  route_.roots = sidecar->info.roots;
  SidecarConnection connection(sidecar->info.socket);
  // Alive first: a sidecar that does not answer a ping is never handed the request.
  SidecarAnswer pong = connection.call("hashline/ping", json::object(), *options_.ping_timeout);
  const json* pong_result = nullptr;
  if (auto* outcome = std::get_if<ServiceOutcome>(&pong)) pong_result = std::get_if<json>(outcome);
  if (!pong_result || !pong_result->is_object() || !pong_result->value("pong", false)) {
    std::string why = "it does not answer";
    if (auto* failed = std::get_if<SidecarFault>(&pong)) {
      if (failed->kind == SidecarFault::Kind::Unreachable)
        why = "its socket refuses connections (" + failed->message + ")";
      else if (failed->kind == SidecarFault::Kind::NoAnswer)
        why = "it did not answer within " + std::to_string(options_.ping_timeout->count()) +
              " ms (hung or stopped)";
      else
        why = "it dropped the connection (" + failed->message + ")";
    }
    return callWhileGone(method, std::move(params), sidecar->info, *key_path, why);
  }
  SidecarAnswer answer = connection.call("hashline/" + method, params, options_.sidecar_timeout);
  if (auto* outcome = std::get_if<ServiceOutcome>(&answer)) return std::move(*outcome);
  const SidecarFault& failed = std::get<SidecarFault>(answer);
  std::string why =
      failed.kind == SidecarFault::Kind::NoAnswer
          ? "did not answer within " + std::to_string(options_.sidecar_timeout.count()) + " ms"
          : "failed (" + failed.message + ")";
  return refusal(sidecarLost(sidecar->info, *key_path, why));
}

ServiceOutcome AgentRouter::callWhileGone(const std::string& method, json params,
                                          const SidecarInfo& sidecar, const std::string& path,
                                          const std::string& why) {
  Error gone = sidecarGone(sidecar, path, why);
  const bool reads = readsOnly(method);
  if (!reads && !options_.force_disk) return refusal(refusedWhileGone(std::move(gone)));
  log::info("sidecar pid ", sidecar.pid, " is gone; ", reads ? "reading" : "writing (--disk)",
            " the disk");
  // On the dead sidecar's roots: the files and the journal it worked on.
  ServiceOutcome outcome = callDisk(method, std::move(params), sidecar.roots);
  route_.sidecar_gone = true;
  route_.sidecar_pid = sidecar.pid;
  if (json* result = std::get_if<json>(&outcome)) addGoneWarning(*result, gone, !reads);
  return outcome;
}

ServiceOutcome AgentRouter::callDisk(const std::string& method, json params,
                                     std::vector<std::string> roots) {
  route_.backend = RouteInfo::Backend::Disk;
  route_.roots = roots.empty() ? diskRoots() : std::move(roots);
  for (const auto& root : route_.roots)
    if (!isDirectory(root))
      return refusal(
          Error::make(ErrorCode::FileNotFound, "workspace root " + root + " is not a directory")
              .withHint("pass --workspace DIR with an existing directory"));

  auto service =
      lsp::HashlineService::forDisk(route_.roots, lsp::ServiceOptions::fromEnvironment());
  // What sessions read, one file per (session, document), loaded as the call names them.
  std::optional<lsp::ObservationFiles> observations;
  if (auto dir = lsp::ObservationFiles::directoryFor(route_.roots.front())) {
    observations.emplace(*dir);
    observations->attach(service->observations());
    if (method == "status" && params.contains("session") && params["session"].is_string())
      observations->loadSession(service->observations(), params["session"].get<std::string>());
  } else {
    log::warn("no state directory: ", dir.error().message);
  }

  std::optional<ServiceOutcome> answer;
  service->call(method, std::move(params),
                [&answer](ServiceOutcome outcome) { answer = std::move(outcome); });
  if (observations) {
    // Not a warning: stderr starts with the answer's error code, and a damaged file only means
    // the session reads again (its edit is refused with NOT_OBSERVED).
    for (const std::string& problem : observations->problems())
      log::info("ignoring unreadable observations: ", problem);
    Status saved = observations->save(service->observations());
    if (!saved) log::warn("cannot save observations: ", saved.error().message);
    service->observations().setLoader(nullptr);
  }
  if (!answer)
    return lsp::RpcError::make(lsp::RpcErrorCode::InternalError,
                               "the disk service did not answer synchronously");
  return std::move(*answer);
}

} // namespace hashline::agent
