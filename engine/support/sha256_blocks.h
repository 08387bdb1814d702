// SHA-256's compression function over whole 64-byte blocks, in the forms this CPU may run:
// portable C++ everywhere, the SHA extensions (SHA-NI) on x86-64. Sha256 (sha256.h) does the
// buffering and padding; tests run the FIPS 180-4 vectors through every form available.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hashline {

inline constexpr std::size_t kSha256BlockBytes = 64;

/// Updates `state` (H0..H7) with `count` consecutive 64-byte blocks at `data`.
using Sha256BlockFunction = void (*)(std::uint32_t* state, const unsigned char* data,
                                     std::size_t count);

void sha256BlocksPortable(std::uint32_t* state, const unsigned char* data, std::size_t count);
/// The SHA-NI form when this CPU has it (x86-64 with SHA, SSSE3, SSE4.1), else nullptr.
Sha256BlockFunction sha256BlocksAccelerated();
/// The accelerated form when there is one, else the portable one (decided once).
Sha256BlockFunction fastestSha256Blocks();

} // namespace hashline
