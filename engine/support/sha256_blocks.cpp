// SHA-256's compression function in portable C++ (FIPS 180-4 §6.2.2), and the choice of the
// fastest form this CPU runs.
#include "engine/support/sha256_blocks.h"

#include "engine/support/sha256_constants.h"

namespace hashline {

namespace {

constexpr std::uint32_t rotateRight(std::uint32_t value, int bits) {
  return (value >> bits) | (value << (32 - bits));
}

std::uint32_t loadBigEndian(const unsigned char* bytes) {
  return std::uint32_t(bytes[0]) << 24 | std::uint32_t(bytes[1]) << 16 |
         std::uint32_t(bytes[2]) << 8 | std::uint32_t(bytes[3]);
}

} // namespace

void sha256BlocksPortable(std::uint32_t* state, const unsigned char* data, std::size_t count) {
  std::uint32_t schedule[64];
  for (; count > 0; --count, data += kSha256BlockBytes) {
    for (int t = 0; t < 16; ++t)
      schedule[t] = loadBigEndian(data + 4 * t);
    for (int t = 16; t < 64; ++t) {
      std::uint32_t s0 = rotateRight(schedule[t - 15], 7) ^ rotateRight(schedule[t - 15], 18) ^
                         (schedule[t - 15] >> 3);
      std::uint32_t s1 = rotateRight(schedule[t - 2], 17) ^ rotateRight(schedule[t - 2], 19) ^
                         (schedule[t - 2] >> 10);
      schedule[t] = schedule[t - 16] + s0 + schedule[t - 7] + s1;
    }
    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 64; ++t) {
      std::uint32_t sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25);
      std::uint32_t choose = (e & f) ^ (~e & g);
      std::uint32_t t1 = h + sum1 + choose + kSha256RoundConstants[t] + schedule[t];
      std::uint32_t sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22);
      std::uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
      std::uint32_t t2 = sum0 + majority;
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}

Sha256BlockFunction fastestSha256Blocks() {
  static const Sha256BlockFunction chosen = [] {
    Sha256BlockFunction accelerated = sha256BlocksAccelerated();
    return accelerated != nullptr ? accelerated : &sha256BlocksPortable;
  }();
  return chosen;
}

} // namespace hashline
