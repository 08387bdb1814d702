// The newline-delimited framing (lines → messages, oversized lines skipped); see line_framing.h.
#include "lsp/transport/line_framing.h"

#include <cstring>

namespace hashline::lsp {
namespace {

bool isBlank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

std::string_view dropCarriageReturn(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

FrameEvent oversized(std::size_t bytes, std::size_t limit) {
  FrameEvent event;
  event.kind = FrameEvent::Oversized;
  event.declared_bytes = bytes;
  event.problem = "message of " + std::to_string(bytes) + " bytes exceeds the limit of " +
                  std::to_string(limit) + " bytes (--max-message-bytes)";
  return event;
}

} // namespace

LineParser::LineParser(FramingLimits limits) : limits_(limits) {}

void LineParser::feed(std::string_view bytes) {
  // Compact before growing so the buffer never holds much more than one read of stale bytes.
  if (input_offset_ > 0 && (input_offset_ == input_.size() || input_offset_ >= (64u << 10))) {
    input_.erase(0, input_offset_);
    input_offset_ = 0;
  }
  input_.append(bytes);
}

void LineParser::consume(std::size_t bytes) {
  input_offset_ += bytes;
  scanned_ = 0;
  if (input_offset_ == input_.size()) {
    input_.clear();
    input_offset_ = 0;
  }
}

bool LineParser::midMessage() const {
  if (discarding_) return true;
  return !isBlank(std::string_view(input_).substr(input_offset_));
}

FrameEvent LineParser::lineEvent(std::string_view line) const {
  line = dropCarriageReturn(line);
  if (line.size() > limits_.max_body_bytes) return oversized(line.size(), limits_.max_body_bytes);
  if (isBlank(line)) return {};
  FrameEvent event;
  event.kind = FrameEvent::Message;
  event.body.assign(line);
  return event;
}

FrameEvent LineParser::endDiscard() {
  discarding_ = false;
  std::size_t bytes = discarded_ - (discarded_cr_ ? 1 : 0);
  discarded_ = 0;
  discarded_cr_ = false;
  return oversized(bytes, limits_.max_body_bytes);
}

FrameEvent LineParser::next() {
  while (available() > 0) {
    const char* start = input_.data() + input_offset_;
    const void* newline = std::memchr(start + scanned_, '\n', available() - scanned_);
    if (discarding_) {
      std::size_t skip = newline ? static_cast<const char*>(newline) - start : available();
      if (skip > 0) {
        discarded_ += skip;
        discarded_cr_ = start[skip - 1] == '\r';
      }
      consume(newline ? skip + 1 : skip);
      if (!newline) return {};
      return endDiscard();
    }
    if (!newline) {
      scanned_ = available();
      // Over the cap even if a '\r' ends it: skip it from here on without buffering.
      if (available() > limits_.max_body_bytes + 1) {
        discarding_ = true;
        discarded_ = available();
        discarded_cr_ = start[available() - 1] == '\r';
        consume(available());
      }
      return {};
    }
    std::size_t length = static_cast<const char*>(newline) - start;
    FrameEvent event = lineEvent(std::string_view(start, length));
    consume(length + 1);
    if (event.kind != FrameEvent::NeedMore) return event;
  }
  return {};
}

FrameEvent LineParser::finish() {
  if (discarding_) return endDiscard();
  FrameEvent event = lineEvent(std::string_view(input_).substr(input_offset_));
  consume(available());
  return event;
}

void appendLine(std::string& out, std::string_view body) {
  out.append(body);
  out.push_back('\n');
}

} // namespace hashline::lsp
