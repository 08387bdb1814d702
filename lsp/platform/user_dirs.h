// Per-user directories as each OS lays them out: the home directory, the default per-user
// runtime directory (for sockets and discovery files when $XDG_RUNTIME_DIR is unset) and the
// base under which GUI applications keep their settings (VS Code's User/ lives there).
// Windows seam: %USERPROFILE%, %LOCALAPPDATA%, %APPDATA%.
#pragma once

#include <string>

namespace hashline::platform {

/// $HOME when it is absolute, else the password database's entry for us; empty when neither.
std::string homeDirectory();
/// Linux: /run/user/<uid> (what logind gives a session); macOS: the per-user temporary
/// directory (confstr _CS_DARWIN_USER_TEMP_DIR, what launchd puts in $TMPDIR), without a trailing
/// slash; empty elsewhere. May not exist: callers check it is a directory we own.
std::string defaultUserRuntimeBase();
/// macOS: `home`/Library/Application Support; elsewhere $XDG_CONFIG_HOME when set, else
/// `home`/.config.
std::string applicationConfigBase(const std::string& home);

} // namespace hashline::platform
