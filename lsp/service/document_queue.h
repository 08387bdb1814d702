// DocumentQueue: one edit in flight per document (DESIGN §6 "one queue per document").
//
// `run(key, job)` starts `job` at once when nothing runs for `key`, else after the jobs queued
// before it; a job signals the end by calling the `finished` function it was given (exactly
// once, possibly much later — after the editor confirmed). Different keys never wait for each
// other. The next job is started through the io_context (never re-entrantly from `finished`).
// Threading: single-threaded, on the io_context's thread.
#pragma once

#include <boost/asio/io_context.hpp>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <utility> // before Asio (Boost 1.74 + GCC 12)

namespace hashline::lsp {

class DocumentQueue {
public:
  using Finished = std::function<void()>;
  using Job = std::function<void(Finished finished)>;

  explicit DocumentQueue(boost::asio::io_context& io) : io_(io) {}

  void run(const std::string& key, Job job);
  /// Jobs queued or running for `key`.
  std::size_t pending(const std::string& key) const;

private:
  void startNext(const std::string& key);

  boost::asio::io_context& io_;
  std::map<std::string, std::deque<Job>> queues_; // front = running
};

} // namespace hashline::lsp
