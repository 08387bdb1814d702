// StreamTransport: the Transport over any Boost.Asio byte stream.
//
// Used for the editor's stdio (`StdioTransport`: two posix::stream_descriptor, stdin and stdout)
// and for agent connections on a Unix socket (`SocketTransport`: one local stream socket used
// for both directions), in either framing (framing.h): Content-Length for LSP and the agent
// socket, newline-delimited lines for `hashline mcp`. Reads 64 KiB at a time into the framing's
// MessageParser; writes are coalesced: while one async_write is in flight, new messages are
// appended to the next batch.
//
// Threading: single-threaded; all handlers run on the io_context the streams belong to, which
// must outlive the transport. Keep the transport alive (it is usually owned by the server) until
// `close`'s callback ran or the io_context stopped.
#pragma once

#include "lsp/transport/framing.h"
#include "lsp/transport/transport.h"

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <functional>
#include <memory>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)

namespace hashline::lsp {

/// `ReadStream` and `WriteStream` are Asio AsyncReadStream / AsyncWriteStream types. When both
/// directions use one object (a socket), pass the same stream twice via `SharedStream`.
template <class ReadStream, class WriteStream = ReadStream>
class StreamTransport : public Transport {
public:
  /// Separate input and output streams (stdin/stdout).
  StreamTransport(ReadStream input, WriteStream output, FramingLimits limits,
                  Framing framing = Framing::ContentLength);
  ~StreamTransport() override;

  void start(MessageSink& sink) override;
  void send(std::string body) override;
  void close(std::function<void()> done) override;

  /// Total bytes read and written so far (for logs).
  std::size_t bytesRead() const { return bytes_read_; }
  std::size_t bytesWritten() const { return bytes_written_; }

private:
  void readMore();
  void drainParser();
  /// Hands one parser event to the sink; false when reading must stop (broken framing).
  bool deliver(FrameEvent event);
  void writeMore();
  void finishClose();

  ReadStream input_;
  WriteStream output_;
  Framing framing_;
  std::unique_ptr<MessageParser> parser_;
  MessageSink* sink_ = nullptr;
  std::array<char, 64 * 1024> read_buffer_{};
  std::string writing_; // the batch being written
  std::string queued_;  // messages waiting for the next batch
  bool write_in_flight_ = false;
  bool input_done_ = false;
  bool closing_ = false;
  bool output_broken_ = false;
  std::function<void()> on_closed_;
  std::size_t bytes_read_ = 0;
  std::size_t bytes_written_ = 0;
  // Guards handlers that outlive the transport (they capture a weak_ptr to this token).
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

using StdioTransport =
    StreamTransport<boost::asio::posix::stream_descriptor, boost::asio::posix::stream_descriptor>;

/// A socket used for both directions: reads and writes go through one shared socket object.
class SharedSocket {
public:
  using executor_type = boost::asio::local::stream_protocol::socket::executor_type;
  explicit SharedSocket(std::shared_ptr<boost::asio::local::stream_protocol::socket> socket)
      : socket_(std::move(socket)) {}
  executor_type get_executor() { return socket_->get_executor(); }
  template <class Buffers, class Handler> auto async_read_some(const Buffers& b, Handler&& h) {
    return socket_->async_read_some(b, std::forward<Handler>(h));
  }
  template <class Buffers, class Handler> auto async_write_some(const Buffers& b, Handler&& h) {
    return socket_->async_write_some(b, std::forward<Handler>(h));
  }
  void close() {
    boost::system::error_code ignored;
    socket_->close(ignored);
  }
  void shutdownSend() {
    boost::system::error_code ignored;
    socket_->shutdown(boost::asio::socket_base::shutdown_send, ignored);
  }
  void shutdownReceive() {
    boost::system::error_code ignored;
    socket_->shutdown(boost::asio::socket_base::shutdown_receive, ignored);
  }

private:
  std::shared_ptr<boost::asio::local::stream_protocol::socket> socket_;
};

using SocketTransport = StreamTransport<SharedSocket, SharedSocket>;

/// The transport of `hashline lsp` and `hashline mcp`: stdin/stdout of this process (duplicated
/// descriptors, so closing the transport never closes fds 0/1 under other code).
std::unique_ptr<StdioTransport> makeStdioTransport(boost::asio::io_context& io,
                                                   FramingLimits limits,
                                                   Framing framing = Framing::ContentLength);

/// A transport over a connected Unix stream socket (agent endpoint).
std::unique_ptr<SocketTransport>
makeSocketTransport(boost::asio::local::stream_protocol::socket socket, FramingLimits limits);

extern template class StreamTransport<boost::asio::posix::stream_descriptor,
                                      boost::asio::posix::stream_descriptor>;
extern template class StreamTransport<SharedSocket, SharedSocket>;

} // namespace hashline::lsp
