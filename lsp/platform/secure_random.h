// Secure random bytes from the OS: getrandom on Linux, getentropy on macOS, the BSDs and the
// portable build. Windows seam: BCryptGenRandom.
#pragma once

#include <cstddef>

namespace hashline::platform {

/// Fills `size` bytes at `out` from the OS's secure generator; false when it refuses.
bool fillSecureRandom(void* out, std::size_t size);
/// The same, but false instead of waiting when the kernel's pool is not yet initialised (early
/// boot); for uses with a fallback (temp names).
bool fillSecureRandomNonBlocking(void* out, std::size_t size);

} // namespace hashline::platform
