// Fingerprint: what the disk backend remembers about a file it read, to tell later whether the
// file changed (DESIGN §6, scenario 25).
//
// A fingerprint holds the stat facts (size, mtime in ns, inode, device) and an XXH3-128 hash of
// the content. Equality is content equality (size + hash): a file that was touched, or rewritten
// with identical bytes by a formatter or `git checkout`, is NOT a change, while any change of a
// byte is. The stat facts are kept for diagnostics and as a cheap "surely unchanged" hint.
//
// A fingerprint serializes to a token (`toToken` / `fromToken`) so the CLI can keep what a
// session observed in the state directory between runs. Plain value type; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>

namespace hashline::disk {

/// XXH3-128 of a file's bytes.
struct ContentHash {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  bool operator==(const ContentHash&) const = default;
  /// 32 lowercase hex digits.
  std::string toHex() const;
};

ContentHash hashContent(std::string_view bytes);

/// hashContent fed piece by piece (a rope's chunks, a file read in blocks): the same hash as
/// hashContent of the concatenation, without building it.
class ContentHasher {
public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(const ContentHasher&) = delete;
  ContentHasher& operator=(const ContentHasher&) = delete;
  void update(std::string_view bytes);
  ContentHash digest() const;

private:
  void* state_; // XXH3_state_t
};

struct Fingerprint {
  std::uint64_t size_bytes = 0;
  std::int64_t mtime_ns = 0; // st_mtim as nanoseconds since the epoch
  std::uint64_t inode = 0;
  std::uint64_t device = 0;
  ContentHash content_hash;

  /// Same bytes (size and hash); what staleness checks use.
  bool sameContentAs(const Fingerprint& other) const {
    return size_bytes == other.size_bytes && content_hash == other.content_hash;
  }
  /// Same stat facts (size, mtime, inode, device); says nothing about the content.
  bool sameStatAs(const Fingerprint& other) const {
    return size_bytes == other.size_bytes && mtime_ns == other.mtime_ns && inode == other.inode &&
           device == other.device;
  }
  /// Equality is content equality: touched-but-unchanged files compare equal.
  bool operator==(const Fingerprint& other) const { return sameContentAs(other); }

  /// "<size>:<mtime_ns>:<inode>:<device>:<hash hex>", for the state directory.
  std::string toToken() const;
  static std::optional<Fingerprint> fromToken(std::string_view token);
};

/// The fingerprint of `bytes` read from a file whose stat is `file_stat`.
Fingerprint fingerprintOf(const struct stat& file_stat, std::string_view bytes);

} // namespace hashline::disk
