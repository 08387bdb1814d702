// Writing, finding and sweeping Claude Code IDE lock files; see ide_lock_file.h.
#include "lsp/ide/ide_lock_file.h"

#include "lsp/disk/atomic_writer.h"
#include "lsp/platform/process.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::lsp {

namespace {

bool processRuns(std::int64_t pid) {
  return platform::processAlive(pid);
}

Status makePrivateDirectory(const std::string& directory) {
  // The parent (the Claude config directory) may not exist yet either.
  const std::string parent = directory.substr(0, directory.rfind('/'));
  if (!parent.empty()) ::mkdir(parent.c_str(), 0700);
  if (::mkdir(directory.c_str(), 0700) != 0 && errno != EEXIST)
    return Error::make(ErrorCode::IoError,
                       "cannot create " + directory + ": " + std::strerror(errno));
  struct stat info {};
  if (::lstat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    return Error::make(ErrorCode::IoError, directory + " is not a directory");
  // Tokens live here: nobody else may list or read it, whatever mode it was made with.
  if ((info.st_mode & 077) != 0 && ::chmod(directory.c_str(), 0700) != 0)
    return Error::make(ErrorCode::IoError, "cannot make " + directory + " private");
  return Status::success();
}

} // namespace

std::string claudeIdeDirectory() {
  if (const char* config = std::getenv("CLAUDE_CONFIG_DIR"); config && *config)
    return std::string(config) + "/ide";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.claude/ide";
  return {};
}

nlohmann::json ideLockJSON(const IdeLockInfo& info) {
  return {{"pid", info.pid},           {"workspaceFolders", info.workspace_folders},
          {"ideName", kIdeName},       {"transport", "ws"},
          {"runningInWindows", false}, {"authToken", info.auth_token}};
}

Result<std::string> writeIdeLockFile(const std::string& directory, const IdeLockInfo& info) {
  if (directory.empty())
    return Error::make(ErrorCode::IoError,
                       "no Claude config directory (neither CLAUDE_CONFIG_DIR nor HOME is set)");
  if (Status made = makePrivateDirectory(directory); !made) return made.error();
  const std::string file = directory + "/" + std::to_string(info.port) + ".lock";
  disk::WriteOptions options;
  options.create_mode = 0600;
  options.take_lock = false; // one writer: this process, the port is ours
  options.durable = false;   // it describes a running process; a reboot ends that anyway
  auto written = disk::atomicWrite(file, ideLockJSON(info).dump() + "\n", options);
  if (!written) return written.error();
  ::chmod(file.c_str(), 0600); // a replace keeps an old file's mode: never wider than 0600
  return file;
}

std::vector<IdeLockInfo> liveIdeLockFiles(const std::string& directory) {
  std::vector<IdeLockInfo> found;
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return found;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.size() <= 5 || name.compare(name.size() - 5, 5, ".lock") != 0) continue;
    const std::string stem = name.substr(0, name.size() - 5);
    if (stem.empty() || stem.size() > 5 ||
        stem.find_first_not_of("0123456789") != std::string::npos)
      continue;
    std::ifstream in(directory + "/" + name);
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json lock = nlohmann::json::parse(text.str(), nullptr, false);
    if (!lock.is_object() || lock.value("ideName", "") != kIdeName) continue;
    IdeLockInfo info;
    info.port = std::stoi(stem);
    info.pid = lock.value("pid", std::int64_t{0});
    if (!processRuns(info.pid)) continue;
    if (auto folders = lock.find("workspaceFolders"); folders != lock.end() && folders->is_array())
      for (const auto& folder : *folders)
        if (folder.is_string()) info.workspace_folders.push_back(folder.get<std::string>());
    found.push_back(std::move(info));
  }
  ::closedir(dir);
  return found;
}

std::size_t sweepStaleIdeLockFiles(const std::string& directory) {
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return 0;
  std::size_t swept = 0;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.size() <= 5 || name.compare(name.size() - 5, 5, ".lock") != 0) continue;
    const std::string path = directory + "/" + name;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json lock = nlohmann::json::parse(text.str(), nullptr, false);
    if (!lock.is_object() || lock.value("ideName", "") != kIdeName) continue;
    const auto pid = lock.value("pid", std::int64_t{0});
    if (processRuns(pid)) continue;
    if (::unlink(path.c_str()) == 0) ++swept;
  }
  ::closedir(dir);
  return swept;
}

} // namespace hashline::lsp
