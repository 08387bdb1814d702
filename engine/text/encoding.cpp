// Names of the LSP position encodings, as negotiated in `general.positionEncodings`.
#include "engine/text/encoding.h"

namespace hashline {

std::string_view encodingName(PositionEncoding encoding) {
  switch (encoding) {
  case PositionEncoding::Utf8:
    return "utf-8";
  case PositionEncoding::Utf16:
    return "utf-16";
  case PositionEncoding::Utf32:
    return "utf-32";
  }
  return "utf-16";
}

std::optional<PositionEncoding> encodingFromName(std::string_view name) {
  if (name == "utf-8") return PositionEncoding::Utf8;
  if (name == "utf-16") return PositionEncoding::Utf16;
  if (name == "utf-32") return PositionEncoding::Utf32;
  return std::nullopt;
}

} // namespace hashline
