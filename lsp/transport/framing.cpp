// The Content-Length state machine (headers → body | discard), see framing.h for the rules.
#include "lsp/transport/framing.h"

#include "engine/support/hex.h"
#include "lsp/transport/line_framing.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace hashline::lsp {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

bool equalsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// RFC 7230 token characters, the only ones allowed in a header name.
bool isTokenChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::strchr("!#$%&'*+-.^_`|~", c) != nullptr && c != '\0';
}

// Printable text for an error message (headers may be arbitrary bytes).
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text.substr(0, 60)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f && c != '"' && c != '\\') {
      out.push_back(c);
    } else {
      out += "\\x";
      appendHexByte(out, u);
    }
  }
  if (text.size() > 60) out += "...";
  return out + "\"";
}

} // namespace

FrameParser::FrameParser(FramingLimits limits) : limits_(limits) {}

void FrameParser::feed(std::string_view bytes) {
  if (state_ == State::Broken) return;
  // Compact before growing so the buffer never holds much more than one read of stale bytes.
  if (input_offset_ > 0 && (input_offset_ == input_.size() || input_offset_ >= (64u << 10))) {
    input_.erase(0, input_offset_);
    input_offset_ = 0;
  }
  input_.append(bytes);
}

void FrameParser::consume(std::size_t bytes) {
  input_offset_ += bytes;
  if (input_offset_ == input_.size()) {
    input_.clear();
    input_offset_ = 0;
  }
}

bool FrameParser::midMessage() const {
  switch (state_) {
  case State::Headers:
    return saw_header_ || available() > 0;
  case State::Body:
    return true;
  case State::Discard:
    return discard_left_ > 0;
  case State::Broken:
    return false;
  }
  return false;
}

FrameEvent FrameParser::fail(std::string problem) {
  state_ = State::Broken;
  input_.clear();
  input_offset_ = 0;
  body_.clear();
  FrameEvent event;
  event.kind = FrameEvent::Broken;
  event.problem = std::move(problem);
  return event;
}

FrameEvent FrameParser::next() {
  while (true) {
    switch (state_) {
    case State::Broken:
      return {};

    case State::Discard: {
      std::size_t take = std::min(discard_left_, available());
      consume(take);
      discard_left_ -= take;
      if (discard_left_ > 0) return {};
      state_ = State::Headers;
      continue;
    }

    case State::Body: {
      std::size_t take = std::min(content_length_ - body_.size(), available());
      body_.append(input_, input_offset_, take);
      consume(take);
      if (body_.size() < content_length_) return {};
      state_ = State::Headers;
      FrameEvent event;
      event.kind = FrameEvent::Message;
      event.body = std::move(body_);
      body_ = std::string();
      return event;
    }

    case State::Headers: {
      const char* start = input_.data() + input_offset_;
      const void* newline = std::memchr(start, '\n', available());
      if (!newline) {
        if (header_bytes_ + available() > limits_.max_header_bytes)
          return fail("header block exceeds " + std::to_string(limits_.max_header_bytes) +
                      " bytes without ending");
        return {};
      }
      std::size_t line_bytes = static_cast<const char*>(newline) - start + 1;
      std::string_view line(start, line_bytes - 1);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      header_bytes_ += line_bytes;
      if (header_bytes_ > limits_.max_header_bytes)
        return fail("header block exceeds " + std::to_string(limits_.max_header_bytes) + " bytes");
      FrameEvent event;
      if (line.empty()) {
        if (!saw_header_) { // blank line between messages: tolerated
          header_bytes_ = 0;
          consume(line_bytes);
          continue;
        }
        consume(line_bytes);
        event = endOfHeaders();
      } else {
        std::string copy(line); // parseHeaderLine may fail and clear input_
        consume(line_bytes);
        event = parseHeaderLine(copy);
      }
      if (event.kind != FrameEvent::NeedMore) return event;
      continue;
    }
    }
  }
}

FrameEvent FrameParser::parseHeaderLine(std::string_view line) {
  std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0)
    return fail("malformed header line " + quoted(line) + " (expected \"Name: value\")");
  std::string_view name = line.substr(0, colon);
  if (!std::all_of(name.begin(), name.end(), isTokenChar))
    return fail("malformed header name " + quoted(name));
  std::string_view value = trim(line.substr(colon + 1));
  saw_header_ = true;
  if (!equalsNoCase(name, "Content-Length")) return {}; // Content-Type and others: ignored

  if (value.empty() || value.size() > 19 ||
      !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return fail("invalid Content-Length " + quoted(value));
  std::size_t length = 0;
  for (char c : value)
    length = length * 10 + static_cast<std::size_t>(c - '0');
  if (has_length_ && length != content_length_)
    return fail("two different Content-Length headers (" + std::to_string(content_length_) +
                " and " + std::to_string(length) + ")");
  has_length_ = true;
  content_length_ = length;
  return {};
}

FrameEvent FrameParser::endOfHeaders() {
  if (!has_length_) return fail("message without a Content-Length header");
  std::size_t length = content_length_;
  saw_header_ = false;
  has_length_ = false;
  header_bytes_ = 0;
  if (length > limits_.max_body_bytes) {
    state_ = State::Discard;
    discard_left_ = length;
    FrameEvent event;
    event.kind = FrameEvent::Oversized;
    event.declared_bytes = length;
    event.problem = "message of " + std::to_string(length) + " bytes exceeds the limit of " +
                    std::to_string(limits_.max_body_bytes) + " bytes (--max-message-bytes)";
    return event;
  }
  state_ = State::Body;
  body_ = std::string();
  body_.reserve(length);
  return {};
}

void appendFrame(std::string& out, std::string_view body) {
  out += "Content-Length: ";
  out += std::to_string(body.size());
  out += "\r\n\r\n";
  out.append(body);
}

std::unique_ptr<MessageParser> makeMessageParser(Framing framing, FramingLimits limits) {
  if (framing == Framing::Lines) return std::make_unique<LineParser>(limits);
  return std::make_unique<FrameParser>(limits);
}

void appendFramed(Framing framing, std::string& out, std::string_view body) {
  if (framing == Framing::Lines) return appendLine(out, body);
  appendFrame(out, body);
}

std::string frameMessage(std::string_view body) {
  std::string out;
  out.reserve(body.size() + 32);
  appendFrame(out, body);
  return out;
}

} // namespace hashline::lsp
