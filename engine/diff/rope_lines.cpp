// Splitting a Rope into line views leaf by leaf; see rope_lines.h.
#include "engine/diff/rope_lines.h"

#include "engine/diff/line_diff.h"

namespace hashline {

void forEachLineOf(const Rope& text,
                   const std::function<void(std::string_view, bool assembled)>& visit) {
  std::string carry; // a line begun in an earlier leaf, not yet ended
  auto emitCarry = [&] {
    visit(carry, true);
    carry.clear();
  };
  text.forEachChunk(0, text.byteSize(), [&](std::string_view chunk) {
    const std::vector<std::string_view> pieces = splitLinesKeepingEnds(chunk);
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      std::string_view piece = pieces[i];
      const bool last = i + 1 == pieces.size();
      if (!carry.empty() && carry.back() == '\r') { // a CR that ended the previous leaf
        if (piece == "\n") {                        // ... was a CRLF split across leaves
          carry += '\n';
          emitCarry();
          continue;
        }
        emitCarry(); // ... was a lone CR
      }
      // A piece is a whole line unless it is the leaf's last one and its end is not yet known:
      // no terminator, or a CR that the next leaf may complete to CRLF.
      const bool open = last && (piece.back() != '\n');
      if (!carry.empty()) {
        carry.append(piece);
        if (!open) emitCarry();
      } else if (open) {
        carry.assign(piece);
      } else {
        visit(piece, false);
      }
    }
  });
  if (!carry.empty()) emitCarry();
}

RopeLines splitLinesKeepingEnds(const Rope& text) {
  RopeLines out;
  // Sized once: growing a list of 100k views by doubling moves it and faults in fresh pages at
  // each step.
  out.lines.reserve(text.lineBreaks() + 1);
  // A line inside one leaf is kept as the view; one assembled across leaves is copied to spill.
  forEachLineOf(text, [&](std::string_view line, bool assembled) {
    if (assembled) {
      out.spill.emplace_back(line);
      line = out.spill.back();
    }
    out.lines.push_back(line);
  });
  return out;
}

} // namespace hashline
