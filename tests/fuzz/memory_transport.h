// MemoryTransport: a Transport (lsp/transport/transport.h) over in-memory message lists, for the
// fuzzers that drive JsonRpcConnection or a whole LspServer without pipes.
//
// `start` posts the delivery of every queued incoming body to the sink, in order, followed by
// an end of input (so an io_context run finishes); `send` records outgoing bodies. Threading:
// the io_context's thread only.
#pragma once
#include "lsp/transport/transport.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <functional>
#include <memory>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)
#include <vector>

namespace hashline::fuzz {

class MemoryTransport : public lsp::Transport {
public:
  MemoryTransport(boost::asio::io_context& io, std::vector<std::string> incoming,
                  std::shared_ptr<std::vector<std::string>> sent)
      : io_(io), incoming_(std::move(incoming)), sent_(std::move(sent)) {}

  void start(lsp::MessageSink& sink) override {
    sink_ = &sink;
    boost::asio::post(io_, [this] { deliver(0); });
  }
  void send(std::string body) override {
    if (!closed_) sent_->push_back(std::move(body));
  }
  void close(std::function<void()> done) override {
    closed_ = true;
    stopped_ = true;
    boost::asio::post(io_, std::move(done));
  }

private:
  // One message per posted step, so work the handler posts in between runs in between.
  void deliver(std::size_t index) {
    if (stopped_) return;
    if (index == incoming_.size()) {
      stopped_ = true;
      sink_->onInputClosed("");
      return;
    }
    sink_->onMessage(incoming_[index]);
    boost::asio::post(io_, [this, index] { deliver(index + 1); });
  }

  boost::asio::io_context& io_;
  std::vector<std::string> incoming_;
  std::shared_ptr<std::vector<std::string>> sent_;
  lsp::MessageSink* sink_ = nullptr;
  bool closed_ = false;
  bool stopped_ = false;
};

} // namespace hashline::fuzz
