// Common prefix and suffix of two texts held as chunk sequences (a Rope's leaves, or one
// string_view), without materializing either. Pieces at the same address are the same shared
// rope leaf and are skipped unread, so comparing an edited copy of a rope with the original
// costs O(chunks) pointer compares plus the bytes of the leaves the edit rebuilt. Pure.
#pragma once

#include "engine/text/rope.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace hashline {

using Chunks = std::vector<std::string_view>;

/// The leaves of `text`, in order (views into the rope: valid while it lives unchanged).
Chunks chunksOf(const Rope& text);

/// Length in bytes of the common prefix of `a` and `b`.
std::size_t commonPrefix(const Chunks& a, const Chunks& b);

/// Length in bytes of the common suffix of `a` and `b`, at most `limit`.
std::size_t commonSuffix(const Chunks& a, const Chunks& b, std::size_t limit);

} // namespace hashline
