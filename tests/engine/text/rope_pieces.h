// A Rope built by appending a text in pieces of `piece` bytes, so that lines, CRLF pairs and
// multi-byte sequences cross the boundaries of its leaves (small pieces stay separate leaves).
// For tests and fuzz targets that compare a Rope reader with the same text held flat.
#pragma once

#include "engine/text/rope.h"

#include <cstddef>
#include <string_view>

namespace hashline::testing_model {

inline Rope ropeOfPieces(std::string_view text, std::size_t piece) {
  Rope rope;
  for (std::size_t at = 0; at < text.size(); at += piece)
    rope.replace(rope.byteSize(), rope.byteSize(), text.substr(at, piece));
  return rope;
}

} // namespace hashline::testing_model
