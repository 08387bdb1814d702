// Document versions every interface reports must be exact in an IEEE double (JSON numbers in
// JavaScript: VS Code, the MCP TypeScript SDK, Claude Code, Gemini CLI), i.e. at most 2^53 − 1:
// a larger one is rounded by the client and sent back different, and an edit at that version
// is refused as stale. Editor versions are small; disk versions are content ids, derived from a
// hash, in [2^52, 2^53): far above any editor's numbers. Pure; constexpr.
#pragma once

#include <cstdint>

namespace hashline::lsp {

inline constexpr std::int64_t kMaxExactVersion = (std::int64_t{1} << 53) - 1;

/// A content id in [2^52, 2^53) from a 64-bit hash: its low 52 bits, and bit 52 set.
constexpr std::int64_t exactVersionId(std::uint64_t hash) {
  constexpr std::uint64_t kTop = std::uint64_t{1} << 52;
  return static_cast<std::int64_t>((hash & (kTop - 1)) | kTop);
}

/// A version as recorded by an older hashline, whose disk content ids were 62 bits (the same
/// hash masked wider): the id this one gives the same content. Small versions are unchanged.
constexpr std::int64_t exactVersionFromRecorded(std::int64_t version) {
  if (version >= 0 && version <= kMaxExactVersion) return version;
  return exactVersionId(static_cast<std::uint64_t>(version));
}

} // namespace hashline::lsp
