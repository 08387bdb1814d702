// Fingerprints: XXH3-128 content hash plus stat facts, and their token form.
#include "lsp/disk/fingerprint.h"

#include "engine/support/hex.h"
#include "lsp/platform/file_times.h"

#include <charconv>
#include <vector>
#include <xxhash.h>

namespace hashline::disk {
namespace {

template <class Int> bool parseInt(std::string_view text, Int& out, int base = 10) {
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return ec == std::errc() && end == text.data() + text.size();
}

} // namespace

std::string ContentHash::toHex() const {
  std::string hex;
  hex.reserve(32);
  appendHex64(hex, high);
  appendHex64(hex, low);
  return hex;
}

ContentHash hashContent(std::string_view bytes) {
  XXH128_hash_t hash = XXH3_128bits(bytes.data(), bytes.size());
  return ContentHash{hash.high64, hash.low64};
}

ContentHasher::ContentHasher() : state_(XXH3_createState()) {
  XXH3_128bits_reset(static_cast<XXH3_state_t*>(state_));
}

ContentHasher::~ContentHasher() {
  XXH3_freeState(static_cast<XXH3_state_t*>(state_));
}

void ContentHasher::update(std::string_view bytes) {
  XXH3_128bits_update(static_cast<XXH3_state_t*>(state_), bytes.data(), bytes.size());
}

ContentHash ContentHasher::digest() const {
  XXH128_hash_t hash = XXH3_128bits_digest(static_cast<XXH3_state_t*>(state_));
  return ContentHash{hash.high64, hash.low64};
}

Fingerprint fingerprintOf(const struct stat& file_stat, std::string_view bytes) {
  Fingerprint fingerprint;
  fingerprint.size_bytes = bytes.size();
  fingerprint.mtime_ns = platform::modifiedNanoseconds(file_stat);
  fingerprint.inode = file_stat.st_ino;
  fingerprint.device = file_stat.st_dev;
  fingerprint.content_hash = hashContent(bytes);
  return fingerprint;
}

std::string Fingerprint::toToken() const {
  return std::to_string(size_bytes) + ":" + std::to_string(mtime_ns) + ":" + std::to_string(inode) +
         ":" + std::to_string(device) + ":" + content_hash.toHex();
}

std::optional<Fingerprint> Fingerprint::fromToken(std::string_view token) {
  std::vector<std::string_view> fields;
  while (true) {
    auto colon = token.find(':');
    fields.push_back(token.substr(0, colon));
    if (colon == std::string_view::npos) break;
    token.remove_prefix(colon + 1);
  }
  if (fields.size() != 5 || fields[4].size() != 32) return std::nullopt;
  Fingerprint fingerprint;
  if (!parseInt(fields[0], fingerprint.size_bytes) || !parseInt(fields[1], fingerprint.mtime_ns) ||
      !parseInt(fields[2], fingerprint.inode) || !parseInt(fields[3], fingerprint.device) ||
      !parseInt(fields[4].substr(0, 16), fingerprint.content_hash.high, 16) ||
      !parseInt(fields[4].substr(16), fingerprint.content_hash.low, 16))
    return std::nullopt;
  return fingerprint;
}

} // namespace hashline::disk
