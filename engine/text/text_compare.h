// sameText: whether two Ropes hold the same bytes (O(1) when they share a root, else a chunked
// comparison). Used to confirm that the mirror reached a predicted text.
#pragma once

#include "engine/text/rope.h"

namespace hashline {

bool sameText(const Rope& a, const Rope& b);

} // namespace hashline
