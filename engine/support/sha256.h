// Incremental SHA-256 (FIPS 180-4) with lowercase-hex output, for `hashline/snapshot`.
//
// Built in, no OpenSSL: the block function is the CPU's SHA extensions on x86-64 where present
// (sha256_blocks_x86.cpp, picked once at run time), else portable C++ (sha256_blocks.cpp).
// Fed chunk by chunk (a Rope's pieces) so hashing a large document never copies it.
// Not thread-safe per instance.
#pragma once

#include "engine/support/sha256_blocks.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hashline {

class Sha256 {
public:
  /// `blocks` is the block function; the default is the fastest this CPU runs.
  explicit Sha256(Sha256BlockFunction blocks = fastestSha256Blocks());
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(std::string_view bytes);
  /// 64 lowercase hex digits; the hasher must not be updated afterwards.
  std::string finishHex();

  static std::string hex(std::string_view bytes);

private:
  Sha256BlockFunction blocks_;
  std::array<std::uint32_t, 8> state_;
  std::array<unsigned char, kSha256BlockBytes> pending_{};
  std::size_t pending_size_ = 0;
  std::uint64_t total_bytes_ = 0;
};

} // namespace hashline
