// Transport: moves whole message bodies between the process and one peer.
//
// The JSON-RPC layer (lsp/rpc) sees only this interface: it is handed a MessageSink for what
// arrives and calls `send` for what leaves. Implementations frame the bytes (framing.h) over
// some stream: stdio for the editor, a Unix socket for agents, memory in tests.
//
// Threading: a transport and its sink live on one thread (the io_context's). `send` may be
// called at any time from that thread, including from inside a sink callback; sends are queued
// and written in order.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace hashline::lsp {

/// Receives what the transport reads, in arrival order.
class MessageSink {
public:
  virtual ~MessageSink() = default;
  /// One complete message body (not yet parsed as JSON).
  virtual void onMessage(std::string body) = 0;
  /// A message over the size cap was skipped; the stream is still usable.
  virtual void onOversizedMessage(std::size_t declared_bytes, const std::string& problem) = 0;
  /// The stream can no longer be read: a broken frame (`problem` says why) or the end of the
  /// stream (`problem` empty when it ended cleanly between messages). No more callbacks follow.
  virtual void onInputClosed(const std::string& problem) = 0;
};

class Transport {
public:
  virtual ~Transport() = default;
  /// Starts reading; every message goes to `sink`, which must outlive the transport's reading.
  virtual void start(MessageSink& sink) = 0;
  /// Queues one message body for writing (the transport frames it).
  virtual void send(std::string body) = 0;
  /// Stops reading, writes out everything queued, closes the output, then calls `done`.
  virtual void close(std::function<void()> done) = 0;
};

} // namespace hashline::lsp
