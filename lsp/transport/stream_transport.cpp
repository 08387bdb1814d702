// StreamTransport's read loop (bytes → FrameParser → MessageSink) and coalescing write queue.
#include "lsp/transport/stream_transport.h"

#include "lsp/support/log.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/write.hpp>
#include <unistd.h>

namespace hashline::lsp {
namespace {

// How each stream type stops reading and closes its output.
void cancelReading(boost::asio::posix::stream_descriptor& stream) {
  boost::system::error_code ignored;
  stream.cancel(ignored);
  stream.close(ignored);
}
void cancelReading(SharedSocket& socket) {
  socket.shutdownReceive();
}
void closeOutput(boost::asio::posix::stream_descriptor& stream) {
  boost::system::error_code ignored;
  stream.close(ignored);
}
void closeOutput(SharedSocket& socket) {
  socket.shutdownSend();
  socket.close();
}

} // namespace

template <class R, class W>
StreamTransport<R, W>::StreamTransport(R input, W output, FramingLimits limits, Framing framing)
    : input_(std::move(input)), output_(std::move(output)), framing_(framing),
      parser_(makeMessageParser(framing, limits)) {}

template <class R, class W> StreamTransport<R, W>::~StreamTransport() = default;

template <class R, class W> void StreamTransport<R, W>::start(MessageSink& sink) {
  sink_ = &sink;
  readMore();
}

template <class R, class W> void StreamTransport<R, W>::readMore() {
  if (input_done_) return;
  std::weak_ptr<int> alive = alive_;
  input_.async_read_some(boost::asio::buffer(read_buffer_),
                         [this, alive](boost::system::error_code error, std::size_t bytes) {
                           if (alive.expired() || input_done_) return;
                           if (bytes > 0) {
                             bytes_read_ += bytes;
                             parser_->feed(std::string_view(read_buffer_.data(), bytes));
                             drainParser();
                             if (alive.expired() || input_done_) return;
                           }
                           if (error) {
                             if (error == boost::asio::error::eof) {
                               // A framing may still make a message of what is left.
                               FrameEvent last = parser_->finish();
                               if (last.kind != FrameEvent::NeedMore && !deliver(std::move(last)))
                                 return;
                               if (alive.expired() || input_done_) return;
                             }
                             input_done_ = true;
                             std::string problem;
                             if (error != boost::asio::error::eof &&
                                 error != boost::asio::error::operation_aborted)
                               problem = "read error: " + error.message();
                             else if (parser_->midMessage())
                               problem = "input ended in the middle of a message";
                             sink_->onInputClosed(problem);
                             return;
                           }
                           readMore();
                         });
}

template <class R, class W> void StreamTransport<R, W>::drainParser() {
  std::weak_ptr<int> alive = alive_;
  while (!input_done_) {
    FrameEvent event = parser_->next();
    if (event.kind == FrameEvent::NeedMore || !deliver(std::move(event))) return;
    if (alive.expired()) return;
  }
}

template <class R, class W> bool StreamTransport<R, W>::deliver(FrameEvent event) {
  switch (event.kind) {
  case FrameEvent::NeedMore:
    return true;
  case FrameEvent::Message:
    sink_->onMessage(std::move(event.body));
    return true;
  case FrameEvent::Oversized:
    log::warn("skipping oversized message: ", event.problem);
    sink_->onOversizedMessage(event.declared_bytes, event.problem);
    return true;
  case FrameEvent::Broken:
    input_done_ = true;
    log::error("broken frame, closing the connection: ", event.problem);
    sink_->onInputClosed(event.problem);
    return false;
  }
  return true;
}

template <class R, class W> void StreamTransport<R, W>::send(std::string body) {
  if (output_broken_) return;
  appendFramed(framing_, queued_, body);
  if (!write_in_flight_) writeMore();
}

template <class R, class W> void StreamTransport<R, W>::writeMore() {
  if (queued_.empty() || output_broken_) {
    write_in_flight_ = false;
    queued_.clear();
    if (closing_) finishClose();
    return;
  }
  writing_.swap(queued_);
  queued_.clear();
  write_in_flight_ = true;
  std::weak_ptr<int> alive = alive_;
  boost::asio::async_write(output_, boost::asio::buffer(writing_),
                           [this, alive](boost::system::error_code error, std::size_t bytes) {
                             if (alive.expired()) return;
                             bytes_written_ += bytes;
                             writing_.clear();
                             if (error) {
                               log::error("write failed, peer gone? ", error.message());
                               output_broken_ = true;
                               if (!input_done_ && !closing_) {
                                 input_done_ = true;
                                 cancelReading(input_);
                                 sink_->onInputClosed("write error: " + error.message());
                                 if (alive.expired()) return;
                               }
                             }
                             writeMore();
                           });
}

template <class R, class W> void StreamTransport<R, W>::close(std::function<void()> done) {
  if (closing_) return;
  closing_ = true;
  on_closed_ = std::move(done);
  if (!input_done_) {
    input_done_ = true;
    cancelReading(input_);
  }
  if (!write_in_flight_) finishClose();
}

template <class R, class W> void StreamTransport<R, W>::finishClose() {
  closeOutput(output_);
  if (auto done = std::move(on_closed_)) {
    on_closed_ = nullptr;
    done();
  }
}

template class StreamTransport<boost::asio::posix::stream_descriptor,
                               boost::asio::posix::stream_descriptor>;
template class StreamTransport<SharedSocket, SharedSocket>;

std::unique_ptr<StdioTransport> makeStdioTransport(boost::asio::io_context& io,
                                                   FramingLimits limits, Framing framing) {
  boost::asio::posix::stream_descriptor input(io, ::dup(STDIN_FILENO));
  boost::asio::posix::stream_descriptor output(io, ::dup(STDOUT_FILENO));
  return std::make_unique<StdioTransport>(std::move(input), std::move(output), limits, framing);
}

std::unique_ptr<SocketTransport>
makeSocketTransport(boost::asio::local::stream_protocol::socket socket, FramingLimits limits) {
  auto shared = std::make_shared<boost::asio::local::stream_protocol::socket>(std::move(socket));
  return std::make_unique<SocketTransport>(SharedSocket(shared), SharedSocket(shared), limits);
}

} // namespace hashline::lsp
