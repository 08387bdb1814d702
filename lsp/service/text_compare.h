// Forwards to engine/text/text_compare.h (sameText is pure and lives in the engine); kept for
// the code in lsp/ that still includes it from here.
#pragma once

#include "engine/text/text_compare.h"

namespace hashline::lsp {

using hashline::sameText;

} // namespace hashline::lsp
