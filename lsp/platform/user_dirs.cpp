// Per-user directories; see user_dirs.h.
#include "lsp/platform/user_dirs.h"

#include <cstdlib>
#include <pwd.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <climits>
#endif

namespace hashline::platform {

namespace {

std::string absoluteEnv(const char* name) {
  const char* value = std::getenv(name);
  // The XDG spec says relative values are invalid and must be ignored.
  if (!value || value[0] != '/') return {};
  return value;
}

} // namespace

std::string homeDirectory() {
  if (std::string home = absoluteEnv("HOME"); !home.empty()) return home;
  if (const passwd* entry = ::getpwuid(::geteuid()); entry && entry->pw_dir && entry->pw_dir[0])
    return entry->pw_dir;
  return {};
}

std::string defaultUserRuntimeBase() {
#if defined(__linux__)
  return "/run/user/" + std::to_string(::geteuid());
#elif defined(__APPLE__)
  char buffer[PATH_MAX] = {};
  std::size_t length = ::confstr(_CS_DARWIN_USER_TEMP_DIR, buffer, sizeof buffer);
  if (length == 0 || length > sizeof buffer) return {};
  std::string dir(buffer);
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  return dir;
#else
  return {};
#endif
}

std::string applicationConfigBase(const std::string& home) {
#if defined(__APPLE__)
  return home + "/Library/Application Support";
#else
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  return xdg && *xdg ? std::string(xdg) : home + "/.config";
#endif
}

} // namespace hashline::platform
