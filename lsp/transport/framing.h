// LSP base-protocol framing: `Content-Length: N\r\n\r\n<N bytes of JSON>`.
//
// FrameParser is a pure, incremental state machine: the transport feeds it whatever bytes a read
// returned, then pulls events until it needs more. It never does I/O, so it can be unit-tested
// and fuzzed byte by byte. Rules (LSP 3.17 §base protocol, plus what real clients send):
// - header names are case-insensitive; `Content-Length` is required; `Content-Type` and unknown
//   headers are accepted and ignored; lines may end in CRLF or a bare LF; blank lines between
//   messages are skipped;
// - a body larger than `max_body_bytes` is an `Oversized` event: the parser then skips exactly
//   that many bytes without buffering them, so the stream stays in sync;
// - anything else malformed (no colon, bad header name, missing or non-numeric length, header
//   block over `max_header_bytes`) is `Broken`: message boundaries are lost, the stream must be
//   closed. The parser stays broken.
//
// Threading: none; one parser per stream, used by one thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hashline::lsp {

inline constexpr std::size_t kDefaultMaxMessageBytes = std::size_t{64} << 20; // 64 MiB

struct FramingLimits {
  std::size_t max_body_bytes = kDefaultMaxMessageBytes;
  std::size_t max_header_bytes = 16 * 1024;
};

struct FrameEvent {
  enum Kind {
    NeedMore,  // feed more bytes
    Message,   // `body` holds one complete message body
    Oversized, // a message of `declared_bytes` exceeds the cap; it is being skipped
    Broken,    // unrecoverable framing error, `problem` says why
  } kind = NeedMore;
  std::string body;
  std::size_t declared_bytes = 0;
  std::string problem;
};

class FrameParser {
public:
  explicit FrameParser(FramingLimits limits = {});

  /// Appends bytes read from the stream.
  void feed(std::string_view bytes);
  /// The next event; call until it returns NeedMore.
  FrameEvent next();

  bool broken() const { return state_ == State::Broken; }
  /// True when part of a message (headers or body) has been received but not completed:
  /// an end of stream here means a truncated message.
  bool midMessage() const;
  const FramingLimits& limits() const { return limits_; }

private:
  enum class State { Headers, Body, Discard, Broken };

  FrameEvent parseHeaderLine(std::string_view line);
  FrameEvent endOfHeaders();
  FrameEvent fail(std::string problem);
  std::size_t available() const { return input_.size() - input_offset_; }
  void consume(std::size_t bytes);

  FramingLimits limits_;
  State state_ = State::Headers;
  std::string input_; // bytes not yet consumed start at input_offset_
  std::size_t input_offset_ = 0;
  std::size_t header_bytes_ = 0; // size of the current header block so far
  bool saw_header_ = false;
  bool has_length_ = false;
  std::size_t content_length_ = 0;
  std::string body_; // reserved to content_length_ once headers end
  std::size_t discard_left_ = 0;
};

/// Appends `Content-Length: N\r\n\r\n<body>` to `out`.
void appendFrame(std::string& out, std::string_view body);
std::string frameMessage(std::string_view body);

} // namespace hashline::lsp
