// Document versions every interface reports must be exact in an IEEE double (JSON numbers in
// JavaScript: VS Code, the MCP TypeScript SDK, Claude Code, Gemini CLI), i.e. at most 2^53 − 1:
// a larger one is rounded by the client and sent back different, and an edit at that version
// is refused as stale. Editor versions are small; disk versions are content ids, derived from a
// hash and masked to 53 bits here. Pure; constexpr.
#pragma once

#include <cstdint>

namespace hashline::lsp {

inline constexpr std::int64_t kMaxExactVersion = (std::int64_t{1} << 53) - 1;

/// A positive content id of at most 53 bits from a 64-bit hash (0 becomes 1).
constexpr std::int64_t exactVersionId(std::uint64_t hash) {
  const std::int64_t id = static_cast<std::int64_t>(hash & std::uint64_t(kMaxExactVersion));
  return id == 0 ? 1 : id;
}

/// A version as recorded by an older hashline, whose disk content ids were 62 bits (the same
/// hash masked wider): the id this one gives the same content. Small versions are unchanged.
constexpr std::int64_t exactVersionFromRecorded(std::int64_t version) {
  if (version >= 0 && version <= kMaxExactVersion) return version;
  return exactVersionId(static_cast<std::uint64_t>(version));
}

} // namespace hashline::lsp
