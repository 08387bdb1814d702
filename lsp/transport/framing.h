// Message framing: where one message body ends on a byte stream. Two framings share one
// interface (MessageParser) so every transport runs the same code above them:
// - Framing::ContentLength, the LSP base protocol `Content-Length: N\r\n\r\n<N bytes of JSON>`
//   (the editor's stdio, the agent socket): FrameParser, below;
// - Framing::Lines, one JSON text per `\n`-terminated line (MCP's stdio): LineParser,
//   line_framing.h.
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
#include <memory>
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

enum class Framing {
  ContentLength, // LSP base protocol (FrameParser)
  Lines,         // newline-delimited JSON (LineParser)
};

/// An incremental parser of one framing: bytes in, message events out. No I/O.
class MessageParser {
public:
  virtual ~MessageParser() = default;
  /// Appends bytes read from the stream.
  virtual void feed(std::string_view bytes) = 0;
  /// The next event; call until it returns NeedMore.
  virtual FrameEvent next() = 0;
  /// The stream ended: the last event a framing can still make of the bytes left (a final line
  /// without its newline), else NeedMore. Call after `next` returned NeedMore.
  virtual FrameEvent finish() { return {}; }
  /// True when part of a message has been received but not completed: an end of stream here
  /// means a truncated message.
  virtual bool midMessage() const = 0;
};

/// The parser of `framing`, and how it frames an outgoing body.
std::unique_ptr<MessageParser> makeMessageParser(Framing framing, FramingLimits limits);
void appendFramed(Framing framing, std::string& out, std::string_view body);

/// The Content-Length framing.
class FrameParser final : public MessageParser {
public:
  explicit FrameParser(FramingLimits limits = {});

  void feed(std::string_view bytes) override;
  FrameEvent next() override;
  bool midMessage() const override;

  bool broken() const { return state_ == State::Broken; }
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
