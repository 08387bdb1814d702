// Secure random bytes: getrandom (Linux) or getentropy in pieces of at most 256 bytes.
#include "lsp/platform/secure_random.h"

#include "lsp/platform/platform_variant.h"

#include <algorithm>
#include <cerrno>
#include <unistd.h>
#if HASHLINE_LINUX_NATIVE || defined(__APPLE__)
#include <sys/random.h>
#endif

namespace hashline::platform {

namespace {

#if HASHLINE_LINUX_NATIVE
bool fill(void* out, std::size_t size, unsigned int flags) {
  auto* bytes = static_cast<unsigned char*>(out);
  std::size_t filled = 0;
  while (filled < size) {
    ssize_t got = ::getrandom(bytes + filled, size - filled, flags);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    filled += static_cast<std::size_t>(got);
  }
  return true;
}
#else
bool fill(void* out, std::size_t size) {
  constexpr std::size_t kMaxPiece = 256; // getentropy's limit per call
  auto* bytes = static_cast<unsigned char*>(out);
  for (std::size_t filled = 0; filled < size;) {
    std::size_t piece = std::min(kMaxPiece, size - filled);
    if (::getentropy(bytes + filled, piece) != 0) return false;
    filled += piece;
  }
  return true;
}
#endif

} // namespace

bool fillSecureRandom(void* out, std::size_t size) {
#if HASHLINE_LINUX_NATIVE
  return fill(out, size, 0);
#else
  return fill(out, size);
#endif
}

bool fillSecureRandomNonBlocking(void* out, std::size_t size) {
#if HASHLINE_LINUX_NATIVE
  return fill(out, size, GRND_NONBLOCK);
#else
  return fill(out, size); // getentropy does not block after boot; macOS's never does
#endif
}

} // namespace hashline::platform
