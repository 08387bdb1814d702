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
#include <cstdlib>
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
  json value{{"pid", info.pid},
             {"roots", info.roots},
             {"socket", info.socket},
             {"version", info.version},
             {"started", info.started}};
  if (info.editor_pid > 0) value["editorPid"] = info.editor_pid;
  if (info.pid_start) value["pidStart"] = *info.pid_start;
  if (info.editor_start) value["editorStart"] = *info.editor_start;
  return value;
}

std::optional<std::uint64_t> optionalTicks(const json& value, const char* name) {
  auto found = value.find(name);
  if (found == value.end() || !found->is_number_unsigned()) return std::nullopt;
  return found->get<std::uint64_t>();
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
    if (auto editor = value.find("editorPid"); editor != value.end() && editor->is_number_integer())
      info.editor_pid = editor->get<std::int64_t>();
    info.pid_start = optionalTicks(value, "pidStart");
    info.editor_start = optionalTicks(value, "editorStart");
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

/// The editor that started a dead sidecar still runs (its pid 1 or unknown: no).
bool editorAlive(const SidecarInfo& info) {
  return info.editor_pid > 1 && processAlive(info.editor_pid, info.editor_start);
}

bool sameEditor(const SidecarInfo& a, const SidecarInfo& b) {
  return a.editor_pid > 1 && a.editor_pid == b.editor_pid &&
         (!a.editor_start || !b.editor_start || *a.editor_start == *b.editor_start);
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

std::optional<std::uint64_t> processStartTime(std::int64_t pid) {
  auto status = platform::processStatus(pid);
  if (!status) return std::nullopt;
  return status->start_ticks;
}

bool processAlive(std::int64_t pid, std::optional<std::uint64_t> start) {
  if (!processAlive(pid)) return false;
  std::optional<platform::ProcessStatus> now = platform::processStatus(pid);
  if (!now) return true;         // the system does not tell: the pid alone
  if (now->exited) return false; // died, not yet reaped
  return !start || now->start_ticks == *start;
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

std::vector<SidecarRecord> sidecarRecords() {
  std::vector<SidecarRecord> records;
  auto dir = disk::runtimeDirectory();
  if (!dir) return records;
  // Listed, read and swept through one descriptor: the directory is opened once.
  disk::UniqueFd dir_fd(::open(dir->c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir_fd) return records;
  std::vector<std::pair<std::string, SidecarInfo>> dead; // name, record
  for (const std::string& name : disk::directoryEntries(dir_fd.get())) {
    if (!isDiscoveryName(name)) continue;
    std::string file = *dir + "/" + name;
    auto read = disk::readFileBytesAt(dir_fd.get(), name, file);
    if (!read) continue; // gone meanwhile, or not a regular file
    auto info = fromJSON(json::parse(read->bytes, nullptr, /*allow_exceptions=*/false), file);
    if (!info) continue; // not ours: leave it alone (ours are published atomically)
    if (processAlive(info->pid, info->pid_start))
      records.push_back({SidecarRecord::State::Live, std::move(*info)});
    else
      dead.emplace_back(name, std::move(*info));
  }
  const std::size_t live_count = records.size();
  for (auto& [name, info] : dead) {
    bool replaced = false;
    for (std::size_t i = 0; i < live_count && !replaced; ++i)
      replaced = sameEditor(records[i].info, info);
    if (!editorAlive(info) || replaced) {
      sweepDeadSidecar(dir_fd.get(), *dir, name, info);
      continue;
    }
    records.push_back({SidecarRecord::State::Gone, std::move(info)});
  }
  return records;
}

std::vector<SidecarInfo> liveSidecars() {
  std::vector<SidecarInfo> found;
  for (SidecarRecord& record : sidecarRecords())
    if (record.live()) found.push_back(std::move(record.info));
  return found;
}

namespace {

std::optional<SidecarRecord> deepestRecordFor(const std::string& real_path, bool live_only) {
  std::optional<SidecarRecord> best;
  std::size_t best_depth = 0;
  for (auto& record : sidecarRecords()) {
    if (live_only && !record.live()) continue;
    for (const auto& root : record.info.roots) {
      if (!disk::isSameOrBelow(real_path, root)) continue;
      const bool deeper = root.size() > best_depth;
      const bool gone_ties = best && root.size() == best_depth && !record.live() && best->live();
      if (!best || deeper || gone_ties) {
        best_depth = root.size();
        best = record;
      }
    }
  }
  return best;
}

} // namespace

std::optional<SidecarRecord> findRecordFor(const std::string& real_path) {
  return deepestRecordFor(real_path, false);
}

std::optional<SidecarInfo> findSidecarFor(const std::string& real_path) {
  auto record = deepestRecordFor(real_path, true);
  if (!record) return std::nullopt;
  return std::move(record->info);
}

} // namespace hashline::agent
