// The absolute path of the running hashline binary: /proc/self/exe on Linux,
// _NSGetExecutablePath on macOS; empty where the OS does not tell. Windows seam:
// GetModuleFileNameW.
#pragma once

#include <string>

namespace hashline::platform {

/// The running binary's absolute path with symlinks resolved; empty when unknown.
std::string ownExecutablePath();

} // namespace hashline::platform
