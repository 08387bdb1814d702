// Per-document serialization of edits; see document_queue.h.
#include "lsp/service/document_queue.h"

#include <boost/asio/post.hpp>
#include <memory>

namespace hashline::lsp {

void DocumentQueue::run(const std::string& key, Job job) {
  auto& queue = queues_[key];
  queue.push_back(std::move(job));
  if (queue.size() == 1) startNext(key);
}

std::size_t DocumentQueue::pending(const std::string& key) const {
  auto it = queues_.find(key);
  return it == queues_.end() ? 0 : it->second.size();
}

void DocumentQueue::startNext(const std::string& key) {
  auto it = queues_.find(key);
  if (it == queues_.end() || it->second.empty()) return;
  auto done = std::make_shared<bool>(false);
  Finished finished = [this, key, done] {
    if (*done) return;
    *done = true;
    boost::asio::post(io_, [this, key] {
      auto it = queues_.find(key);
      if (it == queues_.end()) return;
      it->second.pop_front();
      if (it->second.empty())
        queues_.erase(it);
      else
        startNext(key);
    });
  };
  Job job = it->second.front(); // copy: the deque may grow while it runs
  job(std::move(finished));
}

} // namespace hashline::lsp
