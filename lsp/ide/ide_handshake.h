// The gate in front of the Claude Code IDE WebSocket: which HTTP upgrade requests may become a
// connection. Decided from the request's headers alone, before a single WebSocket message is read
// (CVE-2025-52882 was an IDE server that skipped this): the token of the lock file in
// `x-claude-code-ide-authorization` (compared in constant time), no `Origin` header (a browser
// always sends one; Claude Code does not), and a real WebSocket upgrade.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hashline::lsp {

inline constexpr const char* kIdeAuthorizationHeader = "x-claude-code-ide-authorization";

struct IdeUpgradeRequest {
  bool is_websocket_upgrade = false;
  std::optional<std::string> authorization; // the header above
  std::optional<std::string> origin;
};

struct IdeHandshakeVerdict {
  bool accepted = false;
  int http_status = 0; // when refused: 400, 401 or 403
  std::string reason;  // for the log and the refusal's body
};

IdeHandshakeVerdict checkIdeUpgrade(const IdeUpgradeRequest& request, std::string_view token);

/// 128 random bits as 32 lowercase hex digits (platform::fillSecureRandom); empty if the OS
/// refuses.
std::string makeIdeAuthToken();

} // namespace hashline::lsp
