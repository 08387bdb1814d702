// Incremental SHA-256 (OpenSSL) with lowercase-hex output, for `hashline/snapshot`.
//
// Fed chunk by chunk (a Rope's pieces) so hashing a large document never copies it.
// Not thread-safe per instance.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace hashline {

class Sha256 {
public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(std::string_view bytes);
  /// 64 lowercase hex digits; the hasher must not be updated afterwards.
  std::string finishHex();

  static std::string hex(std::string_view bytes);

private:
  struct Context;
  std::unique_ptr<Context> context_;
};

} // namespace hashline
