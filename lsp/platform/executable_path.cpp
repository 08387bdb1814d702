// The running binary's path from the OS.
#include "lsp/platform/executable_path.h"

#include <cerrno> // program_invocation_name (glibc)
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <vector>
#if defined(__APPLE__)
#include <mach-o/dyld.h>
#elif defined(__FreeBSD__)
#include <sys/sysctl.h>
#include <sys/types.h>
#endif

namespace hashline::platform {

std::string ownExecutablePath() {
  std::error_code error;
#if defined(__APPLE__)
  std::uint32_t size = 0;
  (void)_NSGetExecutablePath(nullptr, &size); // asks for the size
  std::vector<char> buffer(size + 1, '\0');
  if (_NSGetExecutablePath(buffer.data(), &size) != 0) return {};
  std::filesystem::path resolved = std::filesystem::canonical(buffer.data(), error);
  return error ? std::string(buffer.data()) : resolved.string();
#elif defined(__FreeBSD__)
  int name[] = {CTL_KERN, KERN_PROC, KERN_PROC_PATHNAME, -1};
  char buffer[PATH_MAX] = {};
  std::size_t size = sizeof buffer;
  if (::sysctl(name, 4, buffer, &size, nullptr, 0) != 0) return {};
  return buffer;
#else
  // Linux and the systems with a Linux-style /proc (the portable build runs this too).
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return {};
#if defined(__GLIBC__)
  // Started through the dynamic loader (`ld-linux-aarch64.so.1 ./hashline`, as an emulator's
  // launcher does): /proc/self/exe is the loader, and the loader set argv[0] to the program.
  const std::string name = self.filename().string();
  if (name.starts_with("ld-") && name.find(".so") != std::string::npos) {
    std::filesystem::path program = std::filesystem::canonical(program_invocation_name, error);
    if (!error) return program.string();
  }
#endif
  return self.string();
#endif
}

} // namespace hashline::platform
