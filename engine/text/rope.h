// Rope: the persistent text of one document version.
//
// A balanced tree of immutable, shared chunks (about 1 KiB each) whose nodes cache metrics —
// bytes, line breaks, UTF-16 units and code points — so that every conversion is one descent:
// O(log n). Copying a Rope is one pointer copy, so keeping a snapshot per version is free, and an
// edit (`replace`) path-copies O(log n) nodes and never disturbs other copies. Nodes that no other
// Rope shares (reference count 1) are updated in place instead, so typing into a document whose
// old versions nobody kept allocates one chunk per keystroke. Chunk boundaries never fall inside
// a CRLF or a valid UTF-8 sequence, so every chunk decodes on its own.
//
// Text is UTF-8 bytes kept exactly: LF, CRLF and lone CR are all line breaks (CRLF counts once,
// even when split across chunks), a BOM is an ordinary byte sequence at offset 0, and invalid
// UTF-8 is carried as bytes (each invalid byte is one code point / one UTF-16 unit).
//
// Lines are LSP lines: 0-based, `lineCount() == lineBreaks() + 1` ("a\n" has 2 lines, the second
// empty). Byte offsets are `std::size_t` counted from the start of the document.
//
// Thread-safety: a Rope value is immutable once shared; distinct Rope objects may be used from
// different threads concurrently (node reference counts are atomic, and a node is only updated in
// place while exactly one Rope can reach it). One Rope object is not synchronized: don't call
// `replace` on it while another thread reads that same object.
#pragma once

#include "engine/support/result.h"
#include "engine/text/encoding.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace hashline {

namespace rope_detail {
struct Node;
}

class Rope {
public:
  Rope();
  explicit Rope(std::string_view text);
  Rope(const Rope&) = default;
  Rope& operator=(const Rope&) = default;
  /// A moved-from Rope is empty (still usable), never a null tree.
  Rope(Rope&& other) noexcept;
  Rope& operator=(Rope&& other) noexcept;

  // --- size -------------------------------------------------------------------------------
  std::size_t byteSize() const;
  bool empty() const { return byteSize() == 0; }
  /// Number of line breaks (LF, CRLF, lone CR).
  std::size_t lineBreaks() const;
  /// LSP line count: lineBreaks() + 1.
  std::size_t lineCount() const { return lineBreaks() + 1; }

  // --- lines and bytes (all O(log n)) -------------------------------------------------------
  /// Byte offset where `line` starts. Precondition: line < lineCount().
  std::size_t lineStartByte(std::size_t line) const;
  /// Byte offset where `line`'s content ends (before its CR/LF/CRLF, or the document end).
  std::size_t lineEndByte(std::size_t line) const;
  /// Byte offset just past `line`'s terminator (== lineEndByte for the last line).
  std::size_t lineEndWithBreakByte(std::size_t line) const;
  /// The line holding `byte` (a byte inside a terminator belongs to the line it ends).
  /// Precondition: byte <= byteSize().
  std::size_t lineOfByte(std::size_t byte) const;

  // --- positions in an encoding (O(log n)) ----------------------------------------------------
  /// LSP position → byte offset. A character past the line's end means the line's end.
  /// Errors (ErrorCode::Desynced): line >= lineCount(), or a character that falls inside a
  /// UTF-16 surrogate pair / inside a multi-byte UTF-8 sequence (utf-8 encoding).
  Result<std::size_t> byteOfPosition(LspPosition position, PositionEncoding encoding) const;
  /// Byte offset → LSP position. Precondition: byte <= byteSize() and on a code point boundary.
  LspPosition positionOfByte(std::size_t byte, PositionEncoding encoding) const;
  /// Length of `line`'s content in code units of `encoding`.
  std::size_t lineLength(std::size_t line, PositionEncoding encoding) const;

  // --- reading -----------------------------------------------------------------------------
  /// Bytes [begin, end). Precondition: begin <= end <= byteSize().
  std::string slice(std::size_t begin, std::size_t end) const;
  /// Content of `line` without its terminator.
  std::string lineText(std::size_t line) const;
  std::string toString() const;
  /// Calls `visit` with consecutive pieces covering [begin, end), in order, without copying.
  void forEachChunk(std::size_t begin, std::size_t end,
                    const std::function<void(std::string_view)>& visit) const;

  // --- editing -----------------------------------------------------------------------------
  /// Replaces bytes [begin, end) with `text`: O(log n + text.size()). Other copies unchanged.
  /// Precondition: begin <= end <= byteSize().
  void replace(std::size_t begin, std::size_t end, std::string_view text);

  /// True when both ropes share the same root (a cheap identity check, not content equality).
  bool sharesRootWith(const Rope& other) const { return root_ == other.root_; }

  /// Checks internal invariants (balance, cached metrics, chunk sizes); for tests.
  bool checkInvariants() const;

private:
  explicit Rope(std::shared_ptr<const rope_detail::Node> root);
  std::shared_ptr<const rope_detail::Node> root_;
};

} // namespace hashline
