// LineParser: the newline-delimited framing of `hashline mcp` — blank lines skipped, CRLF
// accepted, oversized lines skipped in sync, a final line without newline delivered at the end
// of the stream, and the same events whatever the read sizes.
#include "lsp/transport/line_framing.h"

#include <gtest/gtest.h>
#include <random>

namespace hashline::lsp {
namespace {

std::vector<FrameEvent> drain(MessageParser& parser) {
  std::vector<FrameEvent> events;
  for (FrameEvent e = parser.next(); e.kind != FrameEvent::NeedMore; e = parser.next())
    events.push_back(std::move(e));
  return events;
}

/// Feeds `bytes` in chunks of `chunk`, then ends the stream.
std::vector<FrameEvent> parseAll(std::string_view bytes, FramingLimits limits = {},
                                 std::size_t chunk = std::string_view::npos) {
  LineParser parser(limits);
  std::vector<FrameEvent> events;
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    parser.feed(bytes.substr(at, chunk));
    for (auto& e : drain(parser))
      events.push_back(std::move(e));
    if (chunk == std::string_view::npos) break;
  }
  if (FrameEvent last = parser.finish(); last.kind != FrameEvent::NeedMore)
    events.push_back(std::move(last));
  EXPECT_FALSE(parser.midMessage());
  return events;
}

std::string describe(const std::vector<FrameEvent>& events) {
  std::string out;
  for (const auto& e : events)
    out += std::to_string(e.kind) + ":" + e.body + ":" + std::to_string(e.declared_bytes) + "\n";
  return out;
}

TEST(LineParser, LinesAreMessages) {
  auto events = parseAll("{\"a\":1}\n{\"b\":2}\r\n");
  ASSERT_EQ(events.size(), 2u) << describe(events);
  EXPECT_EQ(events[0].kind, FrameEvent::Message);
  EXPECT_EQ(events[0].body, "{\"a\":1}");
  EXPECT_EQ(events[1].body, "{\"b\":2}");
}

TEST(LineParser, BlankLinesAreSkipped) {
  auto events = parseAll("\n\r\n  \t\n{}\n\n");
  ASSERT_EQ(events.size(), 1u) << describe(events);
  EXPECT_EQ(events[0].body, "{}");
}

TEST(LineParser, LastLineWithoutNewlineIsDeliveredAtTheEnd) {
  LineParser parser;
  parser.feed("{\"id\":1}\n{\"id\":2}");
  auto events = drain(parser);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_TRUE(parser.midMessage());
  FrameEvent last = parser.finish();
  EXPECT_EQ(last.kind, FrameEvent::Message);
  EXPECT_EQ(last.body, "{\"id\":2}");
  EXPECT_FALSE(parser.midMessage());
  EXPECT_EQ(parser.finish().kind, FrameEvent::NeedMore);
}

TEST(LineParser, OversizedLinesAreSkippedInSync) {
  FramingLimits limits;
  limits.max_body_bytes = 10;
  std::string stream = "0123456789\n" + std::string(50, 'x') + "\r\nafter\n" +
                       std::string(11, 'y') + "\n" + std::string(30, 'z');
  for (std::size_t chunk : {std::string_view::npos, std::size_t{1}, std::size_t{3}}) {
    auto events = parseAll(stream, limits, chunk);
    ASSERT_EQ(events.size(), 5u) << describe(events);
    EXPECT_EQ(events[0].body, "0123456789"); // exactly at the cap: fine
    EXPECT_EQ(events[1].kind, FrameEvent::Oversized);
    EXPECT_EQ(events[1].declared_bytes, 50u) << chunk;
    EXPECT_NE(events[1].problem.find("exceeds the limit of 10 bytes"), std::string::npos);
    EXPECT_EQ(events[2].body, "after");
    EXPECT_EQ(events[3].kind, FrameEvent::Oversized);
    EXPECT_EQ(events[3].declared_bytes, 11u);
    EXPECT_EQ(events[4].kind, FrameEvent::Oversized); // ended by the end of the stream
    EXPECT_EQ(events[4].declared_bytes, 30u);
  }
}

TEST(LineParser, OversizedLinesAreNotBuffered) {
  FramingLimits limits;
  limits.max_body_bytes = 100;
  LineParser parser(limits);
  const std::string block(4096, 'q');
  for (int i = 0; i < 1000; ++i) {
    parser.feed(block);
    EXPECT_TRUE(drain(parser).empty());
  }
  parser.feed("\n{}\n");
  auto events = drain(parser);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].kind, FrameEvent::Oversized);
  EXPECT_EQ(events[0].declared_bytes, 4096u * 1000);
  EXPECT_EQ(events[1].body, "{}");
}

TEST(LineParser, ChunkingDoesNotMatter) {
  std::mt19937 rng(7);
  FramingLimits limits;
  limits.max_body_bytes = 40;
  std::string stream;
  for (int i = 0; i < 300; ++i) {
    stream += std::string(rng() % 60, static_cast<char>('a' + i % 26));
    stream += rng() % 3 == 0 ? "\r\n" : "\n";
  }
  const std::string whole = describe(parseAll(stream, limits));
  for (std::size_t chunk : {1, 2, 7, 41, 4096})
    EXPECT_EQ(describe(parseAll(stream, limits, chunk)), whole) << chunk;
}

TEST(LineParser, FramingRoundTrip) {
  std::string out;
  appendFramed(Framing::Lines, out, "{\"x\":\"a\\nb\"}");
  EXPECT_EQ(out, "{\"x\":\"a\\nb\"}\n");
  auto parser = makeMessageParser(Framing::Lines, {});
  parser->feed(out);
  auto events = drain(*parser);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].body, "{\"x\":\"a\\nb\"}");
  std::string framed;
  appendFramed(Framing::ContentLength, framed, "{}");
  EXPECT_EQ(framed, "Content-Length: 2\r\n\r\n{}");
}

} // namespace
} // namespace hashline::lsp
