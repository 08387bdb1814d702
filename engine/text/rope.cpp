// Rope: conversions as descents over the cached metrics, and replace() as a rebuild of the few
// chunks an edit touches spliced between the untouched halves of the tree (see rope.h).
#include "engine/text/rope.h"

#include "engine/text/rope_chunk.h"
#include "engine/text/rope_node.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <utility>

namespace hashline {

using rope_detail::BreakSpan;
using rope_detail::LeafRef;
using rope_detail::Node;
using rope_detail::NodePtr;
using rope_detail::Row;
using rope_detail::Unit;

namespace {

Unit unitOf(PositionEncoding encoding) {
  return encoding == PositionEncoding::Utf16 ? Unit::Utf16 : Unit::CodePoint;
}

/// The `ordinal`-th line break (1-based, <= root.breaks) as global [start, end) byte offsets.
BreakSpan findBreak(const Node* node, std::size_t ordinal) {
  std::size_t offset = 0;
  while (!node->isLeaf()) {
    const rope_detail::Internal& internal = node->internal();
    const std::size_t last = internal.count - 1;
    std::size_t index = 0;
    const std::size_t* breaks = internal.row(Row::Breaks);
    const std::size_t* bytes = internal.row(Row::Bytes);
    while (index < last && breaks[index] < ordinal) {
      ordinal -= breaks[index];
      offset += bytes[index];
      ++index;
    }
    node = internal.children[index].get();
  }
  BreakSpan local = rope_detail::nthBreak(node->leaf().bytes, ordinal);
  return {offset + local.start, offset + local.end};
}

/// Line breaks whose terminator ends at or before `byte`.
std::size_t breaksBeforeByte(const Node* node, std::size_t byte) {
  std::size_t breaks = 0;
  while (!node->isLeaf()) {
    const rope_detail::Internal& internal = node->internal();
    const std::size_t last = internal.count - 1;
    std::size_t index = 0;
    const std::size_t* bytes = internal.row(Row::Bytes);
    const std::size_t* child_breaks = internal.row(Row::Breaks);
    while (index < last && byte >= bytes[index]) {
      byte -= bytes[index];
      breaks += child_breaks[index];
      ++index;
    }
    node = internal.children[index].get();
  }
  return breaks + rope_detail::breaksBefore(node->leaf().bytes, byte);
}

/// Units of the code points starting before `byte`.
std::size_t unitsBeforeByte(const Node* node, std::size_t byte, Unit unit) {
  std::size_t units = 0;
  while (!node->isLeaf()) {
    const rope_detail::Internal& internal = node->internal();
    const std::size_t last = internal.count - 1;
    std::size_t index = 0;
    const std::size_t* bytes = internal.row(Row::Bytes);
    const std::size_t* child_units = internal.row(rope_detail::rowOf(unit));
    while (index < last && byte >= bytes[index]) {
      byte -= bytes[index];
      units += child_units[index];
      ++index;
    }
    node = internal.children[index].get();
  }
  return units + rope_detail::unitsBefore(node->leaf().bytes, byte, unit);
}

/// The byte where unit number `units` starts (global).
rope_detail::UnitHit byteOfUnit(const Node* node, std::size_t units, Unit unit) {
  std::size_t offset = 0;
  while (!node->isLeaf()) {
    const rope_detail::Internal& internal = node->internal();
    const std::size_t last = internal.count - 1;
    std::size_t index = 0;
    const std::size_t* bytes = internal.row(Row::Bytes);
    const std::size_t* child_units = internal.row(rope_detail::rowOf(unit));
    while (index < last && units >= child_units[index]) {
      units -= child_units[index];
      offset += bytes[index];
      ++index;
    }
    node = internal.children[index].get();
  }
  rope_detail::UnitHit local = rope_detail::byteOfUnits(node->leaf().bytes, units, unit);
  return {offset + local.byte, local.inside};
}

/// byteOfPosition for the common case of a line that lies inside one chunk: one descent and
/// one partial chunk scan. nullopt when the line crosses a chunk seam (the caller falls back).
std::optional<Result<std::size_t>> byteOfPositionInOneChunk(const Node* node, LspPosition position,
                                                            PositionEncoding encoding) {
  std::size_t offset = 0;
  std::size_t ordinal = position.line;
  while (!node->isLeaf()) {
    const rope_detail::Internal& internal = node->internal();
    const std::size_t last = internal.count - 1;
    const std::size_t* breaks = internal.row(Row::Breaks);
    const std::size_t* bytes = internal.row(Row::Bytes);
    std::size_t index = 0;
    while (index < last && breaks[index] < ordinal) {
      ordinal -= breaks[index];
      offset += bytes[index];
      ++index;
    }
    node = internal.children[index].get();
  }
  const std::string_view chunk = node->leaf().bytes;
  const std::size_t line_start = ordinal == 0 ? 0 : rope_detail::nthBreak(chunk, ordinal).end;
  if (ordinal > 0 && line_start >= chunk.size()) return std::nullopt; // starts in the next chunk
  const std::size_t line_end = rope_detail::findBreakByte(chunk, line_start);
  if (line_end == std::string_view::npos) return std::nullopt; // may continue in the next chunk
  const std::string_view line = chunk.substr(line_start, line_end - line_start);
  if (encoding == PositionEncoding::Utf8) {
    const std::size_t local = std::min<std::size_t>(position.character, line.size());
    if (!rope_detail::isCodePointBoundary(line, local)) return std::nullopt; // let it report
    return Result<std::size_t>(offset + line_start + local);
  }
  rope_detail::UnitHit hit = rope_detail::byteOfUnits(line, position.character, unitOf(encoding));
  if (hit.inside) return std::nullopt; // let the general path report it
  return Result<std::size_t>(offset + line_start + hit.byte);
}

bool isBoundaryByte(const Node* root, std::size_t byte) {
  LeafRef ref = rope_detail::leafAt(root, byte);
  return rope_detail::isCodePointBoundary(ref.leaf->bytes, byte - ref.start);
}

void visitChunks(const Node& node, std::size_t begin, std::size_t end,
                 const std::function<void(std::string_view)>& visit) {
  if (node.isLeaf()) {
    visit(std::string_view(node.leaf().bytes).substr(begin, end - begin));
    return;
  }
  const rope_detail::Internal& internal = node.internal();
  const std::size_t* sizes = internal.row(Row::Bytes);
  std::size_t offset = 0;
  for (std::size_t i = 0; i < internal.count && offset < end; ++i) {
    const std::size_t size = sizes[i];
    if (offset + size > begin) {
      std::size_t local_begin = begin > offset ? begin - offset : 0;
      std::size_t local_end = std::min(end - offset, size);
      visitChunks(*internal.children[i], local_begin, local_end, visit);
    }
    offset += size;
  }
}

/// The whole chunks an edit rewrites: old bytes [begin, end) and their new content. Everything
/// outside stays shared with the old tree.
struct ChunkRewrite {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string bytes;
  bool head_kept = false; // the bytes at a seam are unchanged, so that seam cannot fuse
  bool tail_kept = false;
  bool widened = false; // neighbouring chunks were taken in
};

/// The chunks from `first` to `last`, with `text` in place of old bytes [begin, end).
ChunkRewrite rewriteChunks(const LeafRef& first, const LeafRef& last, std::size_t begin,
                           std::size_t end, std::string_view text) {
  ChunkRewrite rewrite;
  rewrite.begin = first.start;
  rewrite.end = last.start + last.leaf->bytes.size();
  rewrite.bytes.reserve(rewrite.end - rewrite.begin - (end - begin) + text.size());
  rewrite.bytes.append(first.leaf->bytes, 0, begin - first.start);
  rewrite.bytes.append(text);
  rewrite.bytes.append(last.leaf->bytes, end - last.start);
  // A seam can only fuse where the bytes next to it changed (a UTF-8 sequence spans <= 4 bytes).
  rewrite.head_kept = begin - rewrite.begin >= 4;
  rewrite.tail_kept = rewrite.end - end >= 4;
  return rewrite;
}

/// Takes in neighbouring chunks while the rewrite is too short to stand as a chunk or would fuse
/// with a neighbour across a seam (a CRLF or a UTF-8 sequence split between two chunks).
void widenToSafeSeams(const Node* root, ChunkRewrite& rewrite) {
  const std::size_t size = root->metrics.bytes;
  for (bool widened = true; widened;) {
    widened = false;
    const bool short_chunk = rewrite.bytes.size() < rope_detail::kMinLeafBytes;
    if (rewrite.begin > 0 && (short_chunk || !rewrite.head_kept)) {
      const LeafRef previous = rope_detail::leafAt(root, rewrite.begin - 1);
      if (short_chunk || rope_detail::seamJoins(previous.leaf->bytes, rewrite.bytes)) {
        rewrite.bytes.insert(0, previous.leaf->bytes);
        rewrite.begin = previous.start;
        widened = rewrite.widened = true;
      }
      rewrite.head_kept = true;
    }
    const bool still_short = rewrite.bytes.size() < rope_detail::kMinLeafBytes;
    if (rewrite.end < size && (still_short || !rewrite.tail_kept)) {
      const LeafRef next = rope_detail::leafAt(root, rewrite.end);
      if (still_short || rope_detail::seamJoins(rewrite.bytes, next.leaf->bytes)) {
        rewrite.bytes.append(next.leaf->bytes);
        rewrite.end += next.leaf->bytes.size();
        widened = rewrite.widened = true;
      }
      rewrite.tail_kept = true;
    }
  }
}

} // namespace

Rope::Rope() : root_(rope_detail::emptyLeaf()) {}

Rope::Rope(std::string_view text) : root_(rope_detail::buildFromText(text)) {
  if (!root_) root_ = rope_detail::emptyLeaf();
}

Rope::Rope(Rope&& other) noexcept : root_(std::exchange(other.root_, rope_detail::emptyLeaf())) {}

Rope& Rope::operator=(Rope&& other) noexcept {
  if (this != &other) root_ = std::exchange(other.root_, rope_detail::emptyLeaf());
  return *this;
}

Rope::Rope(std::shared_ptr<const rope_detail::Node> root) : root_(std::move(root)) {
  if (!root_) root_ = rope_detail::emptyLeaf();
}

std::size_t Rope::byteSize() const {
  return root_->metrics.bytes;
}

std::size_t Rope::lineBreaks() const {
  return root_->metrics.breaks;
}

std::size_t Rope::lineStartByte(std::size_t line) const {
  if (line == 0) return 0;
  if (line > lineBreaks()) return byteSize();
  return findBreak(root_.get(), line).end;
}

std::size_t Rope::lineEndByte(std::size_t line) const {
  if (line >= lineBreaks()) return byteSize();
  return findBreak(root_.get(), line + 1).start;
}

std::size_t Rope::lineEndWithBreakByte(std::size_t line) const {
  if (line >= lineBreaks()) return byteSize();
  return findBreak(root_.get(), line + 1).end;
}

std::size_t Rope::lineOfByte(std::size_t byte) const {
  return breaksBeforeByte(root_.get(), std::min(byte, byteSize()));
}

Result<std::size_t> Rope::byteOfPosition(LspPosition position, PositionEncoding encoding) const {
  if (position.line >= lineCount())
    return Error::make(ErrorCode::Desynced, "position line " + std::to_string(position.line) +
                                                " is past the end of the document (" +
                                                std::to_string(lineCount()) + " lines)");
  if (auto fast = byteOfPositionInOneChunk(root_.get(), position, encoding)) return *fast;
  const std::size_t start = lineStartByte(position.line);
  const std::size_t end = lineEndByte(position.line);
  if (encoding == PositionEncoding::Utf8) {
    std::size_t byte = start + std::min<std::size_t>(position.character, end - start);
    if (!isBoundaryByte(root_.get(), byte))
      return Error::make(ErrorCode::Desynced, "position " + std::to_string(position.line) + ":" +
                                                  std::to_string(position.character) +
                                                  " falls inside a multi-byte UTF-8 sequence");
    return byte;
  }
  const Unit unit = unitOf(encoding);
  const std::size_t start_units = unitsBeforeByte(root_.get(), start, unit);
  const std::size_t end_units = unitsBeforeByte(root_.get(), end, unit);
  if (position.character >= end_units - start_units) return end;
  rope_detail::UnitHit hit = byteOfUnit(root_.get(), start_units + position.character, unit);
  if (hit.inside)
    return Error::make(ErrorCode::Desynced, "position " + std::to_string(position.line) + ":" +
                                                std::to_string(position.character) +
                                                " falls inside a UTF-16 surrogate pair");
  return hit.byte;
}

LspPosition Rope::positionOfByte(std::size_t byte, PositionEncoding encoding) const {
  byte = std::min(byte, byteSize());
  const std::size_t line = lineOfByte(byte);
  const std::size_t start = lineStartByte(line);
  std::size_t character = byte - start;
  if (encoding != PositionEncoding::Utf8) {
    const Unit unit = unitOf(encoding);
    character =
        unitsBeforeByte(root_.get(), byte, unit) - unitsBeforeByte(root_.get(), start, unit);
  }
  return {static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(character)};
}

std::size_t Rope::lineLength(std::size_t line, PositionEncoding encoding) const {
  const std::size_t start = lineStartByte(line);
  const std::size_t end = lineEndByte(line);
  if (encoding == PositionEncoding::Utf8) return end - start;
  const Unit unit = unitOf(encoding);
  return unitsBeforeByte(root_.get(), end, unit) - unitsBeforeByte(root_.get(), start, unit);
}

std::string Rope::slice(std::size_t begin, std::size_t end) const {
  std::string out;
  out.reserve(end - begin);
  forEachChunk(begin, end, [&](std::string_view piece) { out.append(piece); });
  return out;
}

std::string Rope::lineText(std::size_t line) const {
  return slice(lineStartByte(line), lineEndByte(line));
}

std::string Rope::toString() const {
  return slice(0, byteSize());
}

void Rope::forEachChunk(std::size_t begin, std::size_t end,
                        const std::function<void(std::string_view)>& visit) const {
  end = std::min(end, byteSize());
  if (begin >= end) return;
  visitChunks(*root_, begin, end, visit);
}

void Rope::replace(std::size_t begin, std::size_t end, std::string_view text) {
  const std::size_t size = byteSize();
  assert(begin <= end && end <= size);
  end = std::min(end, size); // out-of-contract offsets clamp rather than corrupt memory
  begin = std::min(begin, end);
  if (begin == end && text.empty()) return;
  if (size == 0) {
    *this = Rope(text);
    return;
  }
  const LeafRef first = rope_detail::leafAt(root_.get(), std::min(begin, size - 1));
  const bool one_leaf = end <= first.start + first.leaf->bytes.size();
  const LeafRef last = one_leaf ? first : rope_detail::leafAt(root_.get(), end - 1);
  ChunkRewrite rewrite = rewriteChunks(first, last, begin, end, text);
  widenToSafeSeams(root_.get(), rewrite);
  const std::size_t new_size = rewrite.bytes.size();
  if (one_leaf && !rewrite.widened && new_size <= rope_detail::kMaxLeafBytes &&
      (new_size >= rope_detail::kMinLeafBytes || root_->isLeaf())) {
    // Common case: one chunk in, one chunk out — only the path to it changes.
    const std::size_t local_begin = begin - first.start;
    const rope_detail::Metrics metrics =
        rope_detail::remeasure(first.leaf->bytes, first.leaf->metrics, rewrite.bytes, local_begin,
                               end - first.start, local_begin + text.size());
    NodePtr leaf = new_size == 0 ? rope_detail::emptyLeaf()
                                 : rope_detail::makeLeaf(std::move(rewrite.bytes), metrics);
    rope_detail::replaceLeaf(root_, rewrite.begin, std::move(leaf));
    return;
  }
  NodePtr middle = rope_detail::buildFromText(rewrite.bytes);
  NodePtr left = rope_detail::split(root_, rewrite.begin).first;
  NodePtr right = rope_detail::split(root_, rewrite.end).second;
  root_ = rope_detail::join(rope_detail::join(left, middle), right);
  if (!root_) root_ = rope_detail::emptyLeaf();
}

bool Rope::checkInvariants() const {
  if (!root_) return false;
  return rope_detail::checkTree(*root_);
}

} // namespace hashline
