// Fuzzes anchor and read-row parsing (engine/anchors/anchor.h).
//
// Whatever parses must be well-formed (line >= 1, 15-bit digests) and must survive a round
// trip: formatAnchor/formatRow of the parsed value parses back to the same value. A row's text
// is everything after the separator, byte for byte. Nothing may crash on any input.
#include "engine/anchors/anchor.h"
#include "tests/fuzz/fuzz_target.h"

#include <string>

HASHLINE_FUZZ_TARGET(anchor) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace hashline;

  if (auto anchor = parseAnchor(text)) {
    FUZZ_CHECK(anchor->line >= 1);
    FUZZ_CHECK(anchor->line_digest < (1u << 15));
    FUZZ_CHECK(!anchor->context_digest || *anchor->context_digest < (1u << 15));
    std::string formatted = formatAnchor(*anchor);
    auto again = parseAnchor(formatted);
    FUZZ_CHECK(again && *again == *anchor, formatted);
    FUZZ_CHECK(formatAnchor(*again) == formatted);
  } else {
    FUZZ_CHECK(anchor.error().code == ErrorCode::MalformedAnchor);
  }

  if (auto row = parseRow(text)) {
    FUZZ_CHECK(row->anchor.line >= 1);
    std::string formatted = formatRow(row->anchor, row->text);
    auto again = parseRow(formatted);
    FUZZ_CHECK(again && again->anchor == row->anchor && again->text == row->text, formatted);
    FUZZ_CHECK(startsWithRowPrefix(formatted), formatted);
  }
  (void)startsWithRowPrefix(text);
  (void)tierFromName(text);
  return 0;
}
