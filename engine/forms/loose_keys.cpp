// Loose keys for all lines of a document; see loose_keys.h.
#include "engine/forms/loose_keys.h"

#include "engine/forms/text_fold.h"

namespace hashline::forms {

LooseLineKeys::LooseLineKeys(const LineTable& table) {
  keys_.reserve(table.lineCount());
  for (std::size_t line = 0; line < table.lineCount(); ++line) {
    std::string_view trimmed = trimUnicode(table.content(line));
    bool ascii = true;
    for (char c : trimmed)
      if (static_cast<unsigned char>(c) >= 0x80) {
        ascii = false;
        break;
      }
    if (ascii) {
      keys_.push_back(trimmed);
    } else {
      owned_.push_back(foldString(trimmed));
      keys_.push_back(owned_.back());
    }
  }
}

} // namespace hashline::forms
