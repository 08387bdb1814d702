// The Claude Code IDE upgrade check and its token; see ide_handshake.h.
#include "lsp/ide/ide_handshake.h"

#include "lsp/platform/secure_random.h"

#include <cstdint>

namespace hashline::lsp {

namespace {

bool sameSecret(std::string_view given, std::string_view expected) {
  // Constant time in the content: every byte is compared whatever the first mismatch.
  unsigned char difference = given.size() == expected.size() ? 0 : 1;
  for (std::size_t i = 0; i < given.size(); ++i)
    difference |=
        static_cast<unsigned char>(given[i]) ^
        static_cast<unsigned char>(expected[i % (expected.empty() ? 1 : expected.size())]);
  return difference == 0 && !expected.empty();
}

} // namespace

IdeHandshakeVerdict checkIdeUpgrade(const IdeUpgradeRequest& request, std::string_view token) {
  if (!request.is_websocket_upgrade) return {false, 400, "not a WebSocket upgrade"};
  if (request.origin) return {false, 403, "a browser Origin is never accepted"};
  if (!request.authorization) return {false, 401, "missing x-claude-code-ide-authorization"};
  if (!sameSecret(*request.authorization, token))
    return {false, 401, "wrong x-claude-code-ide-authorization"};
  return {true, 101, ""};
}

std::string makeIdeAuthToken() {
  unsigned char bytes[16];
  if (!platform::fillSecureRandom(bytes, sizeof bytes)) return {};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (unsigned char byte : bytes) {
    token += kHex[byte >> 4];
    token += kHex[byte & 15];
  }
  return token;
}

} // namespace hashline::lsp
