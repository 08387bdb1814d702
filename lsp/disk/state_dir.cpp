// Locating and creating the private state and runtime directories.
#include "lsp/disk/state_dir.h"

#include "lsp/disk/disk_file.h"
#include "lsp/disk/fingerprint.h"
#include "lsp/platform/user_dirs.h"

#include <cerrno>
#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

namespace hashline::disk {
namespace {

std::string envPath(const char* name) {
  const char* value = std::getenv(name);
  // The XDG spec says relative values are invalid and must be ignored.
  if (!value || value[0] != '/') return {};
  return value;
}

Result<std::string> homeDirectory() {
  if (std::string home = platform::homeDirectory(); !home.empty()) return home;
  return Error::make(ErrorCode::IoError, "cannot find the home directory (HOME is not set)");
}

Status makeDirectoryChain(const std::string& path) {
  if (path.empty() || path == "/") return Status::success();
  struct stat existing {};
  if (::lstat(path.c_str(), &existing) == 0) return Status::success();
  auto slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0)
    if (auto status = makeDirectoryChain(path.substr(0, slash)); !status) return status;
  if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) return systemError(errno, "mkdir", path);
  return Status::success();
}

} // namespace

Status ensurePrivateDirectory(const std::string& path) {
  if (auto status = makeDirectoryChain(path); !status) return status;
  struct stat dir_stat {};
  if (::lstat(path.c_str(), &dir_stat) != 0) return systemError(errno, "stat", path);
  if (!S_ISDIR(dir_stat.st_mode))
    return Error::make(ErrorCode::IoError,
                       path + " exists but is not a directory (or is a symlink)");
  if (dir_stat.st_uid != ::geteuid())
    return Error::make(ErrorCode::IoError,
                       path + " is owned by uid " + std::to_string(dir_stat.st_uid) +
                           ", not by us (uid " + std::to_string(::geteuid()) + "); refusing it");
  if ((dir_stat.st_mode & 07777) != 0700 && ::chmod(path.c_str(), 0700) != 0)
    return systemError(errno, "chmod", path);
  return Status::success();
}

Result<std::string> stateDirectory() {
  std::string dir = envPath("HASHLINE_STATE_DIR");
  if (dir.empty()) {
    if (auto xdg = envPath("XDG_STATE_HOME"); !xdg.empty()) {
      dir = xdg + "/hashline";
    } else {
      auto home = homeDirectory();
      if (!home) return home;
      dir = *home + "/.local/state/hashline";
    }
  }
  if (auto status = ensurePrivateDirectory(dir); !status) return std::move(status).error();
  return dir;
}

Result<std::string> workspaceStateDirectory(std::string_view canonical_root) {
  auto state = stateDirectory();
  if (!state) return state;
  std::string name(canonical_root.substr(canonical_root.rfind('/') + 1));
  for (char& c : name)
    if (c == '.' || static_cast<unsigned char>(c) < 0x20) c = '_';
  if (name.empty()) name = "root";
  if (name.size() > 64) name.resize(64);
  std::string dir =
      *state + "/workspaces/" + name + "-" + hashContent(canonical_root).toHex().substr(0, 16);
  if (auto status = ensurePrivateDirectory(dir); !status) return std::move(status).error();
  return dir;
}

Result<std::string> runtimeDirectory() {
  std::string dir = envPath("HASHLINE_RUNTIME_DIR");
  if (dir.empty()) {
    // $XDG_RUNTIME_DIR is only used when it exists and is ours: after `su` it often names
    // another user's (or a vanished) directory, which we must not create or use. Without it,
    // the directory logind gives the user (what $XDG_RUNTIME_DIR names in a desktop session):
    // programs that start `hashline mcp` with a scrubbed environment (codex does) must still
    // find the sidecar the editor registered there.
    auto ours = [](const std::string& path) {
      struct stat info {};
      return !path.empty() && ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode) &&
             info.st_uid == ::geteuid();
    };
    std::string xdg = envPath("XDG_RUNTIME_DIR");
    if (xdg.empty() && std::getenv("XDG_RUNTIME_DIR") == nullptr)
      xdg = platform::defaultUserRuntimeBase();
    if (ours(xdg)) {
      dir = xdg + "/hashline";
    } else {
      std::string tmp = envPath("TMPDIR");
      if (tmp.empty()) tmp = "/tmp";
      while (tmp.size() > 1 && tmp.back() == '/')
        tmp.pop_back();
      dir = tmp + "/hashline-" + std::to_string(::geteuid());
    }
  }
  if (auto status = ensurePrivateDirectory(dir); !status) return std::move(status).error();
  return dir;
}

} // namespace hashline::disk
