// NUL / UTF-8 validation; see text_checks.h.
#include "engine/verify/text_checks.h"

#include "engine/support/utf8.h"

#include <string>

namespace hashline {
namespace {

// Length of the valid UTF-8 sequence at `bytes[i]`, or 0 if invalid (NUL counts as invalid).
std::size_t sequenceLength(std::string_view bytes, std::size_t i) {
  if (bytes[i] == '\0') return 0;
  return decodeUtf8Sequence(bytes, i).length;
}

} // namespace

std::optional<std::size_t> firstNonTextByte(std::string_view bytes) {
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t length = sequenceLength(bytes, i);
    if (length == 0) return i;
    i += length;
  }
  return std::nullopt;
}

Status checkEditableText(const Rope& text) {
  // Chunks may split a sequence: check a carried tail together with the next chunk.
  std::string carry;
  std::size_t offset = 0;
  std::optional<std::size_t> bad;
  text.forEachChunk(0, text.byteSize(), [&](std::string_view chunk) {
    if (bad) return;
    std::string window = carry + std::string(chunk);
    std::size_t i = 0;
    while (i < window.size()) {
      const std::size_t length = sequenceLength(window, i);
      if (length == 0) {
        // Possibly a sequence cut by the chunk end: carry it over.
        if (window.size() - i < 4 && window[i] != '\0') break;
        bad = offset + i;
        return;
      }
      i += length;
    }
    offset += i;
    carry = window.substr(i);
  });
  if (!bad && !carry.empty()) bad = offset;
  if (bad)
    return Error::make(ErrorCode::NotText,
                       "the text is not editable: a NUL byte or invalid UTF-8 at byte " +
                           std::to_string(*bad));
  return Status::success();
}

} // namespace hashline
