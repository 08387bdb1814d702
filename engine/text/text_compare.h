// sameText: whether two texts hold the same bytes without flattening a Rope (O(1) when two ropes
// share a root, else a chunked comparison that stops at the first difference). Used to confirm
// that the mirror reached a predicted text, and by the reconciler to compare a buffer with the
// disk.
#pragma once

#include "engine/text/rope.h"

#include <string_view>

namespace hashline {

bool sameText(const Rope& a, const Rope& b);
bool sameText(const Rope& a, std::string_view b);

} // namespace hashline
