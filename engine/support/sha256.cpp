// SHA-256 buffering and padding (FIPS 180-4 §5.1.1, §5.3.3) around a block function.
#include "engine/support/sha256.h"

#include "engine/support/hex.h"

#include <cstring>

namespace hashline {

namespace {

constexpr std::array<std::uint32_t, 8> kInitialState = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

} // namespace

Sha256::Sha256(Sha256BlockFunction blocks) : blocks_(blocks), state_(kInitialState) {}

void Sha256::update(std::string_view bytes) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t size = bytes.size();
  total_bytes_ += size;
  if (pending_size_ > 0) {
    std::size_t take = std::min(size, kSha256BlockBytes - pending_size_);
    std::memcpy(pending_.data() + pending_size_, data, take);
    pending_size_ += take;
    data += take;
    size -= take;
    if (pending_size_ < kSha256BlockBytes) return;
    blocks_(state_.data(), pending_.data(), 1);
    pending_size_ = 0;
  }
  if (std::size_t whole = size / kSha256BlockBytes; whole > 0) {
    blocks_(state_.data(), data, whole);
    data += whole * kSha256BlockBytes;
    size -= whole * kSha256BlockBytes;
  }
  if (size > 0) std::memcpy(pending_.data(), data, size);
  pending_size_ = size;
}

std::string Sha256::finishHex() {
  const std::uint64_t total_bits = total_bytes_ * 8;
  pending_[pending_size_++] = 0x80;
  if (pending_size_ > kSha256BlockBytes - 8) { // no room for the length: one more block
    std::memset(pending_.data() + pending_size_, 0, kSha256BlockBytes - pending_size_);
    blocks_(state_.data(), pending_.data(), 1);
    pending_size_ = 0;
  }
  std::memset(pending_.data() + pending_size_, 0, kSha256BlockBytes - 8 - pending_size_);
  for (int i = 0; i < 8; ++i)
    pending_[kSha256BlockBytes - 1 - i] = static_cast<unsigned char>(total_bits >> (8 * i));
  blocks_(state_.data(), pending_.data(), 1);
  pending_size_ = 0;
  std::string digest;
  digest.reserve(64);
  for (std::uint32_t word : state_)
    for (int shift = 24; shift >= 0; shift -= 8)
      appendHexByte(digest, static_cast<unsigned char>(word >> shift));
  return digest;
}

std::string Sha256::hex(std::string_view bytes) {
  Sha256 hasher;
  hasher.update(bytes);
  return hasher.finishHex();
}

} // namespace hashline
