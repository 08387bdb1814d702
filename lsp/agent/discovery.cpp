// Discovery files of running sidecars: publish, withdraw, list, match a path.
#include "lsp/agent/discovery.h"

#include "lsp/disk/atomic_writer.h"
#include "lsp/disk/dir_entries.h"
#include "lsp/disk/disk_file.h"
#include "lsp/disk/state_dir.h"
#include "lsp/disk/unique_fd.h"
#include "lsp/disk/workspace_roots.h"
#include "lsp/platform/process.h"
#include "lsp/support/log.h"

#include <cerrno>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <unistd.h>

namespace hashline::agent {

using nlohmann::json;

namespace {

constexpr const char* kPrefix = "sidecar-";
constexpr const char* kSuffix = ".json";

json toJSON(const SidecarInfo& info) {
  return json{{"pid", info.pid},
              {"roots", info.roots},
              {"socket", info.socket},
              {"version", info.version},
              {"started", info.started}};
}

std::optional<SidecarInfo> fromJSON(const json& value, const std::string& file) {
  if (!value.is_object()) return std::nullopt;
  SidecarInfo info;
  try {
    info.pid = value.at("pid").get<std::int64_t>();
    info.roots = value.at("roots").get<std::vector<std::string>>();
    info.socket = value.at("socket").get<std::string>();
    info.version = value.value("version", "");
    info.started = value.value("started", "");
  } catch (const json::exception&) {
    return std::nullopt;
  }
  info.discovery_file = file;
  return info;
}

bool endsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool isDiscoveryName(const std::string& name) {
  return name.rfind(kPrefix, 0) == 0 && endsWith(name, kSuffix);
}

/// Removes a dead sidecar's discovery file and its socket (when that lies in the directory).
void sweepDeadSidecar(int dir_fd, const std::string& dir, const std::string& name,
                      const SidecarInfo& info) {
  log::info("sweeping discovery file of dead sidecar pid ", info.pid);
  ::unlinkat(dir_fd, name.c_str(), 0);
  const std::string socket_dir = dir + "/";
  if (info.socket.rfind(socket_dir, 0) != 0) return;
  const std::string socket_name = info.socket.substr(socket_dir.size());
  if (!socket_name.empty() && socket_name.find('/') == std::string::npos)
    ::unlinkat(dir_fd, socket_name.c_str(), 0);
}

} // namespace

bool processAlive(std::int64_t pid) {
  return platform::processAlive(pid);
}

Result<std::string> publishSidecar(const SidecarInfo& info) {
  auto dir = disk::runtimeDirectory();
  if (!dir) return dir.error();
  std::string file = *dir + "/" + kPrefix + std::to_string(info.pid) + kSuffix;
  disk::WriteOptions options;
  options.create_mode = 0600;
  options.take_lock = false; // one writer: this process, named in the file
  options.durable = false;   // the runtime directory does not outlive a reboot anyway
  auto written = disk::atomicWrite(file, toJSON(info).dump(2) + "\n", options);
  if (!written)
    return Error::make(ErrorCode::IoError,
                       "cannot publish discovery file " + file + ": " + written.error().message);
  return file;
}

void withdrawSidecar(const std::string& discovery_file) {
  if (!discovery_file.empty()) ::unlink(discovery_file.c_str());
}

std::vector<SidecarInfo> liveSidecars() {
  std::vector<SidecarInfo> found;
  auto dir = disk::runtimeDirectory();
  if (!dir) return found;
  // Listed, read and swept through one descriptor: the directory is opened once.
  disk::UniqueFd dir_fd(::open(dir->c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir_fd) return found;
  for (const std::string& name : disk::directoryEntries(dir_fd.get())) {
    if (!isDiscoveryName(name)) continue;
    std::string file = *dir + "/" + name;
    auto read = disk::readFileBytesAt(dir_fd.get(), name, file);
    if (!read) continue; // gone meanwhile, or not a regular file
    auto info = fromJSON(json::parse(read->bytes, nullptr, /*allow_exceptions=*/false), file);
    if (!info) continue; // not ours: leave it alone (ours are published atomically)
    if (!processAlive(info->pid)) {
      sweepDeadSidecar(dir_fd.get(), *dir, name, *info);
      continue;
    }
    found.push_back(std::move(*info));
  }
  return found;
}

std::optional<SidecarInfo> findSidecarFor(const std::string& real_path) {
  std::optional<SidecarInfo> best;
  std::size_t best_depth = 0;
  for (auto& info : liveSidecars()) {
    for (const auto& root : info.roots) {
      if (!disk::isSameOrBelow(real_path, root)) continue;
      if (!best || root.size() > best_depth) {
        best_depth = root.size();
        best = info;
      }
    }
  }
  return best;
}

} // namespace hashline::agent
