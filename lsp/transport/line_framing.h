// Newline-delimited JSON framing: one message body per line, as MCP's stdio transport sends it
// (the body is compact JSON, which never holds a raw newline).
//
// LineParser is the Framing::Lines MessageParser (framing.h), pure and incremental like the
// Content-Length FrameParser, so `hashline mcp` runs on the same StreamTransport and
// JsonRpcConnection as the editor and the agent socket. Rules:
// - a line ends at `\n`; one `\r` before it is dropped; lines holding only spaces, tabs (or
//   nothing) are skipped;
// - a line longer than `max_body_bytes` is an `Oversized` event once its newline arrives (its
//   `declared_bytes` is the line's length); its bytes are skipped, never buffered, and the next
//   line is read as usual;
// - nothing is ever Broken: a newline always resynchronizes;
// - at the end of the stream, a last line without its newline is still a message (`finish`).
//
// Threading: none; one parser per stream, used by one thread.
#pragma once

#include "lsp/transport/framing.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace hashline::lsp {

class LineParser final : public MessageParser {
public:
  explicit LineParser(FramingLimits limits = {});

  void feed(std::string_view bytes) override;
  FrameEvent next() override;
  FrameEvent finish() override;
  bool midMessage() const override;

private:
  /// The event for one complete line (without its `\n`): Message, Oversized, or NeedMore when
  /// it is blank.
  FrameEvent lineEvent(std::string_view line) const;
  FrameEvent endDiscard();
  std::size_t available() const { return input_.size() - input_offset_; }
  void consume(std::size_t bytes);

  FramingLimits limits_;
  std::string input_; // bytes not yet consumed start at input_offset_
  std::size_t input_offset_ = 0;
  std::size_t scanned_ = 0; // bytes after input_offset_ known to hold no newline
  bool discarding_ = false; // inside an oversized line
  std::size_t discarded_ = 0;
  bool discarded_cr_ = false; // the last discarded byte was '\r'
};

/// Appends `<body>\n` to `out`.
void appendLine(std::string& out, std::string_view body);

} // namespace hashline::lsp
