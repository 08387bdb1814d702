// The code paths this build of lsp/platform takes; see build_variant.h.
#include "lsp/platform/build_variant.h"

#include "lsp/platform/platform_variant.h"

namespace hashline::platform {

bool linuxNativeCalls() {
  return HASHLINE_LINUX_NATIVE;
}

const char* codePaths() {
#if HASHLINE_LINUX_NATIVE
  return "linux";
#elif defined(__linux__)
  return "portable-posix";
#elif defined(__APPLE__)
  return "macos";
#else
  return "posix";
#endif
}

} // namespace hashline::platform
