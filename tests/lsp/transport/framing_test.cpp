// FrameParser: the pure Content-Length state machine, including chunking independence (the same
// events whatever the read sizes) and a small random-input property test.
#include "lsp/transport/framing.h"

#include <gtest/gtest.h>
#include <random>

namespace hashline::lsp {
namespace {

std::vector<FrameEvent> drain(FrameParser& parser) {
  std::vector<FrameEvent> events;
  for (FrameEvent e = parser.next(); e.kind != FrameEvent::NeedMore; e = parser.next())
    events.push_back(std::move(e));
  return events;
}

std::vector<FrameEvent> parseAll(std::string_view bytes, FramingLimits limits = {},
                                 std::size_t chunk = std::string_view::npos) {
  FrameParser parser(limits);
  std::vector<FrameEvent> events;
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    parser.feed(bytes.substr(at, chunk));
    for (auto& e : drain(parser))
      events.push_back(std::move(e));
    if (chunk == std::string_view::npos) break;
  }
  return events;
}

std::string describe(const std::vector<FrameEvent>& events) {
  std::string out;
  for (const auto& e : events)
    out += std::to_string(e.kind) + ":" + e.body + ":" + std::to_string(e.declared_bytes) + ":" +
           e.problem + "\n";
  return out;
}

TEST(FrameParser, OneMessage) {
  auto events = parseAll("Content-Length: 5\r\n\r\nhello");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, FrameEvent::Message);
  EXPECT_EQ(events[0].body, "hello");
}

TEST(FrameParser, SeveralMessagesAndEmptyBody) {
  auto events = parseAll(frameMessage("a") + frameMessage("") + frameMessage("{\"x\":1}"));
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].body, "a");
  EXPECT_EQ(events[1].body, "");
  EXPECT_EQ(events[1].kind, FrameEvent::Message);
  EXPECT_EQ(events[2].body, "{\"x\":1}");
}

TEST(FrameParser, HeaderSpellings) {
  for (std::string header :
       {"content-length: 2\r\n\r\n", "CONTENT-LENGTH:2\r\n\r\n", "Content-Length: 2   \r\n\r\n",
        "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n",
        "Content-Length: 2\r\nContent-Length: 2\r\n\r\n", "Content-Length: 2\n\n",
        "\r\n\r\nContent-Length: 2\r\n\r\n",
        "X-Custom-Header: anything: at all\r\nContent-Length: 2\r\n\r\n"}) {
    auto events = parseAll(header + "{}");
    ASSERT_EQ(events.size(), 1u) << header;
    EXPECT_EQ(events[0].kind, FrameEvent::Message) << header;
    EXPECT_EQ(events[0].body, "{}") << header;
  }
}

TEST(FrameParser, BrokenHeadersAreFatal) {
  for (std::string bytes :
       {"Content-Length 2\r\n\r\n{}", "Content-Length: x\r\n\r\n", "Content-Length: -1\r\n\r\n",
        "Content-Length: 99999999999999999999\r\n\r\n", "Content-Length: 1 2\r\n\r\n",
        "Content-Length:\r\n\r\n", "Content-Type: x\r\n\r\n{}", "Bad Name: 1\r\n", ": no name\r\n",
        "{\"jsonrpc\":\"2.0\"}\r\n\r\n", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n"}) {
    FrameParser parser;
    parser.feed(bytes);
    auto events = drain(parser);
    ASSERT_EQ(events.size(), 1u) << bytes;
    EXPECT_EQ(events[0].kind, FrameEvent::Broken) << bytes;
    EXPECT_FALSE(events[0].problem.empty());
    EXPECT_TRUE(parser.broken());
    parser.feed(frameMessage("{}")); // stays broken: boundaries are lost
    EXPECT_TRUE(drain(parser).empty());
  }
}

TEST(FrameParser, HeaderBlockIsBounded) {
  FramingLimits limits;
  limits.max_header_bytes = 100;
  auto events = parseAll(std::string(101, 'a'), limits);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, FrameEvent::Broken);
  events = parseAll("X-A: " + std::string(60, 'a') + "\r\nX-B: " + std::string(60, 'b') + "\r\n",
                    limits);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, FrameEvent::Broken);
}

TEST(FrameParser, OversizedMessagesAreSkippedInSync) {
  FramingLimits limits;
  limits.max_body_bytes = 10;
  std::string stream =
      frameMessage("0123456789") + frameMessage(std::string(50, 'x')) + frameMessage("after");
  for (std::size_t chunk : {std::string::npos, std::size_t{1}, std::size_t{7}}) {
    auto events = parseAll(stream, limits, chunk);
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events[0].body, "0123456789");
    EXPECT_EQ(events[1].kind, FrameEvent::Oversized);
    EXPECT_EQ(events[1].declared_bytes, 50u);
    EXPECT_EQ(events[2].body, "after");
  }
}

TEST(FrameParser, MidMessage) {
  FrameParser parser;
  EXPECT_FALSE(parser.midMessage());
  parser.feed("Content-Len");
  drain(parser);
  EXPECT_TRUE(parser.midMessage());
  parser.feed("gth: 4\r\n\r\nab");
  drain(parser);
  EXPECT_TRUE(parser.midMessage());
  parser.feed("cd");
  EXPECT_EQ(drain(parser).size(), 1u);
  EXPECT_FALSE(parser.midMessage());
}

TEST(FrameParser, ChunkingDoesNotMatter) {
  std::string stream;
  for (int i = 0; i < 30; ++i)
    stream += frameMessage(std::string(i * 7 % 23, 'a' + i % 26));
  stream += "Content-Length: 100000\r\n\r\n" + std::string(100000, 'z');
  const std::string whole = describe(parseAll(stream));
  for (std::size_t chunk = 1; chunk < 40; ++chunk)
    ASSERT_EQ(describe(parseAll(stream, {}, chunk)), whole) << "chunk " << chunk;
}

// Random soups of header fragments and bytes: never crashes, and the event sequence is the
// same for any chunking.
TEST(FrameParser, RandomInputProperty) {
  std::mt19937 rng(42);
  const char* pieces[] = {"Content-Length: ",
                          "content-length:",
                          "3",
                          "10",
                          "\r\n",
                          "\n",
                          "\r",
                          ":",
                          "Content-Type: x",
                          "abc",
                          "{}",
                          "\x00\xff",
                          " ",
                          "999999999999"};
  FramingLimits limits;
  limits.max_body_bytes = 64;
  limits.max_header_bytes = 256;
  for (int round = 0; round < 2000; ++round) {
    std::string stream;
    int count = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < count; ++i)
      stream += rng() % 4 == 0 ? frameMessage(std::string(rng() % 80, 'q'))
                               : std::string(pieces[rng() % std::size(pieces)]);
    std::string whole = describe(parseAll(stream, limits));
    std::size_t chunk = 1 + rng() % 9;
    ASSERT_EQ(describe(parseAll(stream, limits, chunk)), whole) << "round " << round;
  }
}

TEST(FrameWriter, RoundTrips) {
  std::string out;
  appendFrame(out, "{\"a\":\"\xE4\xB8\xAD\"}");
  EXPECT_EQ(out, "Content-Length: 11\r\n\r\n{\"a\":\"\xE4\xB8\xAD\"}");
  auto events = parseAll(out);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].body, "{\"a\":\"\xE4\xB8\xAD\"}");
}

} // namespace
} // namespace hashline::lsp
